/* The quad's arithmetic ahead of its stages (docs/speed-history.md "Issue 18:
 * fragments in batches").  Nothing in a quad's MFU, TEX and ALU work depends
 * on time, except through shared state: uniform writes, kills (PSEQ removes
 * a quad, DW and late depth/stencil read them), the destination fetch
 * (memory order against DW), a texture that is also a render target, and the
 * viewer's probe.  A draw with none of these computes each quad's EXECs in
 * program order when PSEQ admits it (gr3d_ahead_run), and records per EXEC
 * and unit what the stage would have returned and counted, and the pair each
 * DW store reads.  It does so for a batch: every quad waiting in PSEQ's
 * input port when the first of them is admitted (up to ALU_BATCH_MAX),
 * each EXEC's MFU and TEX quad by quad and its ALU packets over the batch
 * at once (alu_batch_exec); a quad's records are copied to its slot when
 * PSEQ admits it.  The stages then only book: the clocks from the record and
 * its counter increments, in the cycle the general path would count them, so
 * every cycle, stall, counter and timeline event is the general path's, also
 * for a run stopped early.  A draw chosen once (gr3d_ahead_new) keeps the
 * general path otherwise. */
#ifndef ULP_UNITS_GR3D_AHEAD_H
#define ULP_UNITS_GR3D_AHEAD_H

#include "units/gr3d/alu.h"
#include "units/gr3d/gr3d_quad.h"
#include "units/gr3d/pseq.h"

/* The three units that work ahead, in pipeline order (gr3d_stage.ahead_unit). */
enum { GR3D_AHEAD_MFU, GR3D_AHEAD_TEX, GR3D_AHEAD_ALU, GR3D_AHEAD_UNITS };
enum { GR3D_AHEAD_CTRS = 4 };     /* the most counters of MFU, TEX, ALU */

/* What one unit did for one EXEC of one quad. */
typedef struct gr3d_ahead_rec {
	uint32_t ctr[GR3D_AHEAD_CTRS];   /* counter increments */
	uint16_t clocks;                 /* the stage's return */
} gr3d_ahead_rec;

typedef struct gr3d_ahead {
	gr3d_ctx *ctx;
	gr3d_stage *unit[GR3D_AHEAD_UNITS];
	/* each unit's own work (its exec before gr3d_ahead_new made it book) */
	unsigned (*work[GR3D_AHEAD_UNITS])(gr3d_stage *s, gr3d_quad *q, unsigned exec);
	uint8_t nctr[GR3D_AHEAD_UNITS];
	unsigned nexec, nstore;
	int8_t store[TEGRA_FP_MAX_EXEC];     /* EXEC e's DW store: its pair's index, -1 none */
	uint8_t store_lo[TEGRA_FP_MAX_EXEC], store_hi[TEGRA_FP_MAX_EXEC];
	/* per QID: nexec * GR3D_AHEAD_UNITS records, then the pairs */
	gr3d_ahead_rec *rec;
	uint32_t (*pair)[2][GR3D_PIXELS];    /* per QID: nstore pairs */
	/* EXEC e's MFU or TEX works on registers (it reads the quads'); the row
	 * registers they may write (bit i: ri) */
	bool quad_work[TEGRA_FP_MAX_EXEC];
	uint16_t quad_writes[TEGRA_FP_MAX_EXEC];
	/* EXEC e's MFU (bit 0) and TEX (bit 1) do nothing but take a clock:
	 * no instruction, no fetch, no view to end (their records are known) */
	uint8_t idle[TEGRA_FP_MAX_EXEC];
	/* the batch: quads worked out, the first nready of PSEQ's input port
	 * from batch[next] on (records and pairs laid out as per QID) */
	gr3d_quad batch[ALU_BATCH_MAX];
	alu_lanes lanes;
	gr3d_ahead_rec *brec;
	uint32_t (*bpair)[2][GR3D_PIXELS];
	unsigned next, nready;
} gr3d_ahead;

/* Does the draw let its quads work ahead?  (The conditions above; pseq has
 * its fetch plan, alu its compiled packets.) */
bool gr3d_ahead_ok(const gr3d_ctx *ctx, const pseq_unit *pseq, const alu_unit *alu);

/* Makes mfu, tex and alu book from the records (their exec becomes
 * gr3d_ahead_book) and sets ctx->ahead; NULL when out of memory (the
 * draw keeps the general path). */
gr3d_ahead *gr3d_ahead_new(gr3d_ctx *ctx, unsigned max_qid, gr3d_stage *mfu, gr3d_stage *tex,
                           gr3d_stage *alu, const uint8_t dw_lo[], const uint8_t dw_hi[],
                           const bool dw_store[]);
void gr3d_ahead_free(gr3d_ahead *a);

/* PSEQ admits the head of its input port in (gr3d_quad_in) into slot qid:
 * its records, worked out now with the batch of quads behind it when they
 * are not yet (clear_gcr: as PSEQ admits). */
void gr3d_ahead_admit(gr3d_ahead *a, const sim_port *in, unsigned qid, bool clear_gcr);
/* Nothing worked out ahead (gr3d_fp_reset). */
void gr3d_ahead_reset(gr3d_ahead *a);

/* The exec of a unit that books (mfu, tex, alu): quad q's record for EXEC
 * e, its counters added, its clocks returned. */
unsigned gr3d_ahead_book(gr3d_stage *s, gr3d_quad *q, unsigned e);

/* The records of MFU, TEX and ALU (in that order) for slot qid's EXEC e. */
static inline const gr3d_ahead_rec *gr3d_ahead_recs(const gr3d_ahead *a, size_t qid, unsigned e)
{
	return &a->rec[(qid * a->nexec + e) * GR3D_AHEAD_UNITS];
}

/* gr3d_ahead_book's counting for stage s and its record r. */
static inline unsigned gr3d_ahead_count(gr3d_stage *s, const gr3d_ahead_rec *r)
{
#pragma GCC unroll 4
	for (unsigned j = 0; j < GR3D_AHEAD_CTRS; j++)   /* counters past the unit's stay 0 */
		s->u.stats.counter[j] += r->ctr[j];
	return r->clocks;
}

/* DW, EXEC e: the pair its store reads, as the EXEC left it. */
void gr3d_ahead_restore(const gr3d_ahead *a, gr3d_quad *q, unsigned e);

#endif

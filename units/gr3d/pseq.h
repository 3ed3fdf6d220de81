/* PSEQ: the pixel sequencer of the Tegra GR3D fragment pipeline
 * (tegra-fp.md §2.4, §5): admits quads from the rasterizer into the
 * in-flight window (PSEQ_CTL MAX_OUT/MIN_OUT, MAX_QID from alu_buffer_size),
 * issues one EXEC per pass, recirculates quads until the program ends,
 * fetches the destination pixel (PSEQ word 0x0081000A) and removes quads
 * whose pixels are all killed. */
#ifndef ULP_UNITS_PSEQ_H
#define ULP_UNITS_PSEQ_H

#include "sim/core/port.h"
#include "units/gr3d/gr3d_quad.h"

enum pseq_counter { PSEQ_CTR_QUADS, PSEQ_CTR_ISSUES, PSEQ_CTR_FETCHES, PSEQ_CTR_REMOVED,
                    PSEQ_CTR_FINISHED, PSEQ_CTR_COUNT };
extern const sim_counter_def PSEQ_COUNTERS[PSEQ_CTR_COUNT];

/* The destination fetch of EXEC e, worked out once per draw from the PSEQ
 * word, the row knob and the draw's targets. */
typedef struct pseq_fetch {
	const ulp_image *rt;          /* the target read; NULL: none bound (reads 0) */
	uint8_t lo, hi;               /* the pair written: rN, rN+1 of the row */
	bool on;                      /* OP != 0 (LD) */
} pseq_fetch;

typedef struct pseq_unit {
	sim_unit u;                   /* first */
	gr3d_ctx *ctx;
	sim_port *in;                 /* gr3d_quad_in from the rasterizer */
	sim_port *recirc;             /* gr3d_token from DW */
	sim_port *out;                /* gr3d_token to MFU */
	uint16_t *free_slots;         /* stack of free QIDs */
	unsigned nfree, max_qid, inflight;
	unsigned max_out, min_out;    /* in pixel-rows */
	bool draining;                /* hysteresis: window filled, wait for MIN_OUT */
	sim_hold hold;                /* cur, for quad_clocks */
	gr3d_token cur;
	gr3d_tram *tram;              /* NULL: every triangle owns its slot (tram.h) */
	uint16_t quad_clocks;
	uint32_t quads_total, quads_finished;
	/* admit clears g0..g7 and cr0..cr15 only when something can read them:
	 * the program names them, or the viewer watches the registers */
	bool clear_gcr;
	bool remove_killed, hysteresis;   /* tegra.pseq.remove_killed, .hysteresis */
	pseq_fetch fetch[TEGRA_FP_MAX_EXEC];
	struct gr3d_chain *chain;     /* NULL: out and recirc are the four units' ports */
	uint64_t chain_ahead;         /* sim.gr3d_chain_ahead */
} pseq_unit;

/* MAX_QID for a row count (tegra-fp.md §5): (MAX_OUT - 1) / (4 * rows). */
unsigned pseq_max_qid(const ulp_config *cfg, unsigned rows);

/* free_slots must hold max_qid entries; tram: the ring of TRAM slots whose
 * holds a finished quad releases, or NULL.  PSEQ becomes the consumer of in
 * and recirc. */
void pseq_init(pseq_unit *p, gr3d_ctx *ctx, unsigned max_qid, uint16_t *free_slots, gr3d_tram *tram,
               sim_port *in, sim_port *recirc, sim_port *out);

/* PSEQ drives the computed stages ch (chain.h) between out and recirc
 * instead of four units on the clock: its tick works out the cycles where
 * only it and they act (pseq.c, pseq_chain_tick). */
struct gr3d_chain;
void pseq_attach_chain(pseq_unit *p, struct gr3d_chain *ch);

/* Does an EXEC fetch the destination (PSEQ LD: it reads a target DW writes)? */
bool pseq_fetches(const pseq_unit *p);

/* Quad in into slot q as PSEQ admits it: registers cleared (g0..g7 and
 * cr0..cr15 only when clear_gcr), the rasterizer's weights and mask set. */
void pseq_admit(const gr3d_quad_in *in, gr3d_quad *q, bool clear_gcr);

#endif

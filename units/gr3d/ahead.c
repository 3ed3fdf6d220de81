/* The quad's arithmetic ahead of its stages (ahead.h). */
#include "units/gr3d/ahead.h"

#include <stdlib.h>

#include "units/gr3d/alu_slot.h"
#include "units/gr3d/mfu.h"
#include "units/gr3d/tex.h"

_Static_assert((int)MFU_CTR_COUNT <= (int)GR3D_AHEAD_CTRS && (int)TEX_CTR_COUNT <= (int)GR3D_AHEAD_CTRS &&
               (int)ALU_CTR_COUNT <= (int)GR3D_AHEAD_CTRS, "gr3d_ahead_rec holds every counter of MFU, TEX, ALU");

bool gr3d_ahead_ok(const gr3d_ctx *ctx, const pseq_unit *pseq, const alu_unit *alu)
{
	if (ctx->probe)                           /* the viewer watches registers and writes */
		return false;
	if (pseq_fetches(pseq))                   /* reads a target DW writes: memory order */
		return false;
	if (alu_writes(alu, TEGRA_REG_UNIFORM) || alu_writes(alu, TEGRA_REG_KILL))   /* shared file; kills */
		return false;
	return !tex_samples_target(ctx);   /* a texture that is also a target */
}

/* The records of one quad (a QID's, a batch entry's), and its pairs. */
static size_t rec_size(const gr3d_ahead *a) { return (size_t)a->nexec * GR3D_AHEAD_UNITS; }
static size_t pair_size(const gr3d_ahead *a) { return a->nstore ? a->nstore : 1; }

gr3d_ahead *gr3d_ahead_new(gr3d_ctx *ctx, unsigned max_qid, gr3d_stage *mfu, gr3d_stage *tex,
                           gr3d_stage *alu, const uint8_t dw_lo[], const uint8_t dw_hi[],
                           const bool dw_store[])
{
	gr3d_ahead *a = calloc(1, sizeof *a);
	if (!a)
		return NULL;
	a->ctx = ctx;
	a->nexec = ctx->prog->exec_count;
	gr3d_stage *us[GR3D_AHEAD_UNITS] = { mfu, tex, alu };
	for (unsigned k = 0; k < a->nexec; k++) {
		a->store[k] = -1;
		if (dw_store[k]) {
			a->store[k] = (int8_t)a->nstore++;
			a->store_lo[k] = dw_lo[k];
			a->store_hi[k] = dw_hi[k];
		}
	}
	a->rec = calloc((size_t)max_qid * rec_size(a), sizeof *a->rec);
	a->pair = calloc((size_t)max_qid * pair_size(a), sizeof *a->pair);
	a->brec = calloc((size_t)ALU_BATCH_MAX * rec_size(a), sizeof *a->rec);
	a->bpair = calloc((size_t)ALU_BATCH_MAX * pair_size(a), sizeof *a->pair);
	if (!a->rec || !a->pair || !a->brec || !a->bpair) {
		gr3d_ahead_free(a);
		return NULL;
	}
	/* what MFU and TEX do to the registers, EXEC by EXEC (mfu.h, tex.h plans) */
	const mfu_unit *m = (const mfu_unit *)(void *)mfu;
	const tex_unit *t = (const tex_unit *)(void *)tex;
	for (unsigned e = 0; e < a->nexec; e++) {
		const mfu_exec_plan *x = &m->exec[e];
		uint16_t w = 0;
		for (unsigned i = 0; i < x->ninst; i++) {
			const mfu_plan *in = &x->inst[i];
			if (in->sfu_op != TEGRA_SFU_NOP && !in->sfu_w)
				w |= (uint16_t)(1u << in->sfu_reg);
			for (unsigned j = 0; j < in->nmul; j++)
				if (in->mul[j].dst >= TEGRA_MUL_DST_R0)
					w |= (uint16_t)(1u << in->mul[j].reg);
			for (unsigned j = 0; j < in->nvar; j++)
				w |= (uint16_t)(1u << in->var[j].reg);
		}
		if (t->fetch[e])
			w |= (uint16_t)(1u << t->plan[e].dst[0] | 1u << t->plan[e].dst[1]);
		a->quad_writes[e] = w;
		a->quad_work[e] = x->count || t->fetch[e];
		/* mfu_exec with count 0 and tex_exec with no fetch and no view to
		 * end return the quad's clocks and count nothing */
		a->idle[e] = (uint8_t)((unsigned)(m->count[e] == 0) | (unsigned)(!t->fetch[e] && !t->end_view[e]) << 1);
	}
	for (unsigned k = 0; k < GR3D_AHEAD_UNITS; k++) {
		a->unit[k] = us[k];
		a->work[k] = us[k]->exec;
		a->nctr[k] = us[k]->u.ncounters;
		us[k]->ahead_unit = (uint8_t)k;
		us[k]->exec = gr3d_ahead_book;
	}
	ctx->ahead = a;
	return a;
}

void gr3d_ahead_free(gr3d_ahead *a)
{
	if (!a)
		return;
	free(a->rec);
	free(a->pair);
	free(a->brec);
	free(a->bpair);
	free(a);
}


/* Unit k's work on quad q in EXEC e, recorded in *rec: its counters'
 * increments are what it adds to them (the caller puts them back). */
static void work(gr3d_ahead *a, unsigned k, gr3d_quad *q, unsigned e, gr3d_ahead_rec *rec)
{
	uint64_t *ctr = a->unit[k]->u.stats.counter;
	uint64_t before[GR3D_AHEAD_CTRS];
	memcpy(before, ctr, sizeof before);
	rec->clocks = (uint16_t)a->work[k](a->unit[k], q, e);
	for (unsigned j = 0; j < GR3D_AHEAD_CTRS; j++)
		rec->ctr[j] = (uint32_t)(ctr[j] - before[j]);
}

/* The n quads at the head of PSEQ's input port: every EXEC in program
 * order, MFU and TEX quad by quad, the ALU over the batch. */
static void run_batch(gr3d_ahead *a, const sim_port *in, unsigned n, bool clear_gcr)
{
	const alu_unit *alu = (const alu_unit *)a->unit[GR3D_AHEAD_ALU];
	gr3d_quad *qs[ALU_BATCH_MAX];
	uint64_t keep[GR3D_AHEAD_UNITS][GR3D_AHEAD_CTRS];
	for (unsigned k = 0; k < GR3D_AHEAD_UNITS; k++)
		memcpy(keep[k], a->unit[k]->u.stats.counter, sizeof keep[k]);
	unsigned live[ALU_BATCH_MAX];
	for (unsigned i = 0; i < n; i++) {
		const gr3d_quad_in *qi = (const gr3d_quad_in *)(const void *)
			(in->slots + (size_t)((in->head + i) & in->mask) * in->item_size);
		qs[i] = &a->batch[i];
		pseq_admit(qi, qs[i], clear_gcr);
		live[i] = alu_live_pixels(qs[i]);   /* no kill writes: for the whole program */
	}
	const size_t rs = rec_size(a), ps = pair_size(a);
	alu_lanes *l = &a->lanes;
	alu_lanes_begin(l, qs, n);
	for (unsigned e = 0; e < a->nexec; e++) {
		if (a->quad_work[e])               /* MFU and TEX read the quads' rows */
			alu_lanes_to_quads(l, (UINT64_C(1) << GR3D_ROW_REGS) - 1);
		for (unsigned k = GR3D_AHEAD_MFU; k <= GR3D_AHEAD_TEX; k++)
			for (unsigned i = 0; i < n; i++) {
				gr3d_ahead_rec *r = &a->brec[i * rs + e * GR3D_AHEAD_UNITS + k];
				if ((a->idle[e] >> k) & 1u)   /* its exec's whole work: a clock */
					*r = (gr3d_ahead_rec){ .clocks = a->unit[k]->quad_clocks };
				else
					work(a, k, qs[i], e, r);
			}
		l->in_lanes &= ~(uint64_t)a->quad_writes[e];
		const unsigned count = alu->packets[e];
		if (!alu_batch_exec(alu, l, e)) {  /* quad by quad: alu_exec */
			alu_lanes_to_quads(l, ~UINT64_C(0));
			l->in_lanes = 0;
			for (unsigned i = 0; i < n; i++)
				work(a, GR3D_AHEAD_ALU, qs[i], e, &a->brec[i * rs + e * GR3D_AHEAD_UNITS + GR3D_AHEAD_ALU]);
		} else {
			for (unsigned i = 0; i < n; i++) {   /* alu_exec's counts */
				gr3d_ahead_rec *r = &a->brec[i * rs + e * GR3D_AHEAD_UNITS + GR3D_AHEAD_ALU];
				*r = (gr3d_ahead_rec){ .clocks = (uint16_t)alu_clocks(alu, e) };
				r->ctr[ALU_CTR_PACKETS] = count;
				r->ctr[ALU_CTR_INSTRUCTIONS] = count ? (uint32_t)alu_slot_ops(alu, e, live[i]) : 0;
			}
		}
		const int st = a->store[e];
		if (st >= 0) {
			alu_lanes_to_quads(l, UINT64_C(1) << a->store_lo[e] | UINT64_C(1) << a->store_hi[e]);
			for (unsigned i = 0; i < n; i++) {
				uint32_t (*pr)[GR3D_PIXELS] = a->bpair[i * ps + (unsigned)st];
				memcpy(pr[0], qs[i]->r[a->store_lo[e]], sizeof pr[0]);
				memcpy(pr[1], qs[i]->r[a->store_hi[e]], sizeof pr[1]);
			}
		}
	}
	for (unsigned k = 0; k < GR3D_AHEAD_UNITS; k++)
		memcpy(a->unit[k]->u.stats.counter, keep[k], sizeof keep[k]);
	a->next = 0;
	a->nready = n;
}

void gr3d_ahead_admit(gr3d_ahead *a, const sim_port *in, unsigned qid, bool clear_gcr)
{
	if (!a->nready)
		run_batch(a, in, in->count < ALU_BATCH_MAX ? in->count : ALU_BATCH_MAX, clear_gcr);
	const size_t rs = rec_size(a), ps = pair_size(a);
	memcpy(&a->rec[qid * rs], &a->brec[a->next * rs], rs * sizeof *a->rec);
	memcpy(&a->pair[qid * ps], &a->bpair[a->next * ps], ps * sizeof *a->pair);
	a->next++;
	a->nready--;
}

void gr3d_ahead_reset(gr3d_ahead *a)
{
	a->next = 0;
	a->nready = 0;
}

unsigned gr3d_ahead_book(gr3d_stage *s, gr3d_quad *q, unsigned e)
{
	const gr3d_ahead *a = s->ctx->ahead;
	return gr3d_ahead_count(s, &gr3d_ahead_recs(a, (size_t)(q - s->ctx->slot), e)[s->ahead_unit]);
}

void gr3d_ahead_restore(const gr3d_ahead *a, gr3d_quad *q, unsigned e)
{
	const int st = a->store[e];
	if (st < 0)
		return;
	const size_t qid = (size_t)(q - a->ctx->slot);
	const uint32_t (*pr)[GR3D_PIXELS] = a->pair[qid * pair_size(a) + (unsigned)st];
	memcpy(q->r[a->store_lo[e]], pr[0], sizeof q->r[0]);
	memcpy(q->r[a->store_hi[e]], pr[1], sizeof q->r[0]);
}

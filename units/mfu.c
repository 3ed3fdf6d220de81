/* MFU: SFU ops, the two multipliers and varying interpolation (mfu.h). */
#include "units/mfu.h"

#include <math.h>

const sim_counter_def MFU_COUNTERS[MFU_CTR_COUNT] = {
	[MFU_CTR_INSTRUCTIONS] = { "instructions", "MFU instructions run (per quad)" },
	[MFU_CTR_SFU] = { "sfu_ops", "SFU operations (per pixel)" },
	[MFU_CTR_MUL] = { "multiplies", "mul0/mul1 products (per pixel)" },
	[MFU_CTR_IPL] = { "interpolations", "varyings interpolated (per pixel)" },
};

static double keep_bits(double v, int bits)
{
	if (bits >= 13 || v == 0.0 || !isfinite(v))
		return v;
	int e;
	double m = frexp(v, &e);                       /* 0.5 <= |m| < 1 */
	double scale = ldexp(1.0, bits + 1);
	return ldexp(trunc(m * scale) / scale, e);     /* truncate: tegra.sfu.mantissa_bits */
}

/* tegra-fp.md §2.4 SFU ops; PRE ops per tegra.sfu.pre_range_reduce (§9 q6). */
double mfu_sfu(const gr3d_ctx *c, unsigned op, double v)
{
	const bool turns = c->cfg->tegra_sfu_pre_reduce;
	const double two_pi = 6.283185307179586476925286766559;
	double r;
	switch (op) {
	case TEGRA_SFU_RCP: r = 1.0 / v; break;
	case TEGRA_SFU_RSQ: r = 1.0 / sqrt(fabs(v)); break;
	case TEGRA_SFU_LG2: r = log2(fabs(v)); break;
	case TEGRA_SFU_EX2: r = exp2(v); break;
	case TEGRA_SFU_SQRT: r = sqrt(fabs(v)); break;
	case TEGRA_SFU_SIN: r = sin(turns ? v * two_pi : v); break;
	case TEGRA_SFU_COS: r = cos(turns ? v * two_pi : v); break;
	case TEGRA_SFU_FRC: r = v - floor(v); break;
	case TEGRA_SFU_PRESIN:
	case TEGRA_SFU_PRECOS: r = turns ? v / two_pi : v; break;
	case TEGRA_SFU_PREEX2:
	default: r = v; break;
	}
	return keep_bits(r, (int)c->cfg->tegra_sfu_bits);
}

/* Multiplier source (tegra-fp.md §2.4) for the four pixels: r0..r3 of the
 * row, the SFU result, bar0, bar1 or 1.0. */
GR3D_HOT void mul_src(const gr3d_quad *q, unsigned base, unsigned code, const double sfu[GR3D_PIXELS],
                      double out[GR3D_PIXELS])
{
	if (code <= 3) {
		const unsigned r = (base + code) & (GR3D_ROW_REGS - 1);
		for (unsigned p = 0; p < GR3D_PIXELS; p++)
			out[p] = gr3d_fp20(q->px[p].r[r]);
	} else if (code == TEGRA_MUL_SRC_SFU) {
		memcpy(out, sfu, sizeof(double) * GR3D_PIXELS);
	} else if (code == TEGRA_MUL_SRC_BAR0) {
		for (unsigned p = 0; p < GR3D_PIXELS; p++)
			out[p] = q->px[p].bar0;
	} else if (code == TEGRA_MUL_SRC_BAR1) {
		for (unsigned p = 0; p < GR3D_PIXELS; p++)
			out[p] = q->px[p].bar1;
	} else {
		const double k = code == TEGRA_MUL_SRC_ONE ? 1.0 : 0.0;
		for (unsigned p = 0; p < GR3D_PIXELS; p++)
			out[p] = k;
	}
}

/* Barycentric interpolation of the four pixels with the weights b0, b1,
 * 1 - b0 - b1 (w[0..2], one row per weight so the loop vectorises):
 * w0*a0 + w1*a1 + w2*a2 in that order. */
static inline void interp(const double w[3][GR3D_PIXELS], const float a[3], double r[GR3D_PIXELS])
{
	const double a0 = a[0], a1 = a[1], a2 = a[2];
	for (unsigned p = 0; p < GR3D_PIXELS; p++)
		r[p] = w[0][p] * a0 + w[1][p] * a1 + w[2][p] * a2;
}

static double clamp01(double v) { return v < 0.0 ? 0.0 : v > 1.0 ? 1.0 : v; }

#define FOR_ACTIVE(p, active) \
	for (unsigned p = 0; p < GR3D_PIXELS; p++) \
		if (((active) >> p) & 1u)

/* STMT for the active pixels p; with all four active, without a test per
 * pixel (a loop the compiler handles better) */
#define EACH_ACTIVE(p, active, STMT) \
	do { \
		if ((active) == 0xFu) \
			for (unsigned p = 0; p < GR3D_PIXELS; p++) \
				STMT; \
		else \
			FOR_ACTIVE(p, active) \
				STMT; \
	} while (0)

/* One MFU instruction on the active pixels (bit p of active), step by step
 * over the quad: each pixel sees its own steps in order, as if alone. */
static void run_inst(const gr3d_ctx *c, const mfu_plan *in, const gr3d_tram_tri *t, gr3d_quad *q,
                     unsigned active)
{
	/* 1. SFU, in place on a row register (rcp r4 reads the interpolated 1/w) */
	double sfu[GR3D_PIXELS];
	if (in->sfu_w) {
		for (unsigned p = 0; p < GR3D_PIXELS; p++)
			sfu[p] = q->px[p].q;
	} else {
		for (unsigned p = 0; p < GR3D_PIXELS; p++)
			sfu[p] = gr3d_fp20(q->px[p].r[in->sfu_reg]);
	}
	if (in->sfu_op != TEGRA_SFU_NOP) {
		if (active == 0xFu && in->sfu_op == TEGRA_SFU_RCP && c->cfg->tegra_sfu_bits >= 13) {
			/* mfu_sfu's rcp with every mantissa bit kept, four at a time */
			for (unsigned p = 0; p < GR3D_PIXELS; p++)
				sfu[p] = 1.0 / sfu[p];
			gr3d_round20_quad(c, sfu);
		} else {
			EACH_ACTIVE(p, active, sfu[p] = gr3d_round20(c, mfu_sfu(c, in->sfu_op, sfu[p])));
		}
		if (!in->sfu_w)
			EACH_ACTIVE(p, active, q->px[p].r[in->sfu_reg] = gr3d_to_fp20(c, sfu[p]));
	}
	/* 2. the two multipliers, in order */
	for (unsigned m = 0; m < in->nmul; m++) {
		double a[GR3D_PIXELS], b[GR3D_PIXELS], r[GR3D_PIXELS];
		mul_src(q, in->src_base, in->mul[m].src0, sfu, a);
		mul_src(q, in->src_base, in->mul[m].src1, sfu, b);
		for (unsigned p = 0; p < GR3D_PIXELS; p++)
			r[p] = a[p] * b[p];
		gr3d_round20_quad(c, r);
		const unsigned dst = in->mul[m].dst;
		if (dst == TEGRA_MUL_DST_BAR && !in->mul[m].second) {
			EACH_ACTIVE(p, active, q->px[p].b0 = (float)r[p]);
		} else if (dst == TEGRA_MUL_DST_BAR) {
			EACH_ACTIVE(p, active, q->px[p].b1 = (float)r[p]);
		} else if (dst >= TEGRA_MUL_DST_R0) {
			EACH_ACTIVE(p, active, q->px[p].r[in->mul[m].reg] = gr3d_to_fp20(c, r[p]));
		}
	}
	/* 3. interpolation: var k -> rk of the row */
	if (!in->nvar)
		return;
	double w[3][GR3D_PIXELS];
	for (unsigned p = 0; p < GR3D_PIXELS; p++) {
		const gr3d_pixel *px = &q->px[p];
		w[0][p] = px->b0;
		w[1][p] = px->b1;
		w[2][p] = 1.0 - (double)px->b0 - (double)px->b1;
	}
	for (unsigned j = 0; j < in->nvar; j++) {
		const unsigned row = in->var[j].row, k = in->var[j].k, reg = in->var[j].reg;
		const bool sat = in->var[j].sat;
		if (!in->var[j].fx) {
			double r[GR3D_PIXELS] = { 0.0, 0.0, 0.0, 0.0 };
			if (t)
				interp(w, t->f[row][k], r);
			if (sat)
				for (unsigned p = 0; p < GR3D_PIXELS; p++)
					r[p] = clamp01(r[p]);
			uint32_t enc[GR3D_PIXELS];
			gr3d_fp20_bits_quad(c->fp20_round, r, enc);
			EACH_ACTIVE(p, active, q->px[p].r[reg] = enc[p]);
		} else {
			uint32_t enc[2][GR3D_PIXELS];
			for (unsigned h = 0; h < 2; h++) {
				double r[GR3D_PIXELS] = { 0.0, 0.0, 0.0, 0.0 };
				if (t)
					interp(w, t->fx[row][k][h], r);
				if (sat)
					for (unsigned p = 0; p < GR3D_PIXELS; p++)
						r[p] = clamp01(r[p]);
				gr3d_fx10_bits_quad(c->fx10_round, c->fx10_wrap, r, enc[h]);
			}
			EACH_ACTIVE(p, active, q->px[p].r[reg] = enc[0][p] | enc[1][p] << 10);
		}
	}
}

static unsigned mfu_exec(gr3d_stage *s, gr3d_quad *q, unsigned e)
{
	const gr3d_ctx *c = s->ctx;
	const unsigned count = c->prog->exec[e].mfu_sched.count;
	if (!count)
		return s->quad_clocks;                          /* count 0 still takes a clock (wiki) */
	const mfu_plan *plan = ((const mfu_unit *)s)->plan[e];
	uint64_t n[MFU_CTR_COUNT] = { 0 };
	bool ipl = false;
	const gr3d_tram_tri *t = q->tri < c->ntris ? &c->tram[q->tri] : NULL;
	unsigned active = 0, npx = 0;                       /* live and helper pixels */
	for (unsigned p = 0; p < GR3D_PIXELS; p++) {
		const bool on = !q->px[p].killed || !q->px[p].covered;
		active |= (unsigned)on << p;
		npx += on;
	}
	for (unsigned i = 0; i < count && i < TEGRA_FP_MAX_PER_EXEC; i++) {
		const mfu_plan *in = &plan[i];
		ipl |= in->nvar > 0;
		run_inst(c, in, t, q, active);
		n[MFU_CTR_SFU] += (in->sfu_op != TEGRA_SFU_NOP) * npx;
		n[MFU_CTR_MUL] += in->nmul * npx;
		n[MFU_CTR_IPL] += in->nvar * npx;
	}
	if (ipl)
		q->tex_row = (uint8_t)(e % c->rows);
	n[MFU_CTR_INSTRUCTIONS] = count;
	for (unsigned k = 0; k < MFU_CTR_COUNT; k++)
		if (n[k])
			sim_unit_count(&s->u, k, n[k]);
	return s->quad_clocks * count;
}

/* Resolves an instruction's registers for EXEC e (row-relative, §5). */
static void plan_inst(const gr3d_ctx *c, unsigned e, const tegra_mfu_inst *in, mfu_plan *o)
{
	memset(o, 0, sizeof *o);
	const unsigned base = gr3d_row_reg(c, e, 0);
	o->sfu_op = in->sfu_op;
	o->sfu_w = in->sfu_reg == (unsigned)c->cfg->tegra_mfu_w_reg;
	o->sfu_reg = (uint8_t)((in->sfu_reg < 4 ? base + in->sfu_reg : in->sfu_reg) & (GR3D_ROW_REGS - 1));
	o->src_base = (uint8_t)base;
	for (unsigned m = 0; m < 2; m++) {
		if (in->mul[m].dst == TEGRA_MUL_DST_NONE)
			continue;
		o->mul[o->nmul].second = m == 1;
		o->mul[o->nmul].dst = in->mul[m].dst;
		o->mul[o->nmul].src0 = in->mul[m].src0;
		o->mul[o->nmul].src1 = in->mul[m].src1;
		o->mul[o->nmul].reg = (uint8_t)((base + in->mul[m].dst - TEGRA_MUL_DST_R0) & (GR3D_ROW_REGS - 1));
		o->nmul++;
	}
	for (unsigned k = 0; k < 4; k++) {
		unsigned op = in->var[k].op;
		if (op != TEGRA_VAR_FP20 && op != TEGRA_VAR_FX10)
			continue;
		o->var[o->nvar].k = (uint8_t)k;
		o->var[o->nvar].reg = (uint8_t)((base + k) & (GR3D_ROW_REGS - 1));
		o->var[o->nvar].row = in->var[k].tram_row & 15u;
		o->var[o->nvar].fx = op == TEGRA_VAR_FX10;
		o->var[o->nvar].sat = in->var[k].saturate;
		o->nvar++;
	}
}

void mfu_init(mfu_unit *m, gr3d_ctx *ctx)
{
	gr3d_stage_init(&m->s, "mfu", ctx, MFU_COUNTERS, MFU_CTR_COUNT);
	m->s.exec = mfu_exec;
	for (unsigned e = 0; e < ctx->prog->exec_count && e < TEGRA_FP_MAX_EXEC; e++)
		for (unsigned i = 0; i < TEGRA_FP_MAX_PER_EXEC; i++)
			plan_inst(ctx, e, &ctx->prog->exec[e].mfu[i], &m->plan[e][i]);
}

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

/* Multiplier source (tegra-fp.md §2.4): r0..r3 of the row, SFU result,
 * bar0, bar1, 1.0. */
static double mul_src(const gr3d_pixel *px, unsigned base, unsigned code, double sfu)
{
	if (code <= 3)
		return gr3d_fp20(px->r[(base + code) & (GR3D_ROW_REGS - 1)]);
	switch (code) {
	case TEGRA_MUL_SRC_SFU: return sfu;
	case TEGRA_MUL_SRC_BAR0: return px->bar0;
	case TEGRA_MUL_SRC_BAR1: return px->bar1;
	case TEGRA_MUL_SRC_ONE: return 1.0;
	default: return 0.0;
	}
}

/* Barycentric interpolation with the weights b0, b1, 1 - b0 - b1 (w[]). */
static inline double interp(const double w[3], const float a[3])
{
	return w[0] * a[0] + w[1] * a[1] + w[2] * a[2];
}

static double clamp01(double v) { return v < 0.0 ? 0.0 : v > 1.0 ? 1.0 : v; }

/* One MFU instruction on one pixel; base = first register of the row. */
static void run_inst(const gr3d_ctx *c, const tegra_mfu_inst *in, bool ipl, const gr3d_tram_tri *t,
                     gr3d_pixel *px, unsigned base, uint64_t n[MFU_CTR_COUNT])
{
	/* 1. SFU, in place on a row register (rcp r4 reads the interpolated 1/w) */
	double sfu;
	unsigned sreg = in->sfu_reg;
	uint32_t *sdst = NULL;
	if (sreg == (unsigned)c->cfg->tegra_mfu_w_reg) {
		sfu = px->q;
	} else {
		sdst = &px->r[(sreg < 4 ? base + sreg : sreg) & (GR3D_ROW_REGS - 1)];
		sfu = gr3d_fp20(*sdst);
	}
	if (in->sfu_op != TEGRA_SFU_NOP) {
		sfu = gr3d_round20(c, mfu_sfu(c, in->sfu_op, sfu));
		if (sdst)
			*sdst = gr3d_to_fp20(c, sfu);
		n[MFU_CTR_SFU]++;
	}
	/* 2. the two multipliers, in order */
	for (unsigned m = 0; m < 2; m++) {
		unsigned dst = in->mul[m].dst;
		if (dst == TEGRA_MUL_DST_NONE)
			continue;
		double v = mul_src(px, base, in->mul[m].src0, sfu) * mul_src(px, base, in->mul[m].src1, sfu);
		double r = gr3d_round20(c, v);
		if (dst == TEGRA_MUL_DST_BAR) {
			if (m == 0)
				px->b0 = (float)r;
			else
				px->b1 = (float)r;
		} else if (dst >= TEGRA_MUL_DST_R0) {
			px->r[(base + dst - TEGRA_MUL_DST_R0) & (GR3D_ROW_REGS - 1)] = gr3d_to_fp20(c, r);
		}
		n[MFU_CTR_MUL]++;
	}
	/* 3. interpolation: var k -> rk of the row */
	if (!ipl)
		return;
	const double w[3] = { px->b0, px->b1, 1.0 - (double)px->b0 - (double)px->b1 };
	for (unsigned k = 0; k < 4; k++) {
		unsigned op = in->var[k].op;
		if (op != TEGRA_VAR_FP20 && op != TEGRA_VAR_FX10)
			continue;
		unsigned row = in->var[k].tram_row & 15u;
		uint32_t *dst = &px->r[(base + k) & (GR3D_ROW_REGS - 1)];
		if (op == TEGRA_VAR_FP20) {
			double r = t ? interp(w, t->f[row][k]) : 0.0;
			if (in->var[k].saturate)
				r = clamp01(r);
			*dst = gr3d_to_fp20(c, r);
		} else {
			uint32_t out = 0;
			for (unsigned h = 0; h < 2; h++) {
				double r = t ? interp(w, t->fx[row][k][h]) : 0.0;
				if (in->var[k].saturate)
					r = clamp01(r);
				out |= gr3d_to_fx10(c, r) << (10 * h);
			}
			*dst = out;
		}
		n[MFU_CTR_IPL]++;
	}
}

static unsigned mfu_exec(gr3d_stage *s, gr3d_quad *q, unsigned e)
{
	const gr3d_ctx *c = s->ctx;
	const tegra_exec *ex = &c->prog->exec[e];
	unsigned count = ex->mfu_sched.count;
	uint64_t n[MFU_CTR_COUNT] = { 0 };
	bool ipl = false;
	const unsigned base = gr3d_row_reg(c, e, 0);
	const gr3d_tram_tri *t = q->tri < c->ntris ? &c->tram[q->tri] : NULL;
	for (unsigned i = 0; i < count; i++) {
		const tegra_mfu_inst *in = &ex->mfu[i];
		bool in_ipl = false;                            /* this instruction interpolates */
		for (unsigned k = 0; k < 4; k++)
			if (in->var[k].op == TEGRA_VAR_FP20 || in->var[k].op == TEGRA_VAR_FX10)
				in_ipl = true;
		ipl |= in_ipl;
		for (unsigned p = 0; p < GR3D_PIXELS; p++)      /* live and helper pixels */
			if (!q->px[p].killed || !q->px[p].covered)
				run_inst(c, in, in_ipl, t, &q->px[p], base, n);
	}
	if (ipl)
		q->tex_row = (uint8_t)(e % c->rows);
	n[MFU_CTR_INSTRUCTIONS] = count;
	for (unsigned k = 0; k < MFU_CTR_COUNT; k++)
		if (n[k])
			sim_unit_count(&s->u, k, n[k]);
	return s->quad_clocks * (count ? count : 1);     /* count 0 still takes a clock (wiki) */
}

void mfu_init(mfu_unit *m, gr3d_ctx *ctx)
{
	gr3d_stage_init(&m->s, "mfu", ctx, MFU_COUNTERS, MFU_CTR_COUNT);
	m->s.exec = mfu_exec;
}

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

/* One MFU instruction on one pixel. */
GR3D_HOT void run_inst(const gr3d_ctx *c, const mfu_plan *in, const gr3d_tram_tri *t, gr3d_pixel *px)
{
	/* 1. SFU, in place on a row register (rcp r4 reads the interpolated 1/w) */
	double sfu = in->sfu_w ? px->q : gr3d_fp20(px->r[in->sfu_reg]);
	if (in->sfu_op != TEGRA_SFU_NOP) {
		sfu = gr3d_round20(c, mfu_sfu(c, in->sfu_op, sfu));
		if (!in->sfu_w)
			px->r[in->sfu_reg] = gr3d_to_fp20(c, sfu);
	}
	/* 2. the two multipliers, in order */
	for (unsigned m = 0; m < in->nmul; m++) {
		const unsigned dst = in->mul[m].dst;
		double v = mul_src(px, in->src_base, in->mul[m].src0, sfu) *
		           mul_src(px, in->src_base, in->mul[m].src1, sfu);
		double r = gr3d_round20(c, v);
		if (dst == TEGRA_MUL_DST_BAR) {
			if (!in->mul[m].second)
				px->b0 = (float)r;
			else
				px->b1 = (float)r;
		} else if (dst >= TEGRA_MUL_DST_R0) {
			px->r[in->mul[m].reg] = gr3d_to_fp20(c, r);
		}
	}
	/* 3. interpolation: var k -> rk of the row */
	if (!in->nvar)
		return;
	const double w[3] = { px->b0, px->b1, 1.0 - (double)px->b0 - (double)px->b1 };
	for (unsigned j = 0; j < in->nvar; j++) {
		const unsigned row = in->var[j].row, k = in->var[j].k;
		uint32_t *dst = &px->r[in->var[j].reg];
		if (!in->var[j].fx) {
			double r = t ? interp(w, t->f[row][k]) : 0.0;
			if (in->var[j].sat)
				r = clamp01(r);
			*dst = gr3d_to_fp20(c, r);
		} else {
			uint32_t out = 0;
			for (unsigned h = 0; h < 2; h++) {
				double r = t ? interp(w, t->fx[row][k][h]) : 0.0;
				if (in->var[j].sat)
					r = clamp01(r);
				out |= gr3d_to_fx10(c, r) << (10 * h);
			}
			*dst = out;
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
		for (unsigned p = 0; p < GR3D_PIXELS; p++)
			if ((active >> p) & 1u)
				run_inst(c, in, t, &q->px[p]);
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

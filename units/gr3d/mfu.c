/* MFU: SFU ops, the two multipliers and varying interpolation (mfu.h). */
#include "units/gr3d/mfu.h"
#include "units/gr3d/mfu_lanes.h"
#include "units/gr3d/mfu_pair.h"

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

/* tegra-fp.md §2.4 SFU ops before the mantissa is cut; PRE ops per
 * tegra.sfu.pre_range_reduce (§9 q6). */
static inline double sfu_value(bool turns, unsigned op, double v)
{
	const double two_pi = 6.283185307179586476925286766559;
	switch (op) {
	case TEGRA_SFU_RCP: return 1.0 / v;
	case TEGRA_SFU_RSQ: return 1.0 / sqrt(fabs(v));
	case TEGRA_SFU_LG2: return log2(fabs(v));
	case TEGRA_SFU_EX2: return exp2(v);
	case TEGRA_SFU_SQRT: return sqrt(fabs(v));
	case TEGRA_SFU_SIN: return sin(turns ? v * two_pi : v);
	case TEGRA_SFU_COS: return cos(turns ? v * two_pi : v);
	case TEGRA_SFU_FRC: return v - floor(v);
	case TEGRA_SFU_PRESIN:
	case TEGRA_SFU_PRECOS: return turns ? v / two_pi : v;
	case TEGRA_SFU_PREEX2:
	default: return v;
	}
}

double mfu_sfu(const gr3d_ctx *c, unsigned op, double v)
{
	const double r = sfu_value(c->cfg->tegra_sfu_pre_reduce, op, v);
	return c->exact ? r : keep_bits(r, (int)c->cfg->tegra_sfu_bits);   /* arith=exact: every bit */
}

/* mfu_sfu on four values in place, as run_steps's four-pixel step forms
 * them: with every mantissa bit kept (keep_bits gives r back) the formula
 * alone, the op's switch once for the four. */
GR3D_HOT void sfu_quad(const gr3d_ctx *c, unsigned op, double v[GR3D_PIXELS])
{
	if (c->exact || c->cfg->tegra_sfu_bits < 13) {
		for (unsigned p = 0; p < GR3D_PIXELS; p++)
			v[p] = mfu_sfu(c, op, v[p]);
		return;
	}
	const bool turns = c->cfg->tegra_sfu_pre_reduce;
	switch (op) {
	case TEGRA_SFU_RCP:
		for (unsigned p = 0; p < GR3D_PIXELS; p++)
			v[p] = 1.0 / v[p];
		break;
	case TEGRA_SFU_RSQ:
		for (unsigned p = 0; p < GR3D_PIXELS; p++)
			v[p] = 1.0 / sqrt(fabs(v[p]));
		break;
	case TEGRA_SFU_LG2:
		for (unsigned p = 0; p < GR3D_PIXELS; p++)
			v[p] = log2(fabs(v[p]));
		break;
	case TEGRA_SFU_EX2:
		for (unsigned p = 0; p < GR3D_PIXELS; p++)
			v[p] = exp2(v[p]);
		break;
	case TEGRA_SFU_PREEX2:
		break;                                   /* v itself */
	default:
		for (unsigned p = 0; p < GR3D_PIXELS; p++)
			v[p] = sfu_value(turns, op, v[p]);
		break;
	}
}

/* reg_sfu4's ops other than rcp, rsq and preEx2 (mfu_lanes.h): sfu_quad on
 * the four values in place (out of line: its calls would make reg_sfu4 save
 * registers). */
__attribute__((noinline)) void mfu_sfu_lanes(const gr3d_ctx *c, unsigned op, double v[GR3D_PIXELS])
{
	sfu_quad(c, op, v);
}

/* Multiplier source (tegra-fp.md §2.4) for the four pixels: r0..r3 of the
 * row, the SFU result, bar0, bar1 or 1.0. */
GR3D_HOT void mul_src(const gr3d_ctx *c, const gr3d_quad *q, unsigned base, unsigned code,
                      const double sfu[GR3D_PIXELS], double out[GR3D_PIXELS])
{
	if (code <= 3) {
		const unsigned r = (base + code) & (GR3D_ROW_REGS - 1);
		gr3d_rd20_quad(c, true, q->r[r], out);     /* with subnormals: gr3d_rd20 of each code */
	} else if (code == TEGRA_MUL_SRC_SFU) {
		memcpy(out, sfu, sizeof(double) * GR3D_PIXELS);
	} else if (code == TEGRA_MUL_SRC_BAR0) {
		for (unsigned p = 0; p < GR3D_PIXELS; p++)
			out[p] = q->bar0[p];
	} else if (code == TEGRA_MUL_SRC_BAR1) {
		for (unsigned p = 0; p < GR3D_PIXELS; p++)
			out[p] = q->bar1[p];
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

/* Steps 1 and 2 of an instruction, in general: each step over the quad's
 * active pixels (bit p of active) before the next, so each pixel sees its own
 * steps in order, as if alone. */
static void run_steps(const gr3d_ctx *c, const mfu_plan *in, gr3d_quad *q, unsigned active)
{
	if (in->sfu_op == TEGRA_SFU_NOP && in->nmul == 0)   /* interpolation only: nothing to do here */
		return;
	/* 1. SFU, in place on a row register (rcp r4 reads the interpolated 1/w) */
	double sfu[GR3D_PIXELS];
	if (in->sfu_w) {
		for (unsigned p = 0; p < GR3D_PIXELS; p++)
			sfu[p] = q->q[p];
	} else {
		const unsigned r = in->sfu_reg;
		gr3d_rd20_quad(c, true, q->r[r], sfu);     /* with subnormals: gr3d_rd20 of each code */
	}
	if (in->sfu_op != TEGRA_SFU_NOP) {
		if (active == 0xFu) {
			/* four at a time (sfu_quad); gr3d_round20_quad is gr3d_round20
			 * on each */
			sfu_quad(c, in->sfu_op, sfu);
			gr3d_round20_quad(c, sfu);
			if (!in->sfu_w) {            /* rounded already: gr3d_to_fp20 on each */
				uint32_t enc[GR3D_PIXELS];
				gr3d_enc20_quad(c, sfu, enc);
				memcpy(q->r[in->sfu_reg], enc, sizeof enc);
			}
		} else {
			FOR_ACTIVE(p, active) sfu[p] = gr3d_round20(c, mfu_sfu(c, in->sfu_op, sfu[p]));
			if (!in->sfu_w)
				FOR_ACTIVE(p, active) q->r[in->sfu_reg][p] = gr3d_to_fp20(c, sfu[p]);
		}
	}
	/* 2. the two multipliers, in order */
	for (unsigned m = 0; m < in->nmul; m++) {
		double a[GR3D_PIXELS], b[GR3D_PIXELS], r[GR3D_PIXELS];
		mul_src(c, q, in->src_base, in->mul[m].src0, sfu, a);
		mul_src(c, q, in->src_base, in->mul[m].src1, sfu, b);
		for (unsigned p = 0; p < GR3D_PIXELS; p++)
			r[p] = a[p] * b[p];
		gr3d_round20_quad(c, r);
		const unsigned dst = in->mul[m].dst;
		if (dst == TEGRA_MUL_DST_BAR && !in->mul[m].second) {
			EACH_ACTIVE(p, active, q->b0[p] = (float)r[p]);
		} else if (dst == TEGRA_MUL_DST_BAR) {
			EACH_ACTIVE(p, active, q->b1[p] = (float)r[p]);
		} else if (dst >= TEGRA_MUL_DST_R0) {
			uint32_t enc[GR3D_PIXELS];           /* gr3d_to_fp20 of each */
			gr3d_enc20_quad(c, r, enc);
			EACH_ACTIVE(p, active, q->r[in->mul[m].reg][p] = enc[p]);
		}
	}
}

/* Each row is formed whole in a register and stored in one piece (four
 * lanes in the wide build, two pairs in the other): the interpolations load
 * it as a vector, and a vector load of values stored one by one waits for
 * the stores to reach the cache (about 15 cycles; docs/speed-history.md "Fragments,
 * session 10").  w2 = 1 - b0 - b1 in that order, as a pixel alone. */
GR3D_HOT void weights(const gr3d_quad *q, mfu_weights *w, bool wide)
{
	if (wide) {
		mfu_f64x4 b0, b1;
		f64x4_of_f32(q->b0, &b0);
		f64x4_of_f32(q->b1, &b1);
		w->quad[0] = b0;
		w->quad[1] = b1;
		w->quad[2] = 1.0 - b0 - b1;
		return;
	}
	for (unsigned h = 0; h < 2; h++) {
		const mfu_f64x2 b0 = { q->b0[2 * h], q->b0[2 * h + 1] }, b1 = { q->b1[2 * h], q->b1[2 * h + 1] };
		w->pair[0][h] = b0;
		w->pair[1][h] = b1;
		w->pair[2][h] = 1.0 - b0 - b1;
	}
}

/* The perspective set-up in one pass (mfu_plan.persp): `sfu: rcp <1/w>`,
 * `mul0: bar, sfu, bar0`, `mul1: bar, sfu, bar1` on a quad whose four pixels
 * are active.  run_steps's operations, operands and roundings in its order,
 * two pixels at a time: s = round20(1 / q) (tegra.sfu.mantissa_bits keeps
 * all 13 bits, else the plan has no persp), b0 = round20(s * bar0),
 * b1 = round20(s * bar1); no source dispatch, and the SFU writes no register
 * (it read 1/w).  Also leaves the weights in w, as weights() would read them.
 * Returns false, having written nothing, when a value is outside the pair
 * helpers' range (mfu_pair.h): the general steps run instead. */
GR3D_HOT bool persp_setup(const mfu_round *rd, gr3d_quad *q, mfu_weights *w)
{
	mfu_f64x2 b0[2], b1[2];                          /* pixels 2h, 2h + 1 */
	mfu_u64x2 far = { 0, 0 };
	for (unsigned h = 0; h < 2; h++) {
		const unsigned x = 2 * h, y = 2 * h + 1;
		const mfu_f64x2 qw = { q->q[x], q->q[y] }, bar0 = { q->bar0[x], q->bar0[y] }, bar1 = { q->bar1[x], q->bar1[y] };
		const mfu_f64x2 s = mfu_round20_x2(rd, 1.0 / qw, &far);
		b0[h] = mfu_round20_x2(rd, s * bar0, &far);
		b1[h] = mfu_round20_x2(rd, s * bar1, &far);
	}
	if (!mfu_near_x2(far))
		return false;
	for (unsigned h = 0; h < 2; h++) {
		/* the registers hold floats (FP20 values are exact in them) */
		const mfu_f32x2 f0 = __builtin_convertvector(b0[h], mfu_f32x2);
		const mfu_f32x2 f1 = __builtin_convertvector(b1[h], mfu_f32x2);
		memcpy(&q->b0[2 * h], &f0, sizeof f0);
		memcpy(&q->b1[2 * h], &f1, sizeof f1);
		/* the weights as weights() reads them back: the float of an FP20
		 * value is that value */
		w->pair[0][h] = b0[h];
		w->pair[1][h] = b1[h];
		w->pair[2][h] = 1.0 - b0[h] - b1[h];
	}
	return true;
}

/* `sfu: OP rN` with no multiplier (mfu_plan.reg_sfu) on a quad whose four
 * pixels are active: run_steps's read of the register (gr3d_fp20_quad with
 * subnormals is gr3d_fp20 for every code), sfu_quad's value of each pixel,
 * then its rounding and write.  Encoding the value rounded to FP20 is
 * encoding the value: the code of the SFU's value, formed as soon as the
 * value is (in a register: a vector load of values stored one by one
 * would wait for the stores, weights()).  Returns false, having written
 * nothing, when a value is outside the pair helpers' range: the general
 * steps run instead. */
GR3D_HOT bool reg_sfu(const gr3d_ctx *c, const mfu_round *rd, const mfu_plan *in, gr3d_quad *q)
{
	const unsigned reg = in->sfu_reg;
	double xs[GR3D_PIXELS];
	gr3d_fp20_quad(true, q->r[reg], xs);
	uint32_t code[GR3D_PIXELS];
	uint64_t far = 0;
#define REG_SFU_LANES(EXPR) \
	for (unsigned p = 0; p < GR3D_PIXELS; p++) { \
		const double x = xs[p]; \
		code[p] = mfu_fp20_bits_1(rd, (EXPR), &far); \
	}
	if (c->cfg->tegra_sfu_bits < 13) {               /* (c->exact has no plan) */
		REG_SFU_LANES(mfu_sfu(c, in->sfu_op, x));
	} else {
		/* sfu_quad's cases */
		const bool turns = c->cfg->tegra_sfu_pre_reduce;
		switch (in->sfu_op) {
		case TEGRA_SFU_RCP: REG_SFU_LANES(1.0 / x); break;
		case TEGRA_SFU_RSQ: REG_SFU_LANES(1.0 / sqrt(fabs(x))); break;
		case TEGRA_SFU_LG2: REG_SFU_LANES(log2(fabs(x))); break;
		case TEGRA_SFU_EX2: REG_SFU_LANES(exp2(x)); break;
		case TEGRA_SFU_PREEX2: REG_SFU_LANES(x); break;
		default: REG_SFU_LANES(sfu_value(turns, in->sfu_op, x)); break;
		}
	}
#undef REG_SFU_LANES
	if (far >> 57)                                   /* mfu_near_x2's test */
		return false;
	memcpy(q->r[reg], code, sizeof code);
	return true;
}

/* Interpolation when every var is FP20 without saturation, the quad's four
 * pixels are active and it has a triangle (mfu_plan.ipl_fp20): ipl_vars's
 * products and sums, w0*a0 + w1*a1 + w2*a2 in that order, two pixels at a
 * time, on the TRAM floats the plan points to.  Returns false when a result
 * is outside the pair helpers' range: ipl_vars then runs and writes every
 * var again. */
GR3D_HOT bool ipl_fp20(const mfu_round *rd, const mfu_plan *in, const gr3d_tram_tri *t, gr3d_quad *q,
                       const mfu_weights *w)
{
	const float *f = &t->f[0][0][0];
	mfu_u64x2 far = { 0, 0 };
	for (unsigned j = 0; j < in->nvar; j++) {
		const float *a = f + in->var[j].tram;
		const double a0 = a[0], a1 = a[1], a2 = a[2];
		const unsigned reg = in->var[j].reg;
		const mfu_f64x2 (*wp)[2] = w->pair;
		const mfu_u64x2 c01 = mfu_fp20_bits_x2(rd, wp[0][0] * a0 + wp[1][0] * a1 + wp[2][0] * a2, &far);
		const mfu_u64x2 c23 = mfu_fp20_bits_x2(rd, wp[0][1] * a0 + wp[1][1] * a1 + wp[2][1] * a2, &far);
		q->r[reg][0] = (uint32_t)c01[0];
		q->r[reg][1] = (uint32_t)c01[1];
		q->r[reg][2] = (uint32_t)c23[0];
		q->r[reg][3] = (uint32_t)c23[1];
	}
	return mfu_near_x2(far);
}

/* 3. interpolation: var k -> rk of the row, with the weights w. */
static void ipl_vars(const gr3d_ctx *c, const mfu_plan *in, const gr3d_tram_tri *t, gr3d_quad *q,
                     unsigned active, const mfu_weights *wt)
{
	const double (*w)[GR3D_PIXELS] = wt->w;
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
			gr3d_enc20_quad(c, r, enc);
			EACH_ACTIVE(p, active, q->r[reg][p] = enc[p]);
		} else {
			uint32_t enc[2][GR3D_PIXELS];
			for (unsigned h = 0; h < 2; h++) {
				double r[GR3D_PIXELS] = { 0.0, 0.0, 0.0, 0.0 };
				if (t)
					interp(w, t->fx[row][k][h], r);
				if (sat)
					for (unsigned p = 0; p < GR3D_PIXELS; p++)
						r[p] = clamp01(r[p]);
				gr3d_encfx_quad(c, r, enc[h]);
			}
			const unsigned sh = gr3d_fx_shift(c);
			EACH_ACTIVE(p, active, q->r[reg][p] = enc[0][p] | enc[1][p] << sh);
		}
	}
}

/* One MFU instruction on the active pixels (bit p of active); rd is
 * fp20.round's increment.  The fast paths (all four pixels active) fall back
 * to the general steps for a quad whose values leave their range. */
GR3D_HOT void run_inst(const gr3d_ctx *c, const mfu_round *rd, const mfu_plan *in, const gr3d_tram_tri *t,
                       gr3d_quad *q, unsigned active, bool wide)
{
	const bool all = active == 0xFu;
	mfu_weights w;
	bool fused = false, have_w = false;                 /* steps 1 and 2 done in one pass */
	if (all && in->persp)                               /* it leaves the weights in w */
		fused = have_w = wide ? persp_setup4(rd, q, &w) : persp_setup(rd, q, &w);
	else if (all && in->reg_sfu)
		fused = reg_sfu(c, rd, in, q);                  /* (it writes a register, not the weights) */
	if (!fused)
		run_steps(c, in, q, active);
	if (in->nvar && !have_w)                            /* as the steps left b0, b1 */
		weights(q, &w, wide);
	if (in->nvar && !(in->ipl_fp20 && all && t && (wide ? ipl_lanes(rd, in, t, q, &w, true) : ipl_fp20(rd, in, t, q, &w))))
		ipl_vars(c, in, t, q, active, &w);
}

/* run_inst alone in its AVX2 build, for mfu_run_inst (the unit tests): the
 * unit runs whole EXECs in one build (quad_exec); IEEE binary64 either
 * way. */
#if defined(__x86_64__)
__attribute__((target("avx2"), noinline)) static void run_inst_avx2(const gr3d_ctx *c, const mfu_round *rd,
                                                                    const mfu_plan *in, const gr3d_tram_tri *t,
                                                                    gr3d_quad *q, unsigned active)
{
	run_inst(c, rd, in, t, q, active, true);
}
#endif

void mfu_run_inst(const gr3d_ctx *c, const mfu_plan *in, const gr3d_tram_tri *t, gr3d_quad *q,
                  unsigned active, bool wide)
{
	const mfu_round rd = mfu_round_of(c->fp20_round);
#if defined(__x86_64__)
	if (wide && __builtin_cpu_supports("avx2")) {
		run_inst_avx2(c, &rd, in, t, q, active);
		return;
	}
#endif
	run_inst(c, &rd, in, t, q, active, false);
}

/* A pixel is active (interpolated, as a helper too) unless it is covered
 * and killed: the four pixels' flags read as one word each. */
GR3D_HOT unsigned active_pixels(const gr3d_quad *q)
{
	return gr3d_mask4(~(gr3d_flags4(q->covered) & gr3d_flags4(q->killed)));
}

/* An EXEC's counters for a quad with npix active pixels (mfu_exec_plan.add:
 * adding 0 leaves a counter as it was) and its clocks. */
static inline __attribute__((always_inline)) unsigned booked(gr3d_stage *s, const mfu_exec_plan *x, unsigned npix)
{
	const uint32_t *add = x->add[npix];
	for (unsigned k = 0; k < MFU_CTR_COUNT; k++)
		sim_unit_count(&s->u, k, add[k]);
	return s->quad_clocks * x->count;
}

/* EXEC x's instructions on quad q; returns the EXEC's clocks.  wide: the
 * four-lane paths (the AVX2 build). */
GR3D_HOT unsigned quad_exec(gr3d_stage *s, gr3d_quad *q, const mfu_exec_plan *x, bool wide)
{
	const mfu_unit *m = (const mfu_unit *)s;
	const gr3d_ctx *c = s->ctx;
	const gr3d_tram_tri *t = q->tri < c->ntris ? &c->tram[q->tri] : NULL;
	const unsigned active = active_pixels(q);       /* live and helper pixels */
	for (unsigned i = 0; i < x->ninst; i++)
		run_inst(c, &m->round, &x->inst[i], t, q, active, wide);
	if (x->ipl)
		q->tex_row = x->row;
	static const uint8_t BITS[16] = { 0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4 };
	return booked(s, x, BITS[active]);
}

/* quad_exec built twice, out of line (and reached by a tail call), so that
 * the many EXECs without MFU work do not pay for its registers: for AVX2
 * where an instruction has a four-lane path (mfu_exec_plan.wide), else
 * plain (the four-lane build cost fs_lit's register SFU ops more, session
 * 10). */
#if defined(__x86_64__)
__attribute__((target("avx2"), noinline)) static unsigned mfu_quad_avx2(gr3d_stage *s, gr3d_quad *q, unsigned e)
{
	return quad_exec(s, q, &((const mfu_unit *)s)->exec[e], true);
}


/* An EXEC of one instruction that sets up the perspective and interpolates
 * FP20 varyings (mfu_exec_plan.persp_ipl: a varying read perspective-correct,
 * the commonest EXEC) on a quad whose four pixels are active and which has
 * a triangle: run_inst's two fast paths back to back, without its dispatch.
 * Where a value leaves their range the steps go on as run_inst's do:
 * persp_setup4 writes nothing, so quad_exec runs the whole EXEC;
 * ipl_fp20_4 is redone by ipl_vars with the same weights. */
__attribute__((target("avx2"), noinline)) static unsigned mfu_persp_ipl_avx2(gr3d_stage *s, gr3d_quad *q,
                                                                           unsigned e)
{
	const mfu_unit *m = (const mfu_unit *)s;
	const mfu_exec_plan *x = &m->exec[e];
	const gr3d_ctx *c = s->ctx;
	const unsigned active = active_pixels(q);
	mfu_weights w;
	if (active != 0xFu || q->tri >= c->ntris || !persp_setup4(&m->round, q, &w))
		return quad_exec(s, q, x, true);
	const gr3d_tram_tri *t = &c->tram[q->tri];
	if (!ipl_lanes(&m->round, &x->inst[0], t, q, &w, false))
		ipl_vars(c, &x->inst[0], t, q, active, &w);
	q->tex_row = x->row;
	return booked(s, x, GR3D_PIXELS);
}

/* An EXEC each of whose instructions has a four-lane path (mfu_exec_plan.lanes:
 * the perspective set-up, an SFU op on a register, FP20 interpolation or
 * nothing) on a quad whose four pixels are active and which has a triangle
 * where it interpolates: run_inst's fast paths, instruction by instruction,
 * without its dispatch on the pixels and the triangle.  Another quad takes
 * the build mfu_exec would have taken for it (mfu_exec_plan.wide). */
__attribute__((noinline)) static unsigned mfu_quad(gr3d_stage *s, gr3d_quad *q, unsigned e);

__attribute__((target("avx2"), noinline)) static unsigned mfu_lanes_avx2(gr3d_stage *s, gr3d_quad *q, unsigned e)
{
	const mfu_unit *m = (const mfu_unit *)s;
	const mfu_exec_plan *x = &m->exec[e];
	const gr3d_ctx *c = s->ctx;
	if (active_pixels(q) != 0xFu || (x->ipl && q->tri >= c->ntris))
		return x->wide ? mfu_quad_avx2(s, q, e) : mfu_quad(s, q, e);
	const gr3d_tram_tri *t = x->ipl ? &c->tram[q->tri] : NULL;   /* (read only where ipl) */
	for (unsigned i = 0; i < x->ninst; i++) {
		const mfu_plan *in = &x->inst[i];
		mfu_weights w;
		bool have_w = false;
		if (in->persp) {
			have_w = persp_setup4(&m->round, q, &w);
			if (!have_w)
				run_steps(c, in, q, 0xFu);
		} else if (in->reg_sfu) {
			reg_sfu4(c, &m->round, in, q);
		}
		if (in->nvar) {
			if (!have_w)
				weights(q, &w, true);
			if (!ipl_lanes(&m->round, in, t, q, &w, true))
				ipl_vars(c, in, t, q, 0xFu, &w);
		}
	}
	if (x->ipl)
		q->tex_row = x->row;
	return booked(s, x, GR3D_PIXELS);
}

/* The steps after a failed first try of ipl_row's interpolation (its 1),
 * out of line: as mfu_persp_ipl_avx2 and mfu_lanes_avx2 go on after
 * ipl_fp20_4's first try, the retry with +-0 in range (ipl_row with zeros,
 * the weights read from b0, b1: ipl_fp20_4_zeros on these vars), then
 * ipl_vars where that fails too.  Built for each n (IPL_ROW_EXEC). */
__attribute__((target("avx2"), always_inline)) static inline unsigned ipl_row_retry(gr3d_stage *s, gr3d_quad *q,
                                                                                   unsigned e, unsigned n)
{
	const mfu_unit *m = (const mfu_unit *)s;
	const mfu_exec_plan *x = &m->exec[e];
	const gr3d_ctx *c = s->ctx;
	const gr3d_tram_tri *t = &c->tram[q->tri];
	const mfu_plan *in = &x->inst[0];
	if (ipl_row(&m->round, t->f[in->var[0].row], q, q->r + in->var[0].reg, n, false, true)) {
		mfu_weights w;
		weights(q, &w, true);
		ipl_vars(c, in, t, q, 0xFu, &w);
	}
	q->tex_row = x->row;
	return booked(s, x, GR3D_PIXELS);
}

/* An EXEC with a row plan (mfu_exec_plan.row_fn): ipl_row in one pass; where
 * the quad has an inactive pixel or no triangle, or a set-up value is out
 * of range, the EXEC's own path (mfu_persp_ipl_avx2, mfu_lanes_avx2) runs
 * it from the start; where only an interpolated value is, ipl_row_retry's
 * build for n (retry) goes on.  n, persp: constants in each build
 * (IPL_ROW_EXEC). */
__attribute__((target("avx2"), always_inline)) static inline unsigned ipl_row_exec(gr3d_stage *s, gr3d_quad *q,
                                                                                  unsigned e, unsigned n, bool persp,
                                                                                  mfu_exec_fn *retry)
{
	const mfu_unit *m = (const mfu_unit *)s;
	const mfu_exec_plan *x = &m->exec[e];
	const gr3d_ctx *c = s->ctx;
	const mfu_plan *in = &x->inst[0];
	if (active_pixels(q) != 0xFu || q->tri >= c->ntris)
		return persp ? mfu_persp_ipl_avx2(s, q, e) : mfu_lanes_avx2(s, q, e);
	const unsigned out = ipl_row(&m->round, c->tram[q->tri].f[in->var[0].row], q, q->r + in->var[0].reg, n, persp,
	                             false);
	if (out)
		return out == 2 ? mfu_persp_ipl_avx2(s, q, e) : retry(s, q, e);
	q->tex_row = x->row;
	return booked(s, x, GR3D_PIXELS);
}

#define IPL_ROW_RETRY(N) \
	__attribute__((target("avx2"), noinline)) static unsigned ipl_row_retry_##N(gr3d_stage *s, gr3d_quad *q, unsigned e) \
	{ \
		return ipl_row_retry(s, q, e, N); \
	}
IPL_ROW_RETRY(1)
IPL_ROW_RETRY(2)
IPL_ROW_RETRY(3)
IPL_ROW_RETRY(4)
#undef IPL_ROW_RETRY

#define IPL_ROW_EXEC(N, PERSP) \
	__attribute__((target("avx2"), noinline)) static unsigned ipl_row_##N##_##PERSP(gr3d_stage *s, gr3d_quad *q, \
	                                                                               unsigned e) \
	{ \
		return ipl_row_exec(s, q, e, N, PERSP, ipl_row_retry_##N); \
	}
IPL_ROW_EXEC(1, false)
IPL_ROW_EXEC(2, false)
IPL_ROW_EXEC(3, false)
IPL_ROW_EXEC(4, false)
IPL_ROW_EXEC(1, true)
IPL_ROW_EXEC(2, true)
IPL_ROW_EXEC(3, true)
IPL_ROW_EXEC(4, true)
#undef IPL_ROW_EXEC

/* ipl_row's builds by [persp][n - 1] */
static mfu_exec_fn *const IPL_ROW[2][4] = {
	{ ipl_row_1_false, ipl_row_2_false, ipl_row_3_false, ipl_row_4_false },
	{ ipl_row_1_true, ipl_row_2_true, ipl_row_3_true, ipl_row_4_true },
};
#endif

__attribute__((noinline)) static unsigned mfu_quad(gr3d_stage *s, gr3d_quad *q, unsigned e)
{
	return quad_exec(s, q, &((const mfu_unit *)s)->exec[e], false);
}

static unsigned mfu_exec(gr3d_stage *s, gr3d_quad *q, unsigned e)
{
	const mfu_unit *m = (const mfu_unit *)s;
	if (!m->count[e])
		return s->quad_clocks;                          /* count 0 still takes a clock (wiki) */
#if defined(__x86_64__)
	if (m->exec[e].row_fn)
		return m->exec[e].row_fn(s, q, e);
	if (m->exec[e].persp_ipl)
		return mfu_persp_ipl_avx2(s, q, e);
	if (m->exec[e].lanes)
		return mfu_lanes_avx2(s, q, e);
	if (m->exec[e].wide)
		return mfu_quad_avx2(s, q, e);
#endif
	return mfu_quad(s, q, e);
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
		o->var[o->nvar].tram = (uint8_t)((o->var[o->nvar].row * 4u + k) * 3u);
		o->nvar++;
	}
	o->ipl_fp20 = o->nvar > 0 && !c->exact;        /* the fused paths round to FP20 */
	for (unsigned j = 0; j < o->nvar; j++)
		o->ipl_fp20 &= !o->var[j].fx && !o->var[j].sat;
	/* the perspective set-up that persp_setup runs in one pass: rcp of 1/w
	 * with every mantissa bit kept, bar = sfu * bar0, then bar = sfu * bar1 */
	o->reg_sfu = !c->exact && o->sfu_op != TEGRA_SFU_NOP && !o->sfu_w && o->nmul == 0;
	o->persp = !c->exact && o->sfu_op == TEGRA_SFU_RCP && o->sfu_w && c->cfg->tegra_sfu_bits >= 13 && o->nmul == 2 &&
	           o->mul[0].dst == TEGRA_MUL_DST_BAR && !o->mul[0].second &&
	           o->mul[0].src0 == TEGRA_MUL_SRC_SFU && o->mul[0].src1 == TEGRA_MUL_SRC_BAR0 &&
	           o->mul[1].dst == TEGRA_MUL_DST_BAR && o->mul[1].second &&
	           o->mul[1].src0 == TEGRA_MUL_SRC_SFU && o->mul[1].src1 == TEGRA_MUL_SRC_BAR1;
}

/* x->row_fn: ipl_row's build for an EXEC of one instruction, FP20
 * interpolation without saturation (ipl_fp20) of vars 0..n-1 of one TRAM
 * row into n registers in a row, either with the perspective set-up
 * (persp_ipl) or alone (no SFU op, no multiplier: mfu_lanes_avx2's
 * EXEC). */
static void row_plan(mfu_exec_plan *x)
{
	x->row_fn = NULL;
#if defined(__x86_64__)
	const mfu_plan *in = &x->inst[0];
	const bool alone = x->lanes && x->ninst == 1 && in->ipl_fp20 && in->sfu_op == TEGRA_SFU_NOP && in->nmul == 0;
	if (!(x->persp_ipl || alone) || in->nvar == 0)
		return;
	for (unsigned j = 0; j < in->nvar; j++)         /* var j: TRAM (row, k = j), register reg0 + j */
		if (in->var[j].k != j || in->var[j].row != in->var[0].row || in->var[j].reg != in->var[0].reg + j)
			return;
	x->row_fn = IPL_ROW[x->persp_ipl][in->nvar - 1];
#endif
}

void mfu_init(mfu_unit *m, gr3d_ctx *ctx)
{
	gr3d_stage_init(&m->s, "mfu", ctx, MFU_COUNTERS, MFU_CTR_COUNT);
	m->s.exec = mfu_exec;
	m->round = mfu_round_of(ctx->fp20_round);
#if defined(__x86_64__)
	m->avx2 = __builtin_cpu_supports("avx2");
#endif
	memset(m->exec, 0, sizeof m->exec);
	memset(m->count, 0, sizeof m->count);
	bool same_row = ctx->prog->exec_count > 0;      /* every EXEC has the same row plan */
	for (unsigned e = 0; e < ctx->prog->exec_count && e < TEGRA_FP_MAX_EXEC; e++) {
		mfu_exec_plan *x = &m->exec[e];
		const unsigned count = ctx->prog->exec[e].mfu_sched.count;
		x->count = (uint8_t)count;
		m->count[e] = x->count;
		x->ninst = (uint8_t)(count < TEGRA_FP_MAX_PER_EXEC ? count : TEGRA_FP_MAX_PER_EXEC);
		x->row = (uint8_t)(e % ctx->rows);
		for (unsigned i = 0; i < TEGRA_FP_MAX_PER_EXEC; i++) {
			const mfu_plan *in = &x->inst[i];
			plan_inst(ctx, e, &ctx->prog->exec[e].mfu[i], &x->inst[i]);
			if (i >= x->ninst)
				continue;
			x->ipl |= in->nvar > 0;
			x->wide |= m->avx2 && (in->persp || in->ipl_fp20);
			for (unsigned n = 0; n <= GR3D_PIXELS; n++) {
				x->add[n][MFU_CTR_SFU] += (in->sfu_op != TEGRA_SFU_NOP) * n;
				x->add[n][MFU_CTR_MUL] += in->nmul * n;
				x->add[n][MFU_CTR_IPL] += in->nvar * n;
			}
		}
		for (unsigned n = 0; n <= GR3D_PIXELS; n++)
			x->add[n][MFU_CTR_INSTRUCTIONS] = count;
		x->persp_ipl = m->avx2 && x->ninst == 1 && x->inst[0].persp && x->inst[0].ipl_fp20;
		x->lanes = m->avx2 && !x->persp_ipl && x->ninst > 0;
		for (unsigned i = 0; i < x->ninst; i++) {
			const mfu_plan *in = &x->inst[i];
			const bool steps = in->persp || in->reg_sfu || (in->sfu_op == TEGRA_SFU_NOP && in->nmul == 0);
			x->lanes &= steps && (in->nvar == 0 || in->ipl_fp20);
		}
		row_plan(x);
		same_row &= x->row_fn != NULL && x->row_fn == m->exec[0].row_fn;
	}
#if defined(__x86_64__)
	if (same_row && ctx->prog->exec_count <= TEGRA_FP_MAX_EXEC)
		m->s.exec = m->exec[0].row_fn;              /* mfu_exec's choice for each EXEC */
#else
	(void)same_row;
#endif
}

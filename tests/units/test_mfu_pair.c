/* The MFU's fast paths (units/gr3d/mfu.c, units/gr3d/mfu_pair.h) against the general
 * ones: the two-lane FP20 helpers against gr3d_quad.h's one-value helpers
 * around every FP20 code, and whole instructions (the perspective set-up,
 * rcp of a register, FP20 interpolation) run with and without their fast
 * plan on quads full of ordinary and awkward values (zeros, subnormal reads,
 * tiny and huge values, inf, NaN), in every rounding mode, in the pair
 * build and (on hosts with AVX2) the four-lane one.  The fast paths
 * exist for speed only; they must never change a bit. */
#include <criterion/criterion.h>
#include <math.h>

#include "tests/test_util.h"
#include "units/gr3d/mfu.h"

static const enum ulp_round MODES[] = { ULP_ROUND_NEAREST_EVEN, ULP_ROUND_TRUNCATE,
                                        ULP_ROUND_NEAREST_AWAY };

static bool same(double a, double b) { return (isnan(a) && isnan(b)) || !memcmp(&a, &b, sizeof a); }

/* Both lanes through the pair helpers: when their range test lets the pair
 * through, each lane is what the one-value helper gives; the test lets
 * through exactly the values with 2^-16 <= |v| < 2^16. */
static void check_pair(const gr3d_ctx *c, const mfu_round *rd, double v0, double v1)
{
	const mfu_f64x2 v = { v0, v1 };
	mfu_u64x2 far_r = { 0, 0 }, far_b = { 0, 0 };
	const mfu_f64x2 r = mfu_round20_x2(rd, v, &far_r);
	const mfu_u64x2 b = mfu_fp20_bits_x2(rd, v, &far_b);
	const double lanes[2] = { v0, v1 };
	bool in = true;
	for (unsigned l = 0; l < 2; l++)
		in &= fabs(lanes[l]) >= 0x1p-16 && fabs(lanes[l]) < 0x1p16;
	cr_assert_eq(mfu_near_x2(far_r), in, "mode %d: %a, %a: in range %d", (int)c->fp20_round, v0, v1, in);
	cr_assert_eq(mfu_near_x2(far_b), in);
	if (!in)
		return;
	for (unsigned l = 0; l < 2; l++) {
		const double want = gr3d_round20(c, lanes[l]);
		if (!same(r[l], want))
			cr_assert_fail("mode %d: %a rounds to %a, gr3d_round20 says %a", (int)c->fp20_round, lanes[l],
			               r[l], want);
		if ((uint32_t)b[l] != gr3d_to_fp20(c, lanes[l]) || b[l] >> 32)
			cr_assert_fail("mode %d: %a encodes as 0x%05llx, gr3d_fp20_bits says 0x%05x", (int)c->fp20_round,
			               lanes[l], (unsigned long long)b[l], gr3d_to_fp20(c, lanes[l]));
	}
}

Test(mfu_pair, helpers_match_one_value_helpers_around_every_code)
{
	for (unsigned m = 0; m < 3; m++) {
		gr3d_ctx c;
		memset(&c, 0, sizeof c);
		c.fp20_round = MODES[m];
		const mfu_round rd = mfu_round_of(c.fp20_round);
		for (uint32_t code = 0; code <= FP20_MASK; code++) {
			double probes[6];   /* the code, the tie to the next code up, their neighbours */
			if (!test_fp20_probes(code, probes))
				continue;
			for (unsigned k = 0; k < 6; k++)
				check_pair(&c, &rd, probes[k], probes[(k + 1) % 6]);
		}
		const double ends[] = { 0.0, -0.0, 0x1p-16, -0x1p-16, nextafter(0x1p-16, 0), 0x1p16,
		                        nextafter(0x1p16, 0), -nextafter(0x1p16, 0), INFINITY, -INFINITY, NAN, 1.0 };
		for (unsigned i = 0; i < sizeof ends / sizeof ends[0]; i++)
			for (unsigned j = 0; j < sizeof ends / sizeof ends[0]; j++)
				check_pair(&c, &rd, ends[i], ends[j]);
	}
}

/* mfu_fp20_bits_x4 (the AVX2 build's encoder) on four lanes, with and
 * without +-0 in its range: the same values as check_pair, and the codes
 * gr3d_fp20_bits gives.  Returns the number of wrong lanes or range tests. */
#if defined(__x86_64__)
__attribute__((target("avx2"))) static unsigned check_quad_avx2(const gr3d_ctx *c, const mfu_round *rd,
                                                               const double v[4])
{
	unsigned bad = 0;
	for (unsigned zeros = 0; zeros < 2; zeros++) {
		const mfu_f64x4 x = { v[0], v[1], v[2], v[3] };
		mfu_u64x4 far = { 0, 0, 0, 0 }, code;
		mfu_fp20_bits_x4(rd, &x, &far, &code, zeros);
		bool in = true;
		for (unsigned l = 0; l < 4; l++)
			in &= (fabs(v[l]) >= 0x1p-16 && fabs(v[l]) < 0x1p16) || (zeros && v[l] == 0.0);
		bad += mfu_near_x4(&far) != in;
		if (in)
			for (unsigned l = 0; l < 4; l++)
				bad += (uint32_t)code[l] != gr3d_to_fp20(c, v[l]) || code[l] >> 32;
	}
	return bad;
}

Test(mfu_pair, four_lane_codes_with_and_without_zeros_match_one_value_helpers)
{
	if (!__builtin_cpu_supports("avx2"))
		cr_skip_test("the host has no AVX2");
	for (unsigned m = 0; m < 3; m++) {
		gr3d_ctx c;
		memset(&c, 0, sizeof c);
		c.fp20_round = MODES[m];
		const mfu_round rd = mfu_round_of(c.fp20_round);
		for (uint32_t code = 0; code <= FP20_MASK; code++) {
			double p[6];
			if (!test_fp20_probes(code, p))
				continue;
			const double quads[3][4] = { { p[0], p[1], p[2], p[3] },
			                             { p[4], p[5], 0.0, -0.0 },   /* zeros beside other values */
			                             { -0.0, p[0], 0.0, p[5] } };
			for (unsigned k = 0; k < 3; k++)
				cr_assert_eq(check_quad_avx2(&c, &rd, quads[k]), 0u, "mode %d, code 0x%05x, quad %u", (int)MODES[m],
				             code, k);
		}
		const double zeros[4] = { 0.0, -0.0, -0.0, 0.0 };
		cr_assert_eq(check_quad_avx2(&c, &rd, zeros), 0u);
	}
}
#endif

/* ---- whole instructions, fast plan against general plan ---------------- */

static uint64_t next(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/* Mostly ordinary values, sometimes one the fast paths must refuse. */
static float awkward(uint64_t *x)
{
	static const float odd[] = { 0.0f, -0.0f, 1e-30f, -1e-30f, 1e30f, INFINITY, -INFINITY, NAN, 0x1p-16f,
	                             0x1p16f, 3e-5f, 1.0f, -1.0f };
	const uint64_t r = next(x);
	if (r % 16 == 0)
		return odd[(r >> 8) % (sizeof odd / sizeof odd[0])];
	if (r % 16 == 1)
		return gr3d_fp20((uint32_t)(r >> 12) & FP20_MASK);        /* any code, specials included */
	return (float)((double)(r >> 11) / 0x1p53 * 2.5 - 0.5);
}

static void random_quad(uint64_t *x, gr3d_quad *q)
{
	memset(q, 0, sizeof *q);
	for (unsigned p = 0; p < GR3D_PIXELS; p++) {
		q->covered[p] = true;
		q->q[p] = awkward(x);
		q->bar0[p] = awkward(x);
		q->bar1[p] = awkward(x);
		q->b0[p] = awkward(x);
		q->b1[p] = awkward(x);
		for (unsigned r = 0; r < GR3D_ROW_REGS; r++)
			q->r[r][p] = next(x) % 8 ? fp20_encode(awkward(x), ULP_ROUND_NEAREST_EVEN)
			                       : (uint32_t)next(x) & FP20_MASK;
	}
}

/* Pixel p of src (its registers, weights and flags) into dst. */
static void copy_pixel(gr3d_quad *dst, const gr3d_quad *src, unsigned p)
{
	for (unsigned i = 0; i < GR3D_QUAD_REGS; i++)
		gr3d_quad_reg(dst, i)[p] = gr3d_quad_creg(src, i)[p];
	dst->bar0[p] = src->bar0[p];
	dst->bar1[p] = src->bar1[p];
	dst->q[p] = src->q[p];
	dst->b0[p] = src->b0[p];
	dst->b1[p] = src->b1[p];
	dst->covered[p] = src->covered[p];
	dst->killed[p] = src->killed[p];
	dst->exec_killed[p] = src->exec_killed[p];
	dst->front[p] = src->front[p];
	dst->px[p] = src->px[p];
}

/* A triangle's rows: awkward words, and one component in four 0 at all
 * three vertices (+0 or -0 each), as a varying that is 0 across a triangle
 * is (glmark2 shading's normals: it interpolates to +-0, which the
 * four-lane interpolation takes on its retry, mfu.c ipl_lanes). */
static void random_tram(uint64_t *x, gr3d_tram_tri *t)
{
	for (unsigned r = 0; r < GR3D_TRAM_ROWS; r++)
		for (unsigned k = 0; k < 4; k++) {
			const bool zero = next(x) % 4 == 0;
			for (unsigned i = 0; i < 3; i++) {
				const uint32_t w = zero          ? fp20_encode(next(x) % 2 ? -0.0f : 0.0f, ULP_ROUND_NEAREST_EVEN)
				                   : next(x) % 8 ? fp20_encode(awkward(x), ULP_ROUND_NEAREST_EVEN)
				                                 : (uint32_t)next(x) & FP20_MASK;
				t->v[r][k][i] = w;
				t->f[r][k][i] = gr3d_fp20(w);
				t->fx[r][k][0][i] = gr3d_fx10(w, false);
				t->fx[r][k][1][i] = gr3d_fx10(w, true);
			}
		}
}

typedef struct rig {
	ulp_config cfg;
	tegra_fp_decoded prog;
	gr3d_ctx ctx;
	mfu_unit mfu;
	gr3d_tram_tri tram;
} rig;

/* A one-EXEC program with the n MFU instructions in, planned by mfu_init. */
static rig *new_rig_n(const tegra_mfu_inst *in, unsigned n, enum ulp_round rm, int sfu_bits)
{
	rig *r = calloc(1, sizeof *r);
	cr_assert(r);
	ulp_config_defaults(&r->cfg);
	r->cfg.fp20_round = rm;
	r->cfg.tegra_sfu_bits = sfu_bits;
	r->prog.exec_count = 1;
	r->prog.alu_buffer_size = 1;
	r->prog.exec[0].mfu_sched.count = (uint8_t)n;
	for (unsigned i = 0; i < n; i++)
		r->prog.exec[0].mfu[i] = in[i];
	r->ctx.prog = &r->prog;
	r->ctx.cfg = &r->cfg;
	r->ctx.rows = 1;
	r->ctx.fp20_round = rm;
	r->ctx.fx10_round = r->cfg.fx10_round;
	r->ctx.tram = &r->tram;
	r->ctx.ntris = 1;
	mfu_init(&r->mfu, &r->ctx);
	return r;
}

static rig *new_rig(const tegra_mfu_inst *in, enum ulp_round rm, int sfu_bits)
{
	return new_rig_n(in, 1, rm, sfu_bits);
}

static void expect_same_quad(const gr3d_quad *a, const gr3d_quad *b, unsigned trial)
{
	for (unsigned p = 0; p < GR3D_PIXELS; p++) {
		for (unsigned r = 0; r < GR3D_ROW_REGS; r++)
			if (a->r[r][p] != b->r[r][p])
				cr_assert_fail("trial %u pixel %u: r%u 0x%05x fast, 0x%05x general", trial, p, r, a->r[r][p],
				               b->r[r][p]);
		if (memcmp(&a->b0[p], &b->b0[p], sizeof a->b0[p]) || memcmp(&a->b1[p], &b->b1[p], sizeof a->b1[p]))
			cr_assert_fail("trial %u pixel %u: b0/b1 %a/%a fast, %a/%a general", trial, p, (double)a->b0[p],
			               (double)a->b1[p], (double)b->b0[p], (double)b->b1[p]);
	}
}

/* Runs in on many random quads with its plan and with the fast paths
 * switched off; *fast counts the plans that had one. */
static void compare_paths_bits(const tegra_mfu_inst *in, int sfu_bits, unsigned *fast)
{
	for (unsigned m = 0; m < 3; m++) {
		rig *r = new_rig(in, MODES[m], sfu_bits);
		const mfu_plan *plan = &r->mfu.exec[0].inst[0];
		mfu_plan general = *plan;
		general.persp = general.reg_sfu = general.ipl_fp20 = false;
		*fast += plan->persp + plan->reg_sfu + plan->ipl_fp20;
		uint64_t x = 0x9E3779B97F4A7C15u + m;
		for (unsigned trial = 0; trial < 20000; trial++) {
			random_tram(&x, &r->tram);
			gr3d_quad a, b;
			random_quad(&x, &a);
			const unsigned active = trial % 8 ? 0xFu : (unsigned)(next(&x) & 0xF);
			for (unsigned p = 0; p < GR3D_PIXELS; p++)
				a.killed[p] = !((active >> p) & 1u);
			memcpy(&b, &a, sizeof b);
			gr3d_quad c = a;
			const gr3d_tram_tri *t = trial % 64 ? &r->tram : NULL;
			mfu_run_inst(&r->ctx, plan, t, &a, active, false);
			mfu_run_inst(&r->ctx, &general, t, &b, active, false);
			expect_same_quad(&a, &b, trial);
			mfu_run_inst(&r->ctx, plan, t, &c, active, true);   /* the four-lane build (AVX2 hosts) */
			expect_same_quad(&c, &b, trial);
		}
		free(r);
	}
}

static void compare_paths(const tegra_mfu_inst *in, unsigned *fast) { compare_paths_bits(in, 13, fast); }

static tegra_mfu_inst persp_inst(uint8_t op)
{
	tegra_mfu_inst in;
	memset(&in, 0, sizeof in);
	in.sfu_op = TEGRA_SFU_RCP;
	in.sfu_reg = 4;                                   /* tegra.mfu.w_reg: 1/w */
	in.mul[0].dst = in.mul[1].dst = TEGRA_MUL_DST_BAR;
	in.mul[0].src0 = in.mul[1].src0 = TEGRA_MUL_SRC_SFU;
	in.mul[0].src1 = TEGRA_MUL_SRC_BAR0;
	in.mul[1].src1 = TEGRA_MUL_SRC_BAR1;
	for (unsigned k = 0; k < 4; k++) {
		in.var[k].op = op;
		in.var[k].tram_row = (uint8_t)(k * 5 % 16);
	}
	return in;
}

Test(mfu_pair, perspective_setup_and_interpolation_match_the_general_steps)
{
	unsigned fast = 0;
	tegra_mfu_inst in = persp_inst(TEGRA_VAR_FP20);
	compare_paths(&in, &fast);
	in.var[1].op = in.var[3].op = TEGRA_VAR_NOP;      /* blend_saturate's ipl: t0, t0, NOP, NOP */
	compare_paths(&in, &fast);
	cr_expect_eq(fast, 12, "every plan took both fast paths (%u)", fast);
}

Test(mfu_pair, rcp_of_a_register_and_interpolation_alone_match_the_general_steps)
{
	unsigned fast = 0;
	tegra_mfu_inst in;
	memset(&in, 0, sizeof in);
	in.sfu_op = TEGRA_SFU_RCP;
	in.sfu_reg = 2;                                   /* xf86's rcp r2 */
	compare_paths(&in, &fast);
	cr_expect_eq(fast, 3);
	in.sfu_op = TEGRA_SFU_NOP;                        /* ipl with the weights a bar write left */
	in.var[2].op = TEGRA_VAR_FP20;
	in.var[2].tram_row = 7;
	compare_paths(&in, &fast);
	cr_expect_eq(fast, 6);
	/* both in one instruction (glmark2 jellyfish's `sfu: rcp r0; ipl: NOP,
	 * NOP, NOP, t2`): the rcp's fast path leaves the weights to be read */
	in.sfu_op = TEGRA_SFU_RCP;
	compare_paths(&in, &fast);
	cr_expect_eq(fast, 12, "every plan took both fast paths (%u)", fast);
}

/* `sfu: OP rN` with no multiplier (mfu.c reg_sfu: fs_lit's rsq, lg2, preEx2
 * and ex2) for every SFU op, with every mantissa bit kept and with
 * tegra.sfu.mantissa_bits cut to 10, alone and before an interpolation,
 * against the general steps (random registers: zeros, subnormals, inf, NaN
 * and huge values among them, which the fast path hands back). */
Test(mfu_pair, sfu_of_a_register_matches_the_general_steps)
{
	static const uint8_t ops[] = { TEGRA_SFU_RCP, TEGRA_SFU_RSQ, TEGRA_SFU_LG2, TEGRA_SFU_EX2, TEGRA_SFU_SQRT,
	                               TEGRA_SFU_SIN, TEGRA_SFU_COS, TEGRA_SFU_FRC, TEGRA_SFU_PREEX2,
	                               TEGRA_SFU_PRESIN, TEGRA_SFU_PRECOS };
	unsigned fast = 0, want = 0;
	for (unsigned o = 0; o < sizeof ops; o++)
		for (int bits = 10; bits <= 13; bits += 3) {
			tegra_mfu_inst in;
			memset(&in, 0, sizeof in);
			in.sfu_op = ops[o];
			in.sfu_reg = (uint8_t)(o % 4);
			if (o % 2) {
				in.var[(o + 1) % 4].op = TEGRA_VAR_FP20;       /* the ipl reads the weights as left */
				in.var[(o + 1) % 4].tram_row = (uint8_t)o;
			}
			compare_paths_bits(&in, bits, &fast);
			want += 3 * (1 + o % 2);
		}
	cr_expect_eq(fast, want, "every plan took the fast paths (%u of %u)", fast, want);
}

/* What the plan may take a fast path for: a knob or an operand it does not
 * assume leaves the general steps in charge. */
Test(mfu_pair, plans_leave_other_knobs_and_operands_to_the_general_steps)
{
	tegra_mfu_inst in = persp_inst(TEGRA_VAR_FP20);
	rig *r = new_rig(&in, ULP_ROUND_NEAREST_EVEN, 13);
	cr_expect(r->mfu.exec[0].inst[0].persp && r->mfu.exec[0].inst[0].ipl_fp20);
	free(r);
	r = new_rig(&in, ULP_ROUND_NEAREST_EVEN, 10);     /* tegra.sfu.mantissa_bits < 13 */
	cr_expect(!r->mfu.exec[0].inst[0].persp);
	free(r);
	in.mul[0].src0 = TEGRA_MUL_SRC_BAR0;              /* operands swapped */
	in.mul[0].src1 = TEGRA_MUL_SRC_SFU;
	in.var[0].saturate = true;
	r = new_rig(&in, ULP_ROUND_NEAREST_EVEN, 13);
	cr_expect(!r->mfu.exec[0].inst[0].persp && !r->mfu.exec[0].inst[0].ipl_fp20);
	free(r);
	in = persp_inst(TEGRA_VAR_FX10);
	r = new_rig(&in, ULP_ROUND_NEAREST_EVEN, 13);
	cr_expect(r->mfu.exec[0].inst[0].persp && !r->mfu.exec[0].inst[0].ipl_fp20);
	free(r);
	memset(&in, 0, sizeof in);
	in.sfu_op = TEGRA_SFU_RCP;
	in.sfu_reg = 1;
	in.mul[0].dst = TEGRA_MUL_DST_R0;                 /* a multiplier reads the SFU result */
	in.mul[0].src0 = TEGRA_MUL_SRC_SFU;
	in.mul[0].src1 = TEGRA_MUL_SRC_ONE;
	r = new_rig(&in, ULP_ROUND_NEAREST_EVEN, 13);
	cr_expect(!r->mfu.exec[0].inst[0].reg_sfu);
	free(r);
}

/* The SFU step on a quad of four active pixels (mfu.c run_steps: rcp and
 * rsq inline, the others through mfu_sfu, rounded and encoded four at a
 * time) against the same instruction run on each pixel alone (the
 * per-pixel steps), for every SFU op, both mantissa widths and every
 * rounding mode, on random quads with awkward values. */
Test(mfu_pair, sfu_ops_on_four_pixels_match_each_pixel_alone)
{
	static const uint8_t ops[] = { TEGRA_SFU_RCP, TEGRA_SFU_RSQ, TEGRA_SFU_LG2, TEGRA_SFU_EX2, TEGRA_SFU_SQRT,
	                               TEGRA_SFU_SIN, TEGRA_SFU_COS, TEGRA_SFU_FRC, TEGRA_SFU_PRESIN };
	for (unsigned o = 0; o < sizeof ops; o++)
		for (unsigned m = 0; m < 3; m++)
			for (int bits = 10; bits <= 13; bits += 3) {
				tegra_mfu_inst in;
				memset(&in, 0, sizeof in);
				in.sfu_op = ops[o];
				in.sfu_reg = 1;
				in.mul[0].dst = TEGRA_MUL_DST_R0 + 3;     /* r3 = sfu * r2: the SFU value read again */
				in.mul[0].src0 = TEGRA_MUL_SRC_SFU;
				in.mul[0].src1 = 2;
				rig *r = new_rig(&in, MODES[m], bits);
				const mfu_plan *plan = &r->mfu.exec[0].inst[0];
				uint64_t x = 0x2545F4914F6CDD1Du + o * 7 + m;
				for (unsigned trial = 0; trial < 3000; trial++) {
					gr3d_quad a, b;
					random_quad(&x, &a);
					memcpy(&b, &a, sizeof b);
					mfu_run_inst(&r->ctx, plan, NULL, &a, 0xFu, true);
					for (unsigned p = 0; p < GR3D_PIXELS; p++) {
						gr3d_quad one;
						memcpy(&one, &b, sizeof one);
						mfu_run_inst(&r->ctx, plan, NULL, &one, 1u << p, false);
						copy_pixel(&b, &one, p);
					}
					expect_same_quad(&a, &b, trial);
				}
				free(r);
			}
}

/* run_steps reads a register's four words with gr3d_rd20_quad(c, true, ...)
 * and writes a product's four codes with gr3d_enc20_quad: each word and
 * value must be gr3d_rd20's and gr3d_to_fp20's, every code, both modes. */
Test(mfu_pair, quad_reads_and_writes_are_the_one_value_ones)
{
	ulp_config cfg;
	ulp_config_defaults(&cfg);
	for (unsigned m = 0; m < 3; m++)
		for (unsigned exact = 0; exact < 2; exact++) {
			const gr3d_ctx c = { .cfg = &cfg, .fp20_round = MODES[m], .exact = exact };
			for (uint32_t code = 0; code <= FP20_MASK; code += 4) {
				const uint32_t raw[GR3D_PIXELS] = { code, code + 1, code + 2, exact ? code << 12 : code + 3 };
				double v[GR3D_PIXELS];
				gr3d_rd20_quad(&c, true, raw, v);
				uint32_t enc[GR3D_PIXELS];
				gr3d_enc20_quad(&c, v, enc);
				for (unsigned p = 0; p < GR3D_PIXELS; p++) {
					cr_assert(same(v[p], gr3d_rd20(&c, raw[p])), "code %05x (exact %u)", raw[p], exact);
					cr_assert_eq(enc[p], gr3d_to_fp20(&c, v[p]), "value %a (exact %u)", v[p], exact);
				}
			}
		}
}

/* run_steps's register reads and product writes on four pixels at once
 * against their definition value by value: `sfu: rsq r1` in place, then
 * `mul0: r2, r0, r3` (both sources registers), on every FP20 code in r0,
 * r1 and r3 (subnormal reads, zeros, inf, NaN among them). */
Test(mfu_pair, steps_read_and_write_every_code_as_one_value)
{
	tegra_mfu_inst in;
	memset(&in, 0, sizeof in);
	in.sfu_op = TEGRA_SFU_RSQ;
	in.sfu_reg = 1;
	in.mul[0].dst = TEGRA_MUL_DST_R0 + 2;
	in.mul[0].src0 = TEGRA_MUL_SRC_R0;
	in.mul[0].src1 = TEGRA_MUL_SRC_R0 + 3;
	for (unsigned m = 0; m < 3; m++) {
		rig *r = new_rig(&in, MODES[m], 13);
		const gr3d_ctx *c = &r->ctx;
		const mfu_plan *plan = &r->mfu.exec[0].inst[0];
		for (uint32_t code = 0; code <= FP20_MASK; code += 4) {
			gr3d_quad q;
			memset(&q, 0, sizeof q);
			for (unsigned p = 0; p < GR3D_PIXELS; p++) {
				q.covered[p] = true;
				q.r[0][p] = code + p;
				q.r[1][p] = (code + p) ^ 0x2A5A5u;
				q.r[3][p] = (code * 7u + p) & FP20_MASK;
			}
			gr3d_quad want = q;
			for (unsigned p = 0; p < GR3D_PIXELS; p++) {
				const double s = gr3d_round20(c, mfu_sfu(c, TEGRA_SFU_RSQ, gr3d_rd20(c, want.r[1][p])));
				want.r[1][p] = gr3d_to_fp20(c, s);
				want.r[2][p] = gr3d_to_fp20(c, gr3d_round20(c, gr3d_rd20(c, want.r[0][p]) * gr3d_rd20(c, want.r[3][p])));
			}
			mfu_run_inst(c, plan, NULL, &q, 0xFu, m & 1u);
			expect_same_quad(&q, &want, code);
		}
		free(r);
	}
}

/* A whole EXEC through the stage (mfu_exec: mfu_persp_ipl_avx2 where the
 * plan says persp_ipl, mfu_lanes_avx2 where it says lanes, quad_exec's AVX2
 * build where it says wide, else the plain one) against the plain build:
 * the same registers, weights, tex_row, clocks and counters, for a persp
 * EXEC (persp_ipl), a register SFU op before an interpolation, an
 * interpolation alone, two register SFU ops in one EXEC (fs_lit's `rsq`
 * pair, the second reading the first's result), lg2, ex2 and preEx2 alone
 * and (with tegra.sfu.mantissa_bits cut to 10) together, a persp set-up followed by
 * an rsq, and an EXEC with a fixed-point interpolation (no lanes), on
 * random quads with any pixels active, awkward values (every fast path's
 * fallback) and sometimes no triangle. */
Test(mfu_pair, exec_builds_agree)
{
	enum { NEXEC = 10 };
	tegra_mfu_inst ins[NEXEC][2];
	unsigned nins[NEXEC];
	int bits[NEXEC];
	memset(ins, 0, sizeof ins);
	for (unsigned k = 0; k < NEXEC; k++) {
		nins[k] = 1;
		bits[k] = 13;
	}
	ins[0][0] = persp_inst(TEGRA_VAR_FP20);
	ins[1][0].sfu_op = TEGRA_SFU_RSQ;
	ins[1][0].sfu_reg = 0;
	ins[1][0].var[2].op = TEGRA_VAR_FP20;
	ins[1][0].var[2].tram_row = 3;
	ins[2][0].var[0].op = ins[2][0].var[1].op = TEGRA_VAR_FP20;
	ins[2][0].var[1].tram_row = 9;
	ins[3][0].sfu_op = ins[3][1].sfu_op = TEGRA_SFU_RSQ;
	ins[3][0].sfu_reg = 1;
	ins[3][1].sfu_reg = 1;
	nins[3] = 2;
	ins[4][0].sfu_op = TEGRA_SFU_LG2;
	ins[4][0].sfu_reg = 2;
	ins[5][0].sfu_op = TEGRA_SFU_EX2;
	ins[5][0].sfu_reg = 3;
	ins[6][0].sfu_op = TEGRA_SFU_PREEX2;
	ins[6][0].sfu_reg = 0;
	ins[6][0].var[1].op = TEGRA_VAR_FP20;
	ins[6][0].var[1].tram_row = 5;
	ins[7][0].sfu_op = TEGRA_SFU_EX2;
	ins[7][0].sfu_reg = 1;
	ins[7][1].sfu_op = TEGRA_SFU_PREEX2;
	ins[7][1].sfu_reg = 2;
	nins[7] = 2;
	bits[7] = 10;
	ins[8][0] = persp_inst(TEGRA_VAR_FP20);
	ins[8][1].sfu_op = TEGRA_SFU_RSQ;
	ins[8][1].sfu_reg = 2;
	nins[8] = 2;
	ins[9][0].sfu_op = TEGRA_SFU_RCP;
	ins[9][0].sfu_reg = 1;
	ins[9][0].var[3].op = TEGRA_VAR_FX10;
	ins[9][0].var[3].tram_row = 2;
	unsigned wide_plans = 0, persp_ipl_plans = 0, lanes_plans = 0;
	for (unsigned k = 0; k < NEXEC; k++)
		for (unsigned m = 0; m < 3; m++) {
			rig *r = new_rig_n(ins[k], nins[k], MODES[m], bits[k]);
			mfu_unit plain = r->mfu;
			plain.exec[0].wide = false;
			plain.exec[0].persp_ipl = false;
			plain.exec[0].lanes = false;
			wide_plans += r->mfu.exec[0].wide;
			persp_ipl_plans += r->mfu.exec[0].persp_ipl;
			lanes_plans += r->mfu.exec[0].lanes;
			uint64_t x = 0x51ED2705u + k * 3 + m;
			for (unsigned trial = 0; trial < 5000; trial++) {
				random_tram(&x, &r->tram);
				gr3d_quad a;
				random_quad(&x, &a);
				const unsigned active = trial % 4 ? 0xFu : (unsigned)(next(&x) & 0xF);
				for (unsigned p = 0; p < GR3D_PIXELS; p++)
					a.killed[p] = !((active >> p) & 1u);
				a.tri = trial % 32 ? 0 : 1;                  /* 1: no triangle (ntris 1) */
				gr3d_quad b = a;
				const unsigned ca = r->mfu.s.exec(&r->mfu.s, &a, 0), cb = plain.s.exec(&plain.s, &b, 0);
				cr_assert_eq(ca, cb);
				cr_assert_eq(a.tex_row, b.tex_row);
				expect_same_quad(&a, &b, trial);
			}
			cr_assert(!memcmp(r->mfu.s.u.stats.counter, plain.s.u.stats.counter,
			                  sizeof plain.s.u.stats.counter), "the counters agree");
			free(r);
		}
#if defined(__x86_64__)
	if (__builtin_cpu_supports("avx2"))
	{
		cr_expect_eq(wide_plans, 15u, "the EXECs with a persp or ipl_fp20 instruction are wide (%u)", wide_plans);
		cr_expect_eq(persp_ipl_plans, 3u, "the persp EXEC is persp_ipl in every rounding (%u)", persp_ipl_plans);
		cr_expect_eq(lanes_plans, 24u, "every EXEC but persp_ipl's and the FX10 one has lanes (%u)", lanes_plans);
	}
#else
	(void)wide_plans;
	(void)persp_ipl_plans;
	(void)lanes_plans;
#endif
}

/* The unit's own choice of the pixels it runs (active_pixels: every pixel
 * but the covered and killed ones, helpers too) against the same choice
 * made pixel by pixel, on quads with any covered and killed flags. */
Test(mfu_pair, exec_runs_every_pixel_not_covered_and_killed)
{
	tegra_mfu_inst in = persp_inst(TEGRA_VAR_FP20);
	rig *r = new_rig(&in, ULP_ROUND_NEAREST_EVEN, 13);
	const mfu_plan *plan = &r->mfu.exec[0].inst[0];
	uint64_t x = 0xC0FFEEu;
	for (unsigned trial = 0; trial < 2000; trial++) {
		random_tram(&x, &r->tram);
		gr3d_quad a;
		random_quad(&x, &a);
		const uint64_t bits = next(&x);
		unsigned want = 0;
		for (unsigned p = 0; p < GR3D_PIXELS; p++) {
			a.covered[p] = (bits >> p) & 1u;
			a.killed[p] = (bits >> (4 + p)) & 1u;
			want |= (unsigned)!(a.covered[p] && a.killed[p]) << p;
		}
		gr3d_quad b = a;
		r->mfu.s.exec(&r->mfu.s, &a, 0);
		if (want)
			mfu_run_inst(&r->ctx, plan, &r->tram, &b, want, false);
		expect_same_quad(&a, &b, trial);
	}
	free(r);
}

/* reg_sfu4's read (the AVX2 build): mfu_fp20_f64_normal must give
 * gr3d_fp20's binary64 bits of every normal code, and mfu_fp20_odd name
 * exactly the codes fp20_is_special names (all ones or all zeros), with
 * bits above 20 set in some lanes; each in a plain function and, where the
 * host has AVX2, in one built for it.  Returns the lanes that differ. */
static inline __attribute__((always_inline)) unsigned read_lanes(void)
{
	unsigned bad = 0;
	for (uint32_t base = 0; base < (1u << 20); base += GR3D_PIXELS) {
		mfu_u32x4 w;
		for (unsigned p = 0; p < GR3D_PIXELS; p++)   /* the lanes in another order */
			w[p] = (base + (p * 3u & 3u)) | (p & 1u ? 0xABC00000u : 0u);
		mfu_f64x4 x;
		mfu_fp20_f64_normal(w, &x);
		const mfu_u32x4 sp = mfu_fp20_odd(w);
		for (unsigned p = 0; p < GR3D_PIXELS; p++) {
			const uint32_t code = w[p] & 0xFFFFFu;
			bad += (sp[p] != 0) != fp20_is_special(code) || (sp[p] != 0 && sp[p] != ~0u);
			if (!fp20_is_special(code))
				bad += !same(x[p], gr3d_fp20(code));
		}
	}
	return bad;
}

static unsigned read_lanes_plain(void) { return read_lanes(); }
#if defined(__x86_64__)
__attribute__((target("avx2"))) static unsigned read_lanes_avx2(void) { return read_lanes(); }
#endif

Test(mfu_pair, register_read_on_four_lanes_is_gr3d_fp20)
{
	cr_assert_eq(read_lanes_plain(), 0u, "plain build: lanes differ");
#if defined(__x86_64__)
	if (__builtin_cpu_supports("avx2"))
		cr_assert_eq(read_lanes_avx2(), 0u, "AVX2 build: lanes differ");
#endif
}

/* An ordinary value in [lo, lo + span): what a quad of fs_color holds. */
static float tame(uint64_t *x, double lo, double span)
{
	return (float)(lo + (double)(next(x) >> 11) / 0x1p53 * span);
}

/* An EXEC of one instruction that interpolates n FP20 varyings of one TRAM
 * row into n registers in a row (mfu_exec_plan.row_fn: fs_color's `MOV
 * OUT[0], IN[0]`, fs_tex's two), with the perspective set-up or with the
 * quad's weights, run as the unit runs it (its exec, which mfu_init makes
 * the row build itself when every EXEC has it), against the general steps:
 * the registers, weights, TEX row, clocks and counters.  Half the quads hold
 * awkward values (the fast path must refuse them and leave the quad as the
 * general steps do), half ordinary ones (it takes them).  Plan 8, an SFU op
 * on a register before the interpolation, has no row build. */
Test(mfu_pair, ipl_row_exec_matches_the_general_steps)
{
	unsigned rows = 0;
	for (unsigned plan = 0; plan < 9; plan++) {
		const unsigned n = plan == 8 ? 2 : plan % 4 + 1;
		const bool persp = plan >= 4 && plan < 8, reg_sfu = plan == 8;
		tegra_mfu_inst in = persp_inst(TEGRA_VAR_FP20);
		if (!persp)
			memset(&in, 0, sizeof in);                /* no SFU op, no multiplier */
		if (reg_sfu) {
			in.sfu_op = TEGRA_SFU_RSQ;
			in.sfu_reg = 1;
		}
		for (unsigned k = 0; k < 4; k++) {
			in.var[k].op = k < n ? TEGRA_VAR_FP20 : TEGRA_VAR_NOP;
			in.var[k].tram_row = 6;
		}
		for (unsigned m = 0; m < 3; m++) {
			rig *r = new_rig(&in, MODES[m], 13);
			const mfu_exec_plan *xp = &r->mfu.exec[0];
			rows += xp->row_fn != NULL;
			mfu_plan general = xp->inst[0];
			general.persp = general.reg_sfu = general.ipl_fp20 = false;
			uint64_t want[MFU_CTR_COUNT] = { 0 };
			uint64_t x = 0x2545F4914F6CDD1Du + plan * 3 + m;
			for (unsigned trial = 0; trial < 8000; trial++) {
				random_tram(&x, &r->tram);
				gr3d_quad a;
				random_quad(&x, &a);
				if (trial % 2) {
					for (unsigned p = 0; p < GR3D_PIXELS; p++) {
						a.q[p] = tame(&x, 0.25, 2.0);
						a.bar0[p] = tame(&x, -0.25, 1.5);
						a.bar1[p] = tame(&x, -0.25, 1.5);
						a.b0[p] = gr3d_fp20(fp20_encode(tame(&x, -0.25, 1.5), ULP_ROUND_NEAREST_EVEN));
						a.b1[p] = gr3d_fp20(fp20_encode(tame(&x, -0.25, 1.5), ULP_ROUND_NEAREST_EVEN));
					}
					for (unsigned k = 0; k < 4; k++)
						for (unsigned i = 0; i < 3; i++)
							r->tram.f[6][k][i] =
								gr3d_fp20(fp20_encode(tame(&x, -1.0, 3.0), ULP_ROUND_NEAREST_EVEN));
				}
				const unsigned active = trial % 8 ? 0xFu : (unsigned)(next(&x) & 0xF);
				for (unsigned p = 0; p < GR3D_PIXELS; p++)
					a.killed[p] = !((active >> p) & 1u);
				a.tri = trial % 32 ? 0 : 1;                  /* 1: no triangle (ntris 1) */
				gr3d_quad b = a;
				const unsigned clocks = r->mfu.s.exec(&r->mfu.s, &a, 0);
				mfu_run_inst(&r->ctx, &general, b.tri ? NULL : &r->tram, &b, active, false);
				b.tex_row = xp->row;
				expect_same_quad(&a, &b, trial);
				cr_assert_eq(a.tex_row, b.tex_row);
				cr_assert_eq(clocks, r->mfu.s.quad_clocks * xp->count);
				const unsigned np = (unsigned)__builtin_popcount(active);
				want[MFU_CTR_INSTRUCTIONS] += 1;
				want[MFU_CTR_SFU] += (persp || reg_sfu) * np;
				want[MFU_CTR_MUL] += persp * 2 * np;
				want[MFU_CTR_IPL] += n * np;
			}
			for (unsigned k = 0; k < MFU_CTR_COUNT; k++)
				cr_assert_eq(r->mfu.s.u.stats.counter[k], want[k], "plan %u counter %u", plan, k);
			free(r);
		}
	}
#if defined(__x86_64__)
	cr_expect_eq(rows, __builtin_cpu_supports("avx2") ? 24u : 0u, "every plan has a row build (%u)", rows);
#else
	cr_expect_eq(rows, 0u);
#endif
}

/* The quads' arithmetic ahead of their stages, in batches (sim.gr3d_ahead;
 * units/gr3d/ahead.h, units/gr3d/alu_batch.c, docs/speed.md): results are
 * the general path's bit for bit.
 *  - alu_batch_exec against alu_exec quad by quad, on registers holding
 *    every kind of FP20 code (zeros, subnormal reads, inf, NaN), partial
 *    quads, TEX's pre-fetch view, under the rounding knobs; and on batches
 *    of colours with at most one odd or far word;
 *  - every corpus fragment program drawn on triangles with partial quads,
 *    with and without the knob, under several knob settings (rounding, FX10
 *    overflow, the batch view, row-relative registers, the pre-fetch view,
 *    FIFO sizes and so batch sizes, arith=exact): images, cycles, every
 *    unit's busy/idle/stall and counters;
 *  - the sample traces on Tegra 2 and Tegra 3 (two blocks), one and two
 *    host threads, with a timeline and a cycle budget: images, stats, port
 *    marks and every timeline event. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fileio.h"
#include "isa/tegra/fp_words.h"
#include "isa/tegra/tegra_asm.h"
#include "tests/units/alu_rig.h"
#include "sim/core/timeline.h"
#include "tests/test_replay_pair.h"
#include "tests/test_util.h"
#include "tests/units/gr3d_rig.h"
#include "traces/replay/replay.h"
#include "ulpsim/ulpsim.h"
#include "units/gpu.h"
#include "units/gr3d/ahead.h"
#include "units/gr3d/alu_slot.h"

/* ---- alu_batch_exec against alu_exec ---- */

static const char ALU_PROG[] =
	"alu_buffer_size = 2\n.asm\nEXEC\n ALU:\n"
	"  ALU0: MAD r4.h, r0, #1, #0, #1\n"
	"  ALU1: MAD r5.lh, -r0, #1, #0\n"
	"  ALU2: MAD r6.l, abs(r0), #1, #0 (sat)\n"
	"  ALU3: CSEL r6.h, r1, r0, r2.l\n"
	" ALU:\n"
	"  ALU0: MAD r7.l, alu0, #1, #0\n"
	"  ALU1: MAD r7.h, alu1, r0, #0\n"
	"  ALU2: MAD g1.lh, alu2, u1, #0\n"
	"  ALU3: MAD r9.l, r2.h, #1, #0\n"
	" ALU:\n"
	"  ALU0: MAD r10.lh, r0, #1, #0 (x2)\n"
	"  ALU1: MAD r11.lh, r0*2, r1, -r2\n"
	"  ALU2: MAD r12.lh, r0-1, #1, #0\n"
	"  ALU3: MAD r13.lh, r0, #1, #0 (ge)\n;\n"
	"EXEC\n ALU:\n"
	"  ALU0: MIN r0.lh, r0, r1, r2, #1\n"
	"  ALU1: MAX r1.lh, r1, u0, r0, #1 (x4)\n"
	"  ALU2: MAD cr1, r2, r0, #0 (gt)\n"
	"  ALU3: MAD r3.lh, posx, #1, posy, #1\n"
	" ALU:\n"
	"  ALU0: MAD r2.lh, r0, r1, #0 (this)\n"
	"  ALU1: MAD g2.lh, r1, r0, #0 (other)\n"
	"  ALU2: CSEL r0.l, cr1, pface, r1\n"
	"  ALU3: MAD r1.h, r4, #1, #0 (eq)\n;\n"
	"EXEC\n ALU:\n"
	"  ALU0: MAD r2.lh, r0, r1, r4 (/2)\n"
	"  ALU1: MAD r3.lh, r4, r4, imm0\n"
	"  ALU2: MAD r6.l, r5.h, #1, #0\n"
	"  ALU3: imm0 = 0.7000122\n"
	/* a register read again in the packet (alu_batch.c's store): first with modifiers,
	 * then with others or none; two FX10 halves of one register, which are not one read */
	" ALU:\n"
	"  ALU0: MAD r8.lh, -r1, r1, abs(r3), #1\n"
	"  ALU1: MAD r9.lh, abs(r1), r1-1, r3, #1\n"
	"  ALU2: MAD g3.lh, -r3, #1, #0\n"
	"  ALU3: MAD r10.lh, r2.h, r2.l, #0\n;\n";

/* A colour code in [2^-7, 1]: an FP20 read, product or sum of these is
 * neither odd (exponent 0 or 63) nor far (fp20_far_lanes). */
static uint32_t colour_code(test_rng *g)
{
	return 0x30000u + test_rnd(g) % 0xE001u;
}

/* Every register word of q a colour (the batch's one-test paths). */
static void colour_quad(test_rng *g, gr3d_quad *q)
{
	for (unsigned p = 0; p < GR3D_PIXELS; p++) {
		gr3d_pixel *px = &q->px[p];
		for (unsigned i = 0; i < GR3D_ROW_REGS; i++) {
			q->r[i][p] = colour_code(g);
			q->view[i][p] = colour_code(g);
		}
		for (unsigned i = 0; i < GR3D_GLOBALS; i++)
			q->g[i][p] = colour_code(g);
		for (unsigned i = 0; i < GR3D_COND_REGS; i++)
			q->cr[i][p] = colour_code(g);
		px->tex_old[0] = colour_code(g);
		px->tex_old[1] = colour_code(g);
	}
}

/* One word of one quad of a colour batch: an odd code (zero, subnormal
 * read, inf, NaN), a normal number outside fp20_far_lanes' range
 * (exponent 1 or 62), or another rig code. */
static void spoil_one(test_rng *g, gr3d_quad *qs, unsigned nq)
{
	gr3d_quad *q = &qs[test_rnd(g) % nq];
	const unsigned p = test_rnd(g) % GR3D_PIXELS, i = test_rnd(g) % GR3D_ROW_REGS;
	const uint32_t v = test_rnd(g);
	const uint32_t w = (v & 3u) == 0 ? (v >> 8) & 0x81FFFu                                  /* exponent 0 */
	                 : (v & 3u) == 1 ? ((v >> 8) & 0x81FFFu) | (((v >> 4) & 1u) ? 62u : 1u) << 13   /* far */
	                 : (v & 3u) == 2 ? ((v >> 8) & 0x81FFFu) | 0x7E000u                       /* inf, NaN */
	                 : alu_rig_code(g);
	if ((v >> 6) & 1u)
		q->r[i][p] = w;
	else
		q->view[i][p] = w;
}

/* colours: every quad's registers colours (colour_quad) and, in one batch
 * of two, one word that is not (spoil_one): the batch's tests for the
 * whole batch (no odd or far lane anywhere) and for a single quad. */
static void check_alu_batches(enum ulp_round fp20, enum ulp_round fx10, bool wrap, bool subnormals,
                              bool batch_view, bool colours)
{
	alu_rig *r = alu_rig_new(ALU_PROG, "batch.asm", (alu_rig_modes){ fp20, fx10, wrap, subnormals, batch_view });
	test_rng g = { 0x9E3779B9u ^ (uint32_t)fp20 << 4 ^ (uint32_t)fx10 << 8 ^ wrap << 12 ^ subnormals << 13 ^
	               colours << 14 };
	static gr3d_quad fast[ALU_BATCH_MAX], ref[ALU_BATCH_MAX];
	unsigned batched = 0;
	for (unsigned round = 0; round < 400; round++) {
		const unsigned nq = 1 + test_rnd(&g) % ALU_BATCH_MAX;
		gr3d_quad *qs[ALU_BATCH_MAX];
		for (unsigned k = 0; k < nq; k++) {
			alu_rig_quad(&g, &ref[k], round * ALU_BATCH_MAX + k);
			if (colours)
				colour_quad(&g, &ref[k]);
		}
		if (colours && (test_rnd(&g) & 1u))
			spoil_one(&g, ref, nq);
		for (unsigned k = 0; k < nq; k++) {
			fast[k] = ref[k];
			qs[k] = &fast[k];
		}
		static alu_lanes l;
		alu_lanes_begin(&l, qs, nq);
		for (unsigned e = 0; e < r->dec.exec_count; e++) {
			for (unsigned k = 0; k < nq; k++)
				r->unit.s.exec(&r->unit.s, &ref[k], e);
			if (alu_batch_exec(&r->unit, &l, e)) {
				batched++;
			} else {                               /* declined: it did nothing */
				alu_lanes_to_quads(&l, ~UINT64_C(0));
				l.in_lanes = 0;
				for (unsigned k = 0; k < nq; k++)
					r->unit.s.exec(&r->unit.s, qs[k], e);
			}
			alu_lanes_to_quads(&l, ~UINT64_C(0));   /* the lanes stay as they are */
			for (unsigned k = 0; k < nq; k++)
				for (unsigned p = 0; p < GR3D_PIXELS; p++)
					if (memcmp(fast[k].r, ref[k].r, sizeof ref[k].r) || memcmp(fast[k].g, ref[k].g, sizeof ref[k].g) ||
					    memcmp(fast[k].cr, ref[k].cr, sizeof ref[k].cr) ||
					    fast[k].px[p].tex_shadow != ref[k].px[p].tex_shadow)
						cr_assert_fail("round %u, EXEC %u, quad %u of %u, pixel %u: registers differ", round, e, k,
						               nq, p);
		}
	}
	cr_assert_gt(batched, 600, "the batch ran %u EXECs", batched);
	free(r);
}

Test(ahead, alu_batch_matches_alu_exec)
{
	check_alu_batches(ULP_ROUND_NEAREST_EVEN, ULP_ROUND_NEAREST_AWAY, false, true, true, false);
	check_alu_batches(ULP_ROUND_NEAREST_EVEN, ULP_ROUND_NEAREST_AWAY, false, false, false, false);
	check_alu_batches(ULP_ROUND_NEAREST_AWAY, ULP_ROUND_TRUNCATE, true, true, true, false);
	check_alu_batches(ULP_ROUND_TRUNCATE, ULP_ROUND_NEAREST_EVEN, false, false, true, false);
}

/* Batches of colours with at most one odd or far word (alu_batch.c's tests
 * for the whole batch: read_fp20_soa, round_soa, enc_soa). */
Test(ahead, alu_batch_colours_match_alu_exec)
{
	check_alu_batches(ULP_ROUND_NEAREST_EVEN, ULP_ROUND_NEAREST_AWAY, false, true, true, true);
	check_alu_batches(ULP_ROUND_NEAREST_EVEN, ULP_ROUND_NEAREST_AWAY, false, false, false, true);
	check_alu_batches(ULP_ROUND_NEAREST_AWAY, ULP_ROUND_TRUNCATE, true, false, true, true);
	check_alu_batches(ULP_ROUND_TRUNCATE, ULP_ROUND_NEAREST_EVEN, false, true, true, true);
}

/* ---- every corpus program, drawn ---- */

typedef struct alike_ctx {
	ulp_image *tex;
	unsigned ahead;               /* draws that took the path */
} alike_ctx;

static void program_alike(void *ctx, const char *path, const tegra_fp_program *fp, const tegra_fp_decoded *dec)
{
	alike_ctx *x = ctx;
	for (unsigned setting = 0; setting < 6; setting++) {
		ulp_config c;
		ulp_config_defaults(&c);
		switch (setting) {
		case 1:
			c.fp20_round = ULP_ROUND_NEAREST_AWAY;
			c.fx10_round = ULP_ROUND_TRUNCATE;
			c.fx10_overflow = FX10_OVERFLOW_WRAP;
			c.tegra_fp20_subnormals = !c.tegra_fp20_subnormals;
			break;
		case 2:
			c.tegra_alu_batch_view = false;
			c.tegra_row_relative = false;
			c.tegra_tex_fp20_coords = false;
			break;
		case 3:
			c.tegra_fifo_quads = 1;    /* batches of one */
			break;
		case 4:
			c.tegra_fifo_quads = 64;   /* the largest batches */
			c.tegra_quad_clocks = 1;
			c.fx10_round = ULP_ROUND_NEAREST_EVEN;
			break;
		case 5:
			c.arith = ULP_ARITH_EXACT;
			break;
		default:
			break;
		}
		c.host_gr3d_ahead = 1;        /* every draw that allows it */
		ulp_config off = c;
		off.host_gr3d_ahead = 0;
		char what[1200];
		snprintf(what, sizeof what, "%s, setting %u", path, setting);
		gr3d_rig_out a, b;
		gr3d_rig_alike(dec, fp->constants, &off, &c, x->tex, what, &a, &b);
		cr_assert(!a.ahead);
		x->ahead += b.ahead;
	}
}

Test(ahead, corpus_programs_alike, .timeout = 300)
{
	alike_ctx x = { .tex = gr3d_rig_texture() };
	const unsigned programs = gr3d_rig_each_program(program_alike, &x);
	ulp_image_free(x.tex);
	fprintf(stderr, "ahead: %u corpus programs, %u draws took the path\n", programs, x.ahead);
	cr_assert_gt(programs, 50);
	cr_assert_gt(x.ahead, 40, "the path ran in %u draws", x.ahead);
}

/* ---- the sample traces: Tegra 2 and 3, threads, timeline, budget ---- */

Test(ahead, samples_alike_on_both_gpus_threads_and_budget, .timeout = 300)
{
	for (size_t s = 0; s < TEST_NSAMPLES; s++) {
		char path[128];
		trace t;
		test_sample_load(&t, TEST_SAMPLES[s], path, sizeof path);
		for (unsigned setting = 0; setting < 5; setting++) {
			ulp_config on;
			test_gpu_setting(&on, setting);
			on.host_gr3d_ahead = 1;
			const bool record = setting == 3;
			const uint64_t budget = setting == 4 ? 3000 : 0;   /* stops inside a draw */
			ulp_config off = on;
			off.host_gr3d_ahead = 0;
			test_run a, b;
			test_replay_run(&t, &off, record, budget, &a);
			test_replay_run(&t, &on, record, budget, &b);
			char what[192];
			snprintf(what, sizeof what, "%s, setting %u", path, setting);
			test_runs_same(&a, &b, what);
			test_run_free(&a);
			test_run_free(&b);
		}
		trace_free(&t);
	}
}

/* The ALU's vector forms on one quad (units/gr3d/alu.c q_slots, the lane
 * helpers of units/gr3d/alu_lanes.h; docs/speed-history.md "Fragments, session
 * 10"): results are the general path's bit for bit.
 *  - fp20_lanes_in, round20_lanes, round_outliers and enc20_lanes against
 *    gr3d_fp20_quad, gr3d_round20_quad and gr3d_enc20_quad: every FP20 code
 *    (signed zeros, subnormal reads, inf, NaN), and binary64 values around
 *    every end of fp20_f64_fast's range, zeros and tiny ones, in every
 *    fp20.round mode, with the 32-bit and the 64-bit range test;
 *  - alu_exec with the vector forms (alu_unit.quad_vectors) against
 *    alu_exec without, on a program with every form, operand kind and
 *    destination, registers holding every kind of FP20 code, partial
 *    quads, TEX's pre-fetch view, under the rounding knobs: registers,
 *    views and counters; the packets of copies and of products run as
 *    kernels (alu_copy.c) among them, checked to be planned so. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "isa/tegra/tegra_asm.h"
#include "tests/test_util.h"
#include "tests/units/alu_rig.h"
#include "units/gr3d/alu_lanes.h"

/* ---- the lane helpers ---- */

static gr3d_ctx ctx_of(ulp_config *cfg, enum ulp_round fp20)
{
	ulp_config_defaults(cfg);
	cfg->fp20_round = fp20;
	return (gr3d_ctx){ .cfg = cfg, .fp20_round = fp20, .fx10_round = ULP_ROUND_NEAREST_AWAY };
}

static void check_values(const gr3d_ctx *c, const double v[GR3D_PIXELS])
{
	for (unsigned wide = 0; wide < 2; wide++) {
		double a[GR3D_PIXELS], b[GR3D_PIXELS];
		memcpy(a, v, sizeof a);
		memcpy(b, v, sizeof b);
		gr3d_round20_quad(c, a);
		round20_lanes(c, b, wide);
		cr_assert(!memcmp(a, b, sizeof a), "round20_lanes (wide %u) of %a %a %a %a", wide, v[0], v[1], v[2], v[3]);
		/* round_outliers: as gr3d_round20 on values FP20 holds (a's) */
		memcpy(b, a, sizeof b);
		round_outliers(c, b, wide);
		cr_assert(!memcmp(a, b, sizeof a), "round_outliers (wide %u) of %a %a %a %a", wide, a[0], a[1], a[2], a[3]);
		uint32_t e0[GR3D_PIXELS], e1[GR3D_PIXELS];
		gr3d_enc20_quad(c, v, e0);
		enc20_lanes(c, v, e1, wide);
		cr_assert(!memcmp(e0, e1, sizeof e0), "enc20_lanes (wide %u) of %a %a %a %a", wide, v[0], v[1], v[2], v[3]);
	}
}

Test(alu_quad, lane_helpers_every_fp20_code)
{
	static const enum ulp_round MODES[] = { ULP_ROUND_NEAREST_EVEN, ULP_ROUND_NEAREST_AWAY, ULP_ROUND_TRUNCATE };
	ulp_config cfg;
	for (unsigned m = 0; m < 3; m++) {
		const gr3d_ctx c = ctx_of(&cfg, MODES[m]);
		/* every code: beside a zero of each sign and 1.0, and beside its
		 * neighbours */
		for (uint32_t code = 0; code <= FP20_MASK; code += 2) {
			const uint32_t raw[GR3D_PIXELS] = { code, code + 1, (code & 1u) ? 0x80000u : 0u, code ^ 0x80000u };
			const uint32_t zeros[GR3D_PIXELS] = { 0x80000u, code, 0u, FP20_ONE };
			for (unsigned sub = 0; sub < 4; sub++) {
				const uint32_t *w = sub & 2u ? zeros : raw;
				double ref[GR3D_PIXELS], got[GR3D_PIXELS];
				gr3d_fp20_quad(sub & 1u, w, ref);
				const unsigned odd = fp20_lanes_in(sub & 1u, w, got);
				unsigned special = 0;
				for (unsigned p = 0; p < GR3D_PIXELS; p++)
					special |= fp20_is_special(w[p]);
				cr_assert(!memcmp(ref, got, sizeof ref) && odd == special, "fp20_lanes_in of %05x (subnormals %u)",
				          code, sub & 1u);
			}
			double v[GR3D_PIXELS];
			gr3d_fp20_quad(true, raw, v);
			check_values(&c, v);
			/* values between codes: the rounding itself */
			for (unsigned p = 0; p < GR3D_PIXELS; p++)
				v[p] = v[p] * (1.0 + 0x1p-14 * (p + 1)) + (p == 3 ? 0x1p-1070 : 0.0);
			check_values(&c, v);
		}
		/* around the ends of fp20_f64_fast's range, zeros and doubles FP20 has no code for */
		test_rng g = { 0x5EED5u + m };
		for (int ex = -1074; ex <= 1023; ex++) {
			double v[GR3D_PIXELS];
			for (unsigned p = 0; p < GR3D_PIXELS; p++) {
				const double f = 1.0 + (double)(test_rnd(&g) & 0xFFFFFu) * 0x1p-20;
				v[p] = ldexp((test_rnd(&g) & 1u) ? -f : f, ex);
			}
			v[test_rnd(&g) & 3u] = (test_rnd(&g) & 1u) ? -0.0 : 0.0;
			check_values(&c, v);
		}
	}
}

/* ---- alu_exec with and without the vector forms ---- */

static const char PROG[] =
	"alu_buffer_size = 2\n.asm\n"
	/* EXECs of one copy packet run as a kernel (alu_copy.c; alu_exec's own path):
	 * first, while the quads hold TEX's pre-fetch view, FX10 reads (no FP20 row read:
	 * the kernel runs with the view) into a global and r1.h (which ends r1's view),
	 * an FX10 write of a negative value (fx10_lanes, not the unit rule), an FP20
	 * write, a NOP; then
	 * FP20 row reads (the kernel declines while a view is held), FP20 and FX10
	 * reads and writes mixed in a slot pair */
	"EXEC\n ALU:\n"
	"  ALU0: MAD g0.l, r0.l, #1, #0 (sat)\n"
	"  ALU1: MAD r1.h, -r1.h, #1, #0\n"
	"  ALU2: MAD g1.lh, abs(r2.h), #1, #0\n"
	"  ALU3: MAD lp.lh, #1, #0, #0\n;\n"
	"EXEC\n ALU:\n"
	"  ALU0: MAD g2.lh, r0, #1, #0\n"
	"  ALU1: MAD g3.l, r1, #1, #0 (sat)\n"
	"  ALU2: MAD g3.h, r3.l, #1, #0 (sat)\n"
	"  ALU3: MAD g4.lh, -r4, #1, #0\n;\n"
	/* a copy packet ending in constants whose writes are discarded (alu_slot.cp_nop,
	 * glmark2 texture's first packet), their aluK values read by the next packet; then
	 * a copy packet with constants written to registers (alu_slot.cp_const: -1 into an
	 * FX10 half, -0 as FP20); globals only, so TEX's pre-fetch view stays for the EXEC
	 * after */
	"EXEC\n ALU:\n"
	"  ALU0: MAD g6.lh, r0, #1, #0\n"
	"  ALU1: MAD g7.l, r1.h, #1, #0 (sat)\n"
	"  ALU2: MAD lp.lh, -#1, #1, #0\n"
	"  ALU3: MAD lp.lh, #1, #0, #0\n"
	" ALU:\n"
	"  ALU0: MAD g4.lh, alu2, alu0, alu3, #1\n"
	"  ALU1: MAD g7.h, alu2, alu1, #0\n"
	"  ALU2: MAD lp.lh, #1, #1, #0\n"
	"  ALU3: MAD g5.lh, abs(r2), #1, #0\n"
	" ALU:\n"
	"  ALU0: MAD g3.l, r2.h, #1, #0\n"
	"  ALU1: MAD g3.h, -#1, #1, #0\n"
	"  ALU2: MAD g2.lh, -r3, #1, #0\n"
	"  ALU3: MUL g1.lh, -#1, #0, #0\n;\n"
	/* packets of copies only (alu.c copy_packet): fs_color's saturated pair, fs_tex's
	 * FX10 read into an FP20 global, a negated copy into one FX10 half; abs, a known
	 * CSEL side, a negated FX10 read saturated; then a packet reading the copies' aluK
	 * values; first, while the quads hold TEX's pre-fetch view of r0, r1 */
	"EXEC\n ALU:\n"
	"  ALU0: MAD r8.l, r0, #1, #0 (sat)\n"
	"  ALU1: MAD r8.h, r1, #1, #0 (sat)\n"
	"  ALU2: MAD g3.lh, r2.l, #1, #0\n"
	"  ALU3: MAD r9.l, -r0, #1, #0\n"
	" ALU:\n"
	"  ALU0: MAD r10.l, abs(r1), #1, #0\n"
	"  ALU1: CSEL r10.h, -#1, -r3, #0 (sat)\n"
	"  ALU2: MAD r11.lh, -r4.h, #1, #0 (sat)\n"
	"  ALU3: MAD g5.lh, r5, #1, #0\n"
	" ALU:\n"
	"  ALU0: MAD r12.lh, alu1, #1, alu3, #1\n"
	"  ALU1: MAD r13.lh, alu0, alu2, #0\n"
	"  ALU2: MAD r14.lh, r0, #1, #0\n"
	"  ALU3: MAD r15.lh, r1, r2, #0\n;\n"
	"EXEC\n ALU:\n"
	"  ALU0: MAD r4.h, r0, #1, #0, #1\n"
	"  ALU1: MAD r5.lh, -r0, r1, #0\n"
	"  ALU2: MAD r6.l, abs(r0), #1, #0 (sat)\n"
	"  ALU3: CSEL r6.h, r1, r0, r2.l\n"
	" ALU:\n"
	"  ALU0: MAD r7.l, alu0, #1, #0\n"
	"  ALU1: MAD r7.h, alu1, r0, #0 (sat)\n"
	"  ALU2: MAD g1.lh, alu2, u1, #0\n"
	"  ALU3: MAD r9.l, r2.h, r3, #0\n"
	" ALU:\n"
	"  ALU0: MAD r10.lh, r0, #1, #0 (x2)\n"
	"  ALU1: MAD r11.lh, r0*2, r1, -r2\n"
	"  ALU2: MAD r12.lh, r0-1, g2, #0\n"
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
	"  ALU2: MAD r6.l, r5.h, r6, #0 (sat)\n"
	"  ALU3: imm0 = 0.7000122\n"
	" ALU:\n"
	"  ALU0: MUL r2.l, g0, r0, #0 (sat)\n"
	"  ALU1: MUL r2.h, g1, r1, #0 (sat)\n"
	"  ALU2: MUL r3.l, g2, r2, #0 (sat)\n"
	"  ALU3: MUL r3.h, g3, r3, #0 (sat)\n;\n"
	/* kernels again, once the views have ended: a pair of FX10 halves across the two
	 * slot pairs, a negated FX10 write; then fs_color's packet, four saturated FP20
	 * copies into two FX10 pairs, r2 and r3 read and written */
	"EXEC\n ALU:\n"
	"  ALU0: MAD r8.lh, r5, #1, #0\n"
	"  ALU1: MAD r9.l, r6, #1, #0 (sat)\n"
	"  ALU2: MAD r9.h, r7.h, #1, #0 (sat)\n"
	"  ALU3: MAD r10.l, -r2, #1, #0\n;\n"
	"EXEC\n ALU:\n"
	"  ALU0: MAD r2.l, r0, #1, #0 (sat)\n"
	"  ALU1: MAD r2.h, r1, #1, #0 (sat)\n"
	"  ALU2: MAD r3.l, r2, #1, #0 (sat)\n"
	"  ALU3: MAD r3.h, r3, #1, #0 (sat)\n;\n"
	/* a packet of products as a kernel (alu_copy_kern.prod; the EXEC before the
	 * kernels above holds fs_tex's, four saturated MULs into two FX10 pairs): an FP20
	 * write no one reads (rounded by the encoder), a scaled MAD with a constant rC*rD
	 * into one FX10 half, negated, abs and minus-one operands, a pair */
	"EXEC\n ALU:\n"
	"  ALU0: MUL g5.lh, -r4, g2, #0\n"
	"  ALU1: MAD r11.l, abs(r1), r6.h, #1, #1 (x2)\n"
	"  ALU2: MUL r12.l, r5, r7, #0 (sat)\n"
	"  ALU3: MUL r12.h, r0-1, r3, #0 (/2)\n;\n";

typedef alu_rig rig;

static rig *rig_new(enum ulp_round fp20, enum ulp_round fx10, bool wrap, bool subnormals, bool batch_view)
{
	return alu_rig_new(PROG, "quad.asm", (alu_rig_modes){ fp20, fx10, wrap, subnormals, batch_view });
}

/* alu_exec with the vector forms (r) against without (ref) on 3 000 quads. */
static void compare_quads(alu_rig *r, alu_rig *ref, enum ulp_round fp20, enum ulp_round fx10, bool wrap,
                          bool subnormals)
{
	ref->unit.quad_vectors = false;
	test_rng g = { 0xA5A5F00Du ^ (uint32_t)fp20 << 4 ^ (uint32_t)fx10 << 8 ^ wrap << 12 ^ subnormals << 13 };
	for (unsigned round = 0; round < 3000; round++) {
		gr3d_quad fast, slow;
		alu_rig_quad(&g, &slow, round);
		fast = slow;
		for (unsigned e = 0; e < r->dec.exec_count; e++) {
			const unsigned c0 = r->unit.s.exec(&r->unit.s, &fast, e);
			const unsigned c1 = ref->unit.s.exec(&ref->unit.s, &slow, e);
			cr_assert_eq(c0, c1);
			for (unsigned p = 0; p < GR3D_PIXELS; p++)
				if (memcmp(fast.r, slow.r, sizeof slow.r) || memcmp(fast.g, slow.g, sizeof slow.g) ||
				    memcmp(fast.cr, slow.cr, sizeof slow.cr) || memcmp(fast.view, slow.view, sizeof slow.view) ||
				    fast.px[p].tex_shadow != slow.px[p].tex_shadow)
					cr_assert_fail("round %u, EXEC %u, pixel %u: registers differ", round, e, p);
		}
	}
	cr_assert(!memcmp(r->unit.s.u.stats.counter, ref->unit.s.u.stats.counter, sizeof(uint64_t) * ALU_CTR_COUNT),
	          "counters differ");
}

static void check_quads(enum ulp_round fp20, enum ulp_round fx10, bool wrap, bool subnormals, bool batch_view)
{
	rig *r = rig_new(fp20, fx10, wrap, subnormals, batch_view);
	rig *ref = rig_new(fp20, fx10, wrap, subnormals, batch_view);
	cr_assert(r->unit.quad_vectors, "the vector forms are on by default");
	const unsigned ne = r->dec.exec_count;   /* the kernels (alu_copy.c) */
	const bool k = r->unit.fx10_lanes;
	cr_assert(r->unit.kexec[0] == k && r->unit.kexec[1] == k && r->unit.kexec[ne - 3] == k &&
	          r->unit.kexec[ne - 2] == k && r->unit.kexec[ne - 1] == k && !r->unit.kexec[2] && !r->unit.kexec[3]);
	cr_assert((r->unit.pk[ne - 4][1].kern != 0) == k && !r->unit.pk[ne - 4][0].kern);   /* fs_tex's MULs */
	cr_assert(!r->unit.pk[2][0].kern && (r->unit.pk[2][2].kern != 0) == k && (r->unit.pk[3][0].kern != 0) == k &&
	          !r->unit.pk[3][1].kern);
	if (k) {
		const alu_copy_kern *k0 = &r->unit.kern[r->unit.pk[0][0].kern - 1];
		const alu_copy_kern *k1 = &r->unit.kern[r->unit.pk[1][0].kern - 1];
		const alu_copy_kern *k2 = &r->unit.kern[r->unit.pk[ne - 3][0].kern - 1];
		const alu_copy_kern *k3 = &r->unit.kern[r->unit.pk[ne - 2][0].kern - 1];
		const alu_copy_kern *k4 = &r->unit.kern[r->unit.pk[ne - 1][0].kern - 1];
		const alu_copy_kern *k5 = &r->unit.kern[r->unit.pk[ne - 4][1].kern - 1];
		cr_assert(k4->prod && k4->nw == 3 && k4->w_pair[2] && !k4->wfx[0] && k4->wfx[4] && k4->wsh[12] == 10);
		cr_assert(k5->prod && k5->nw == 2 && k5->w_pair[0] && k5->w_pair[1]);
		cr_assert(!k0->prod && !k1->prod && !k2->prod && !k3->prod);
		cr_assert(k0->shadow_ok && !k0->unit01 && k0->nw == 3 && k0->rd[0] == 2 && k0->wr[1] == 1);
		cr_assert(!k1->shadow_ok && k1->rd[1] == 3 && k1->wr[0] == 3 && k1->nw == 4);
		cr_assert(!k2->shadow_ok && k2->nw == 3 && k2->w_pair[1] && k2->w_slot[1] == 1);
		cr_assert(k3->unit01 && k3->nw == 2 && k3->rd[0] == 1 && k3->wr[1] == 2);
	}
	const alu_packet *np = r->unit.pk[2];   /* copy_packet with discarded constants */
	cr_assert(np[0].copies == r->unit.fx10_lanes && np[0].copy_vals && np[0].copy_n == 2 &&
	          np[0].slot[2].cp_nop && np[0].slot[3].cp_nop && !np[1].copies);
	cr_assert(np[2].copies == r->unit.fx10_lanes && np[2].copy_n == 4 && np[2].slot[1].cp_const &&
	          np[2].slot[3].cp_const && signbit(np[2].slot[3].xy));
	const alu_packet *cp = r->unit.pk[3];   /* copy_packet's packets, and what it fills */
	cr_assert(cp[0].copies == r->unit.fx10_lanes && cp[1].copies == r->unit.fx10_lanes && !cp[2].copies);
	cr_assert(!cp[0].copy_vals && cp[1].copy_vals && cp[0].copy_view);   /* (fx10 round to even: none) */
	compare_quads(r, ref, fp20, fx10, wrap, subnormals);
	free(r);
	free(ref);
}

Test(alu_quad, vectors_match_alu_slot_result)
{
	check_quads(ULP_ROUND_NEAREST_EVEN, ULP_ROUND_NEAREST_AWAY, false, true, true);
	check_quads(ULP_ROUND_NEAREST_EVEN, ULP_ROUND_NEAREST_AWAY, false, false, false);
	check_quads(ULP_ROUND_NEAREST_AWAY, ULP_ROUND_TRUNCATE, true, true, true);
	check_quads(ULP_ROUND_TRUNCATE, ULP_ROUND_NEAREST_EVEN, false, false, true);
}

/* Kernels while the quads hold TEX's pre-fetch view (alu_copy_kern.shadow_ok,
 * view_rows): a packet of products with an FP20 read of the viewed r0 (the
 * kernel declines, the general path reads the view's words); one with no row
 * read that writes r1 and r2 (it runs and ends the live pixels' views of r1);
 * a copy kernel writing r0 as an FX10 pair (it ends r0's), then FP20 reads of
 * r0 and r1 that no longer see the views. */
static const char PROG_VIEW[] =
	"alu_buffer_size = 2\n.asm\n"
	"EXEC\n ALU:\n"
	"  ALU0: MUL g6.lh, r0, r2, #0\n"
	"  ALU1: MUL g7.l, r2, r3, #0 (sat)\n"
	"  ALU2: MUL g7.h, r3, r4, #0 (sat)\n"
	"  ALU3: MUL g5.lh, g1, g2, #0\n;\n"
	"EXEC\n ALU:\n"
	"  ALU0: MUL r1.lh, g2, g3, #0\n"
	"  ALU1: MUL r2.l, g1, g4, #0 (sat)\n"
	"  ALU2: MUL r2.h, g0, g4, #0 (sat)\n"
	"  ALU3: MUL g4.lh, g3, g3, #0\n;\n"
	"EXEC\n ALU:\n"
	"  ALU0: MAD r0.l, r3.l, #1, #0 (sat)\n"
	"  ALU1: MAD r0.h, r4.h, #1, #0 (sat)\n"
	"  ALU2: MAD g3.lh, r5.l, #1, #0\n"
	"  ALU3: MAD lp.lh, #1, #0, #0\n;\n"
	"EXEC\n ALU:\n"
	"  ALU0: MAD r5.lh, r0, r1, #0\n"
	"  ALU1: MAD g5.lh, r1, r0, r2\n;\n";

static void check_views(enum ulp_round fp20, enum ulp_round fx10, bool wrap, bool subnormals)
{
	alu_rig *r = alu_rig_new(PROG_VIEW, "view.asm", (alu_rig_modes){ fp20, fx10, wrap, subnormals, true });
	alu_rig *ref = alu_rig_new(PROG_VIEW, "view.asm", (alu_rig_modes){ fp20, fx10, wrap, subnormals, true });
	if (r->unit.fx10_lanes) {
		cr_assert(r->unit.kexec[0] && r->unit.kexec[1] && r->unit.kexec[2]);
		const alu_copy_kern *k0 = &r->unit.kern[r->unit.pk[0][0].kern - 1];
		const alu_copy_kern *k1 = &r->unit.kern[r->unit.pk[1][0].kern - 1];
		const alu_copy_kern *k2 = &r->unit.kern[r->unit.pk[2][0].kern - 1];
		cr_assert(k0->prod && !k0->shadow_ok && !k0->view_rows);
		cr_assert(k1->prod && k1->shadow_ok && k1->view_rows == (1u << 1 | 1u << 2));
		cr_assert(!k2->prod && k2->shadow_ok && k2->view_rows == 1u << 0);
	}
	compare_quads(r, ref, fp20, fx10, wrap, subnormals);
	free(r);
	free(ref);
}

Test(alu_quad, kernels_with_views_match)
{
	check_views(ULP_ROUND_NEAREST_EVEN, ULP_ROUND_NEAREST_AWAY, false, true);
	check_views(ULP_ROUND_NEAREST_AWAY, ULP_ROUND_TRUNCATE, true, false);
}

/* The ALU's compiled shortcuts (units/gr3d/alu.c, docs/speed.md):
 * a slot whose result can only be one of its operands skips the FP20
 * rounding of the values FP20 already holds, FX10 halves are encoded in
 * binary32 lanes, and two slots that write the two FX10 halves of one
 * register write it in one pass.  They exist for speed only.  Every FP20
 * code goes through copies, selects, products and the slots that must stay
 * rounded (scale, x2, -1, condition), compiled with and without the shortcuts,
 * under every setting of the knobs they depend on (fp20.round, fx10.round,
 * fx10.overflow, tegra.fp20.read_subnormals); the aluK values and the
 * registers must agree bit for bit, and the FX10 half of a copy must be
 * gr3d_fx10_bits of the rounded operand. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "isa/tegra/tegra_asm.h"
#include "tests/units/alu_rig.h"
#include "units/gr3d/alu_slot.h"

static const char PROG[] =
	"alu_buffer_size = 1\n.asm\nEXEC\n ALU:\n"
	"  ALU0: MAD r4.h, r0, #1, #0, #1\n"          /* fs_vs_tests: an FP20 read into an FX10 half */
	"  ALU1: MAD r5.lh, -r0, #1, #0\n"            /* a negated copy into FP20 */
	"  ALU2: MAD r6.l, abs(r0), #1, #0 (sat)\n"   /* saturated |r0| */
	"  ALU3: CSEL r6.h, r1, r0, r2.l\n"           /* a select of FP20 and FX10 reads; with
	                                                * ALU2 both halves of r6 */
	" ALU:\n"
	"  ALU0: MAD r7.l, alu0, #1, #0\n"            /* aluK copies */
	"  ALU1: MAD r7.h, alu1, r0, #0\n"            /* a product: rounded as before */
	"  ALU2: MAD r8.lh, alu2, #1, #0\n"
	"  ALU3: MAD r9.l, r2.h, #1, #0\n"            /* an FX10 read into an FX10 half */
	" ALU:\n"                                      /* not copies: rounded */
	"  ALU0: MAD r10.lh, r0, #1, #0 (x2)\n"
	"  ALU1: MAD r11.lh, r0*2, #1, #0\n"
	"  ALU2: MAD r12.lh, r0-1, #1, #0\n"
	"  ALU3: MAD r13.lh, r0, #1, #0 (ge)\n"
	" DW: store rt1, r2, r3\n;\n"
	"EXEC\n ALU:\n"                                 /* constants only: formed once per draw */
	"  ALU0: CSEL r14.l, r0, #1, #1\n"               /* both sides the same: rA is not read */
	"  ALU1: MAD r14.h, #1, #1, #1, #1 (x2)\n"
	"  ALU2: CSEL r15.lh, -#1, #0, r0 (ge)\n"        /* a known side, a condition */
	"  ALU3: CSEL r13.l, -#1, -r0, #1\n;\n"           /* a known side: -r0, a copy */
	"EXEC\n ALU:\n"                                 /* copies written from binary32 lanes: */
	"  ALU0: MAD r0.l, r1, #1, #0 (sat)\n"           /* fs_color's saturated pair of FX10 halves */
	"  ALU1: MAD r0.h, r0, #1, #0 (sat)\n"
	"  ALU2: MAD r1.lh, -r2.h, #1, #0\n"             /* fs_tex's FX10 read into FP20 */
	"  ALU3: CSEL r2.h, -#1, -r0, #0 (sat)\n"         /* a saturated copy into one FX10 half
	                                                  * (a -0 stays -0) */
	" ALU:\n"
	"  ALU0: MAD g0.lh, r0, #1, #0 (this)\n"         /* a copy that heads a group: */
	"  ALU1: MAD g1.lh, r0, #1, #0 (other)\n"        /* the group's sum is written */
	"  ALU2: MAD g2.lh, r0, #1, #0\n"
	" ALU:\n"                                         /* saturated products into FX10 halves */
	"  ALU0: MUL r3.l, r0, r1, #0 (sat)\n"
	"  ALU1: MUL r3.h, r2, r1, #0 (sat)(this)\n"     /* the sum of a group: not in [0, 1] */
	"  ALU2: MAD g3.lh, r0, #1, #0\n;\n";

/* The packets the rig runs, in order: EXEC 0's three, then EXEC 1's one and
 * EXEC 2's three. */
enum { NPK = 7 };
static const unsigned PK_EXEC[NPK] = { 0, 0, 0, 1, 2, 2, 2 }, PK_INDEX[NPK] = { 0, 1, 2, 0, 0, 1, 2 };

typedef struct rig {
	alu_rig a;                       /* its unit compiled with the shortcuts (alu_init) */
	alu_packet ref[NPK];             /* and without */
} rig;

static rig *rig_new(enum ulp_round fp20, enum ulp_round fx10, bool wrap, bool subnormals)
{
	rig *r = calloc(1, sizeof *r);
	cr_assert(r);
	alu_rig_setup(&r->a, PROG, "plan.asm", (alu_rig_modes){ fp20, fx10, wrap, subnormals, true });
	r->a.ctx.rows = 1;
	alu_init(&r->a.unit, &r->a.ctx);
	for (unsigned i = 0; i < NPK; i++)
		alu_compile(&r->a.ctx, &r->a.dec.exec[PK_EXEC[i]].alu[PK_INDEX[i]], &r->ref[i], false);
	return r;
}

/* Quad q with pixel p holding code[p] in r0 (and variants in r1, r2). */
static void quad_init(gr3d_quad *q, const uint32_t code[GR3D_PIXELS])
{
	memset(q, 0, sizeof *q);
	for (unsigned p = 0; p < GR3D_PIXELS; p++) {
		q->covered[p] = true;
		q->r[0][p] = code[p];
		q->r[1][p] = code[p] ^ 0x80000u;          /* the other sign: CSEL picks either */
		q->r[2][p] = code[p] * 2654435761u & FP20_MASK;
	}
}

/* Every packet, with and without the shortcuts: the aluK values after each
 * and the registers at the end agree bit for bit. */
static void check_codes(const rig *r, uint32_t stride)
{
	const gr3d_ctx *c = &r->a.ctx;
	for (uint32_t base = 0; base <= FP20_MASK; base += GR3D_PIXELS * stride) {
		uint32_t code[GR3D_PIXELS];
		for (unsigned p = 0; p < GR3D_PIXELS; p++)
			code[p] = (base + p * stride) & FP20_MASK;
		gr3d_quad fast, ref;
		quad_init(&fast, code);
		quad_init(&ref, code);
		double alu_fast[4][GR3D_PIXELS] = { { 0 } }, alu_ref[4][GR3D_PIXELS] = { { 0 } };
		uint64_t kills = 0;
		for (unsigned i = 0; i < NPK; i++) {
			const alu_packet *pk = &r->a.unit.pk[PK_EXEC[i]][PK_INDEX[i]];
			alu_run_packet(&r->a.unit, c, NULL, pk, &fast, alu_fast, &kills, false);
			alu_run_packet(&r->a.unit, c, NULL, &r->ref[i], &ref, alu_ref, &kills, true);
			for (unsigned k = 0; k < 4; k++)   /* an unread slot's value is never read */
				if (!pk->slot[k].unread && memcmp(alu_fast[k], alu_ref[k], sizeof alu_fast[k]) != 0)
					cr_assert_fail("codes 0x%05x..: packet %u's alu%u differs with the shortcuts", code[0], i, k);
		}
		for (unsigned p = 0; p < GR3D_PIXELS; p++) {
			for (unsigned i = 0; i < GR3D_ROW_REGS; i++)
				if (fast.r[i][p] != ref.r[i][p] || (i < GR3D_GLOBALS && fast.g[i][p] != ref.g[i][p]))
					cr_assert_fail("code 0x%05x: registers differ with the shortcuts", code[p]);
			const uint32_t raw = code[p];
			const double v = !(raw & 0x7E000u) && !c->cfg->tegra_fp20_subnormals ? 0.0 : gr3d_fp20(raw);
			const uint32_t want = gr3d_fx10_bits(c->fx10_round, c->fx10_wrap, gr3d_round20(c, v * 1.0 + 0.0));
			if ((fast.r[4][p] >> 10 & FX10_MASK) != want)
				cr_assert_fail("code 0x%05x: FX10 0x%03x, gr3d_fx10_bits says 0x%03x", raw,
				               fast.r[4][p] >> 10 & FX10_MASK, want);
		}
	}
}

/* The shortcuts are planned where they apply (or the test would prove nothing). */
Test(alu_plan, shortcuts_are_taken)
{
	rig *r = rig_new(ULP_ROUND_NEAREST_EVEN, ULP_ROUND_NEAREST_AWAY, false, true);
	const alu_packet *p = r->a.unit.pk[0];
	cr_expect(p[0].slot[0].exact && p[0].slot[1].exact && p[0].slot[2].exact && p[0].slot[3].exact);
	cr_expect(p[1].slot[0].exact && !p[1].slot[1].exact && p[1].slot[2].exact && p[1].slot[3].exact);
	cr_expect(p[0].slot[2].pair_next && !p[0].slot[0].pair_next);   /* r6.l and r6.h */
	/* the last packet's FP20 writes are read by no one; (ge) is a condition */
	cr_expect(p[2].slot[0].unread && p[2].slot[1].unread && p[2].slot[2].unread && !p[2].slot[3].unread);
	cr_expect(!p[0].slot[1].unread && !p[1].slot[1].unread);     /* a copy (exact); an FX10 half */
	cr_expect(p[0].slot[0].reg_copy && p[0].slot[1].reg_copy && p[0].slot[2].reg_copy);   /* saturated too */
	cr_expect(!p[0].slot[3].reg_copy && !p[2].slot[0].reg_copy);
	cr_expect(p[1].slot[3].reg_copy && r->a.unit.pk[1][0].slot[3].reg_copy);
	const alu_packet *w = &r->a.unit.pk[2][0];        /* written from binary32 lanes */
	for (unsigned k = 0; k < 4; k++)
		cr_expect(w->slot[k].reg_copy, "EXEC 2's slot %u is a copy", k);
	cr_expect(w->slot[0].pair_next && w->slot[1].saturate && w->slot[3].saturate);
	cr_expect(w[1].groups && w[1].slot[0].reg_copy && w[1].slot[0].wr == WR_FP20);
	cr_expect(w[2].slot[0].pair_next && w[2].slot[0].unit01 && !w[2].slot[1].unit01 && w[2].slot[1].saturate);
	cr_expect(w->slot[2].wr == WR_FP20 && w->slot[3].wr == WR_FX10 && p[0].slot[0].wr == WR_FX10);
	cr_expect(w->slot[2].wr_off == offsetof(gr3d_quad, r) + sizeof(((gr3d_quad *)0)->r[0]));
	cr_expect(w->slot[2].copy_off == offsetof(gr3d_quad, r) + 2 * sizeof(((gr3d_quad *)0)->r[0]));
	for (unsigned k = 0; k < 4; k++) {
		cr_expect(memcmp(&r->a.unit.pk[1][0].slot[k], &r->ref[3].slot[k], sizeof r->ref[3].slot[k]) != 0,
		          "slot %u of the constant packet is planned as the reference", k);
		cr_expect(!p[2].slot[k].exact);
		for (unsigned i = 0; i < NPK; i++)
			cr_expect(!r->ref[i].slot[k].exact && !r->ref[i].slot[k].pair_next);
	}
	free(r);
}

Test(alu_plan, every_fp20_code_default_knobs)
{
	rig *r = rig_new(ULP_ROUND_NEAREST_EVEN, ULP_ROUND_NEAREST_AWAY, false, true);
	check_codes(r, 1);
	free(r);
}

/* Every other knob setting (the FX10 write falls back to
 * gr3d_fx10_bits_quad for round-to-even): a spread of codes that still
 * covers every exponent. */
Test(alu_plan, other_knobs)
{
	static const enum ulp_round modes[] = { ULP_ROUND_NEAREST_EVEN, ULP_ROUND_TRUNCATE,
	                                        ULP_ROUND_NEAREST_AWAY };
	for (unsigned f = 0; f < 3; f++)
		for (unsigned x = 0; x < 3; x++)
			for (unsigned k = 0; k < 4; k++) {
				rig *r = rig_new(modes[f], modes[x], k & 1u, k >> 1);
				check_codes(r, 61);
				free(r);
			}
}

/* tegra.alu.batch_view, planned per operand (docs/tegra-units.md "Batches"):
 * with 2 rows EXEC 1 (row 1) reads r2 (row 0) through the view that EXEC 0,
 * the batch start, loaded, and its own row's r4 as it is; EXEC 2 starts the
 * next batch and reads everything as it is.  So EXEC 0 copies r2 only. */
Test(alu_plan, batch_view_copies_only_what_is_read)
{
	static const char prog[] =
		"alu_buffer_size = 2\n.asm\n"
		"EXEC\n ALU:\n  ALU0: MAD r2.l, r0, #1, #0\n  ALU1: MAD r4.h, r0, #1, #0\n;\n"
		"EXEC\n ALU:\n  ALU0: MAD r4.l, r2.l, #1, #0\n  ALU1: MAD r5.h, r4.h, #1, #0\n"
		" ALU:\n  ALU0: MAD r6.l, r4.l, #1, #0\n;\n"
		"EXEC\n ALU:\n  ALU0: MAD r0.l, r4.l, #1, #0\n  ALU1: MAD r0.h, r2.l, #1, #0\n"
		" DW: store rt1, r0, r1\n;\n";
	tegra_fp_decoded *dec = calloc(1, sizeof *dec);
	tegra_fp_program *fp = calloc(1, sizeof *fp);
	alu_unit *u = calloc(1, sizeof *u);
	cr_assert(dec && fp && u);
	ulp_diag d;
	ulp_diag_clear(&d);
	cr_assert(tegra_asm_assemble(prog, strlen(prog), "view.asm", fp, &d), "%s", d.msg);
	cr_assert(tegra_fp_decode(fp, dec, "view.asm", &d), "%s", d.msg);
	ulp_config cfg;
	ulp_config_defaults(&cfg);
	gr3d_ctx ctx = { .prog = dec, .cfg = &cfg, .rows = 2, .fp20_round = cfg.fp20_round,
	                 .fx10_round = cfg.fx10_round };
	alu_init(u, &ctx);
	cr_expect_eq(u->view_load[0], 1u << 2, "EXEC 0 copies 0x%x", u->view_load[0]);
	cr_expect_eq(u->view_load[1], 0u);
	cr_expect_eq(u->view_load[2], 0u);
	cr_expect(u->pk[1][0].slot[0].a.view);          /* r2.l: row 0, in EXEC 1 */
	cr_expect(!u->pk[1][0].slot[1].a.view);         /* r4.h: its own row */
	/* the copies read their words there (alu.c copy_reg) */
	cr_expect(u->pk[1][0].slot[0].reg_copy && u->pk[1][0].slot[1].reg_copy);
	cr_expect_eq(u->pk[1][0].slot[0].copy_off, offsetof(gr3d_quad, view) + 2 * sizeof(((gr3d_quad *)0)->view[0]));
	cr_expect_eq(u->pk[1][0].slot[0].a.off, offsetof(gr3d_quad, view) + 2 * sizeof(((gr3d_quad *)0)->view[0]));
	cr_expect_eq(u->pk[1][0].slot[1].copy_off, offsetof(gr3d_quad, r) + 4 * sizeof(((gr3d_quad *)0)->r[0]));
	cr_expect(!u->pk[1][1].slot[0].a.view);         /* r4.l: written by its first packet */
	cr_expect(!u->pk[2][0].slot[0].a.view && !u->pk[2][0].slot[1].a.view);
	cfg.tegra_alu_batch_view = false;              /* the knob off: no view at all */
	alu_init(u, &ctx);
	cr_expect(!u->pk[1][0].slot[0].a.view && u->view_load[0] == 0);
	free(dec);
	free(fp);
	free(u);
}

/* Tegra fragment words: field tables, encode/decode, grate's number
 * conversions, and the assembler quirks of the corpus README with the
 * values it states. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "isa/fp20.h"
#include "isa/tegra/tegra_asm.h"
#include "isa/tegra/tegra_isa.h"
#include "isa/tegra/tegra_prog.h"

/* xorshift64: deterministic pseudo-random words */
static uint64_t next_rand(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

Test(tegra_isa, alu_and_mfu_decode_encode_are_bijective)
{
	uint64_t s = 0x9E3779B97F4A7C15u;
	for (int i = 0; i < 200000; i++) {
		uint64_t w = next_rand(&s);
		tegra_alu_inst a;
		tegra_alu_decode(w, &a);
		cr_assert_eq(tegra_alu_encode(&a), w, "ALU %016llx", (unsigned long long)w);
		tegra_mfu_inst m;
		tegra_mfu_decode((uint32_t)(w >> 32), (uint32_t)w, &m);
		cr_assert_eq(tegra_mfu_encode(&m), w, "MFU %016llx", (unsigned long long)w);
		uint32_t t = (uint32_t)w;
		tegra_tex_inst x;
		tegra_tex_decode(t, &x);
		cr_assert_eq(tegra_tex_encode(&x), t);
		tegra_sched sc = tegra_sched_decode(t & 0xFF);
		cr_assert_eq(tegra_sched_encode(sc), t & 0xFF);
	}
}

Test(tegra_isa, field_tables_cover_each_word_once)
{
	uint64_t used = 0;
	for (int i = 0; i < TEGRA_ALU_NFIELDS; i++) {
		uint64_t m = ((UINT64_C(1) << tegra_alu_fields[i].width) - 1) << tegra_alu_fields[i].lo;
		cr_assert_eq(used & m, 0, "ALU field %s overlaps", tegra_alu_fields[i].name);
		used |= m;
	}
	cr_assert_eq(used, UINT64_MAX);
	used = 0;
	for (int i = 0; i < TEGRA_MFU_NFIELDS; i++) {
		uint64_t m = ((UINT64_C(1) << tegra_mfu_fields[i].width) - 1) << tegra_mfu_fields[i].lo;
		cr_assert_eq(used & m, 0, "MFU field %s overlaps", tegra_mfu_fields[i].name);
		used |= m;
	}
	cr_assert_eq(used, UINT64_MAX);
}

Test(tegra_isa, known_words_decode)
{
	/* canonical NOP: MAD lp.lh, #1, #0, #0 (tegra-fp.md §2.4) */
	tegra_alu_inst a;
	tegra_alu_decode((uint64_t)TEGRA_ALU_NOP_HI << 32 | TEGRA_ALU_NOP_LO, &a);
	cr_assert_eq(a.opcode, TEGRA_ALU_MAD);
	cr_assert_eq(a.dst, TEGRA_REG_NUM_LP);
	cr_assert(a.write_low && a.write_high);
	cr_assert(a.a.fx10 && a.a.high && a.a.cls == TEGRA_REG_CONST01);
	cr_assert(a.b.fx10 && !a.b.high && !a.c.high);
	cr_assert(!a.d.enable);
	/* fs_mfu_tests packet 0 slot 0: MAD r3.lh, r3, #1, r3 = 0001E0C0 3F403000 */
	tegra_alu_decode(0x0001E0C03F403000u, &a);
	cr_assert_eq(a.dst, 3);
	cr_assert_eq(a.a.reg, 3);
	cr_assert_eq(a.b.reg, 31);
	cr_assert(a.b.high);
	cr_assert_eq(a.c.reg, 3);
	/* MFU 104E51BA 00000102: rcp r4, mul0 bar = sfu*bar0, mul1 bar = sfu*bar1,
	 * ipl t0.fp20, t0.fp20, NOP, NOP (cube2_fs, tegra-fp.md §2.5) */
	tegra_mfu_inst m;
	tegra_mfu_decode(0x104E51BA, 0x00000102, &m);
	cr_assert_eq(m.sfu_op, TEGRA_SFU_RCP);
	cr_assert_eq(m.sfu_reg, 4);
	cr_assert_eq(m.mul[0].dst, TEGRA_MUL_DST_BAR);
	cr_assert_eq(m.mul[0].src0, TEGRA_MUL_SRC_SFU);
	cr_assert_eq(m.mul[0].src1, TEGRA_MUL_SRC_BAR0);
	cr_assert_eq(m.mul[1].src1, TEGRA_MUL_SRC_BAR1);
	cr_assert_eq(m.var[0].op, TEGRA_VAR_FP20);
	cr_assert_eq(m.var[1].op, TEGRA_VAR_FP20);
	cr_assert_eq(m.var[2].op, TEGRA_VAR_NOP);
	/* TEX 0x420: tex r2, r3, tex0, r0, r1, r2;  DW 0x28005: store rt1, r2, r3 */
	tegra_tex_inst t;
	tegra_tex_decode(0x420, &t);
	cr_assert(t.enable && t.dst_r2 && !t.src_r2 && !t.bias && t.sampler == 0);
	tegra_dw_inst dw;
	tegra_dw_decode(0x00028005, &dw);
	cr_assert(dw.enable && dw.src_r2 && dw.rt == 1 && dw.upper == 2 && !dw.stencil);
	/* PSEQ 0x0081000A: t30 OP=LD SURF=1 */
	tegra_pseq_inst q;
	tegra_pseq_decode(0x0081000A, &q);
	cr_assert_eq(q.op, 1);
	cr_assert_eq(q.surf, 1);
	cr_assert_eq(q.args, 0x000A);
	/* slot 3 immediates: A = 3E3C0000 -> imm0 = 0.5 = FP20 0x3C000 */
	uint32_t imm[3];
	tegra_alu_imm_get(0x3E3C0000, 0x000FE7E8, imm);
	cr_assert_eq(imm[0], 0x3C000);
}

Test(tegra_isa, register_map)
{
	static const struct { unsigned reg; uint8_t cls, idx; } map[] = {
		{ 0, TEGRA_REG_ROW, 0 }, { 15, TEGRA_REG_ROW, 15 }, { 16, TEGRA_REG_GLOBAL, 0 },
		{ 27, TEGRA_REG_ALU, 3 }, { 30, TEGRA_REG_IMM, 2 }, { 31, TEGRA_REG_CONST01, 0 },
		{ 63, TEGRA_REG_UNIFORM, 31 }, { 71, TEGRA_REG_COND, 7 }, { 72, TEGRA_REG_POSX, 0 },
		{ 74, TEGRA_REG_COVERAGE, 0 }, { 76, TEGRA_REG_KILL, 0 }, { 127, TEGRA_REG_INVALID, 50 },
	};
	for (size_t i = 0; i < sizeof map / sizeof map[0]; i++) {
		uint8_t c, x;
		tegra_reg_classify(map[i].reg, &c, &x);
		cr_assert_eq(c, map[i].cls, "reg %u", map[i].reg);
		cr_assert_eq(x, map[i].idx, "reg %u", map[i].reg);
	}
}

Test(tegra_isa, grate_number_conversions)
{
	cr_assert_eq(tegra_grate_fp20(1.0f), 0x3E000);
	cr_assert_eq(tegra_grate_fp20(0.5f), 0x3C000);
	cr_assert_eq(tegra_grate_fp20(-0.0f), 0);                  /* sign lost */
	cr_assert_eq(tegra_grate_fp20(tegra_grate_atof("0.017")), 0x322D0);
	cr_assert_eq(tegra_grate_fp20(INFINITY), 0x7E000);
	cr_assert_eq(tegra_grate_fx10(-1.0f), 0x300);
	cr_assert_eq(tegra_grate_fx10(-0.25f), 0x3C0);
	cr_assert_eq(tegra_grate_fx10(4.0f), 0);
	cr_assert_eq(tegra_grate_fx10(0.999f), 0xFF);              /* truncates */
	cr_assert_eq(tegra_grate_fx10(NAN), 0);
	cr_assert_float_eq(tegra_grate_fp20_value(0x3C000), 0.5f, 0);
	cr_assert_float_eq(tegra_grate_fp20_value(0), 0x1p-31f, 0); /* no zero */
	cr_assert_float_eq(tegra_grate_fx10_value(0x300), -1.0f, 0);
	cr_assert_float_eq(tegra_grate_fx10_value(0x200), -2.0f, 0);
}

/* Assemble src; return slot words of packet 0 etc. through p. */
static void asm_ok(const char *src, tegra_fp_program *p)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	cr_assert(tegra_asm_assemble(src, strlen(src), "q.asm", p, &d), "%s\n%s", d.msg, src);
}

Test(tegra_isa, quirks_from_the_corpus_readme)
{
	tegra_fp_program *p = malloc(sizeof *p);
	cr_assert_not_null(p);
	/* 0x1p40 check above: exponent 127+40-96 = 71 & 63 = 7 */
	cr_assert_eq(tegra_grate_fp20(0x1p40f), 7u << 13);

	/* 1: explicit NOP vs the reset pattern */
	asm_ok(".asm\nEXEC ALU: ALU1: NOP ;", p);
	cr_assert_eq(p->alu[0][2], 0x000F87C8);
	cr_assert_eq(p->alu[0][3], 0x3E41F200);
	cr_assert_eq(p->alu[0][0], TEGRA_ALU_NOP_HI);
	/* 6: immediates merged into the NOP bits, then swapped (tegra-fp.md §2.4) */
	asm_ok(".asm\nEXEC ALU: ALU3: imm0 = 1.5, imm1.l = -1.0, imm2.h = 0.25 ;", p);
	cr_assert_eq(p->alu[0][6], 0x003F0000);
	cr_assert_eq(p->alu[0][7], 0x100FE7EB);
	/* ... a second immediates line swaps back */
	asm_ok(".asm\nEXEC ALU: ALU3: imm0 = 0.5 ALU3: imm1 = 0.0 ;", p);
	cr_assert_eq(p->alu[0][6], 0x000FE7E8);
	cr_assert_eq(p->alu[0][7], 0x3E3C0000);
	/* raw slot 3 is not swapped */
	asm_ok(".asm\nEXEC ALU: ALU3: 0x11111111, 0x22222222 ;", p);
	cr_assert_eq(p->alu[0][6], 0x11111111);
	cr_assert_eq(p->alu[0][7], 0x22222222);
	/* 4: suffix modifiers OR-ed: (x2)(x4) = (/2), (eq)(gt) = (ge) */
	asm_ok(".asm\nEXEC ALU: ALU0: MAD r0.l, r1, r2, r3 (x2)(x4)(eq)(gt) ;", p);
	tegra_alu_inst a;
	tegra_alu_decode((uint64_t)p->alu[0][0] << 32 | p->alu[0][1], &a);
	cr_assert_eq(a.scale, TEGRA_SCALE_DIV2);
	cr_assert_eq(a.cc, TEGRA_CC_GE);
	/* 10: rD -abs(rC.h)*2-1 = 0x3F; negation/x2 dropped */
	asm_ok(".asm\nEXEC ALU: ALU0: MAD r0.l, r1, r2, r3, -abs(rC.h)*2-1 ;", p);
	cr_assert_eq(p->alu[0][1] & 0x3F, 0x3F);
	/* condition-register destinations: the write bits select the half */
	asm_ok(".asm\nEXEC ALU: ALU0: MAD cr3, r1, r2, r3 ALU1: MAD kill, r1, r2, r3 ;", p);
	tegra_alu_decode((uint64_t)p->alu[0][0] << 32 | p->alu[0][1], &a);
	cr_assert_eq(a.dst, 65);
	cr_assert(a.write_low && a.write_high);
	cr_assert(p->discards_fragment);
	/* 9: sfu register mod 64, dstN mod 8, srcN mod 16 */
	asm_ok(".asm\nEXEC MFU: sfu: rcp r70 mul0: dst9, src20, #1 ;", p);
	tegra_mfu_inst m;
	tegra_mfu_decode(p->mfu[0][0], p->mfu[0][1], &m);
	cr_assert_eq(m.sfu_reg, 6);
	cr_assert_eq(m.mul[0].dst, TEGRA_MUL_DST_BAR);
	cr_assert_eq(m.mul[0].src0, 4);
	cr_assert_eq(m.mul[0].src1, TEGRA_MUL_SRC_ONE);
	/* 11: u42 is register 74 */
	asm_ok(".asm\nEXEC ALU: ALU0: MAD r0.l, u42, r2, r3 ;", p);
	tegra_alu_decode((uint64_t)p->alu[0][0] << 32 | p->alu[0][1], &a);
	cr_assert_eq(a.a.reg, TEGRA_REG_NUM_COVERAGE);
	/* 14: .constants hex unmasked (32 bits), halves masked to 10 bits */
	asm_ok(".constants [0] = 0x123456789; [1].h = 0x7ff; [1].l = -1.0;\n.asm\nEXEC ;", p);
	cr_assert_eq(p->constants[0], 0x23456789);
	cr_assert_eq(p->constants[1], 0xFFC00 | 0x300);
	/* 15: greedy strings */
	asm_ok(".uniforms [1].l = \"a\"; [1].h = \"b\";\n.asm\nEXEC ;", p);
	cr_assert_str_eq(p->uniforms[2].name, "a\"; [1].h = \"b");
	cr_assert(!p->uniforms[3].used);
	/* 8: empty units give schedule word 0; MFU: NOP / bare ALU: still count */
	asm_ok(".asm\nEXEC MFU: NOP ; EXEC ; EXEC ALU: ALU: ;", p);
	cr_assert_eq(p->mfu_count, 1);
	cr_assert_eq(p->mfu_sched[0], 1);
	cr_assert_eq(p->mfu_sched[1], 0);
	cr_assert_eq(p->alu_sched[2], 0x02);
	cr_assert_eq(p->alu_packet_count, 2);
	/* 16: alu_buffer_size = 0 accepted; 18: order free, sections repeat */
	asm_ok(".asm\nEXEC ; alu_buffer_size = 0 .asm EXEC DW: store stencil ;", p);
	cr_assert_eq(p->alu_buffer_size, 0);
	cr_assert_eq(p->exec_count, 2);
	cr_assert_eq(p->dw[1], 0x00020409);
	uint32_t e20;
	cr_assert(!tegra_fp_reg_0e20(p, &e20));
	/* 5: a duplicate slot line: the last one wins */
	asm_ok(".asm\nEXEC ALU: ALU1: MAD r0.l, r1, r2, r3 ALU1: NOP ;", p);
	cr_assert_eq(p->alu[0][2], 0x000F87C8);
	/* case-insensitive keywords; no word boundaries ("MADr0") */
	asm_ok(".ASM\nexec alu: alu0: MADr0.L, R1, R2, R3 ;", p);
	tegra_alu_decode((uint64_t)p->alu[0][0] << 32 | p->alu[0][1], &a);
	cr_assert_eq(a.dst, 0);
	cr_assert(a.write_low && !a.write_high);
	free(p);
}

Test(tegra_isa, upload_order)
{
	tegra_fp_program *p = malloc(sizeof *p);
	cr_assert_not_null(p);
	asm_ok(".asm\nEXEC MFU: NOP ALU: ; EXEC ;", p);
	cr_assert_eq(tegra_fp_word_count(p), 6 * 2 + 2 * 1 + 8 * 1);
	static const char *const labels[] = {
		"PSEQ", "PSEQ", "MFU_SCHED", "MFU_SCHED", "MFU_HI", "MFU_LO", "TEX", "TEX",
		"ALU_SCHED", "ALU_SCHED", "ALU0_HI", "ALU0_LO", "ALU1_HI", "ALU1_LO", "ALU2_HI",
		"ALU2_LO", "ALU3_HI", "ALU3_LO", "ALU_COMPLEMENT", "ALU_COMPLEMENT", "DW", "DW",
	};
	for (size_t i = 0; i < sizeof labels / sizeof labels[0]; i++)
		cr_assert_str_eq(tegra_fp_upload_at(p, i).label, labels[i], "word %zu", i);
	cr_assert_eq(tegra_fp_upload_at(p, 10).reg, 0x804);
	cr_assert_eq(tegra_fp_reg_0520(p), 0x20006002);
	uint32_t e20;
	cr_assert(tegra_fp_reg_0e20(p, &e20));
	cr_assert_eq(e20, 0x4A000000);
	free(p);
}

/* grate's FP20 encoder is isa/fp20.h's truncating encoder inside the normal
 * range; it only differs where the exponent wraps (why it is local). */
Test(tegra_isa, grate_fp20_matches_fp20_truncate_in_range)
{
	uint64_t s = 0x1234567887654321u;
	int checked = 0;
	for (int i = 0; i < 100000; i++) {
		uint32_t u = (uint32_t)next_rand(&s);
		float f;
		memcpy(&f, &u, sizeof f);
		if (!isfinite(f) || f == 0.0f || fabsf(f) < 0x1p-30f || fabsf(f) >= 0x1p32f)
			continue;
		cr_assert_eq(tegra_grate_fp20(f), fp20_encode(f, ULP_ROUND_TRUNCATE), "%a", (double)f);
		checked++;
	}
	cr_assert_gt(checked, 1000);
	/* out of range: grate wraps, fp20.h saturates to inf */
	cr_assert_neq(tegra_grate_fp20(0x1p40f), fp20_encode(0x1p40f, ULP_ROUND_TRUNCATE));
}

/* One table per word kind drives the encoder and the decoder: decode then
 * encode gives the word back for every table, over random words. */
Test(tegra_isa, every_field_table_round_trips)
{
	uint64_t s = 0x2545F4914F6CDD1Du;
	for (int i = 0; i < 100000; i++) {
		uint64_t w = next_rand(&s);
		uint32_t lo = (uint32_t)w;
		tegra_dw_inst dw;
		tegra_dw_decode(lo, &dw);
		cr_assert_eq(tegra_dw_encode(&dw), lo, "DW %08x", lo);
		tegra_alu_src src;
		tegra_alu_src_decode(lo & 0x1FFF, &src);
		cr_assert_eq(tegra_alu_src_encode(&src), lo & 0x1FFF);
		tegra_alu_rd rd;
		tegra_alu_rd_decode(lo & 0x3F, &rd);
		cr_assert_eq(tegra_alu_rd_encode(&rd), lo & 0x3F);
		/* the generic walk sees the same members as the named decoders */
		tegra_tex_inst t, g;
		tegra_tex_decode(lo, &t);
		memset(&g, 0, sizeof g);
		tegra_fields_decode(tegra_tex_fields, TEGRA_TEX_NFIELDS, lo, &g);
		cr_assert(g.sampler == t.sampler && g.enable == t.enable && g.bias == t.bias &&
		          g.user_lod == t.user_lod && g.color_key == t.color_key);
		tegra_pseq_inst q;
		tegra_pseq_decode(lo, &q);
		cr_assert_eq(q.args, lo & 0xFFFF);
		cr_assert_eq(q.op, lo >> 23 & 3);
	}
	/* changing one member changes exactly its bits */
	tegra_alu_inst a;
	tegra_alu_decode(0, &a);
	a.c.neg = true;
	cr_assert_eq(tegra_alu_encode(&a), UINT64_C(1) << (6 + 1));
	tegra_mfu_inst m;
	tegra_mfu_decode(0, 0, &m);
	m.var[2].tram_row = 5;
	m.mul[1].src0 = 3;
	cr_assert_eq(tegra_mfu_encode(&m), UINT64_C(5) << (14 + 3) | UINT64_C(3) << 43);
}

/* The known-bit mask of each table is the OR of the fields grate encodes
 * and decodes (role GRATE), those fields never overlap, and the decoders'
 * `unknown` is the word outside it. */
Test(tegra_isa, known_masks_come_from_the_tables)
{
	const struct { const tegra_field *tab; unsigned n; uint64_t known; const char *name; } t[] = {
		{ tegra_alu_fields, TEGRA_ALU_NFIELDS, UINT64_MAX, "ALU" },
		{ tegra_src_fields, TEGRA_SRC_NFIELDS, 0x1FFF, "ALU source" },
		{ tegra_rd_fields, TEGRA_RD_NFIELDS, 0x3F, "ALU rD" },
		{ tegra_mfu_fields, TEGRA_MFU_NFIELDS, UINT64_MAX, "MFU" },
		{ tegra_var_fields, TEGRA_VAR_NFIELDS, 0x7F, "MFU var" },
		{ tegra_sched_fields, TEGRA_SCHED_NFIELDS, 0xFF, "schedule" },
		/* tegra-fp.md §2.4: sampler 0..3, src 4, dst 5, enable 10, bias 12 */
		{ tegra_tex_fields, TEGRA_TEX_NFIELDS, 0x143F, "TEX" },
		/* enable 0, target 2..5, stencil 10, src 15, 16..31 */
		{ tegra_dw_fields, TEGRA_DW_NFIELDS, 0xFFFF843Du, "DW" },
		{ tegra_pseq_fields, TEGRA_PSEQ_NFIELDS, 0, "PSEQ" },
	};
	for (size_t k = 0; k < sizeof t / sizeof t[0]; k++) {
		uint64_t or = 0;
		for (unsigned i = 0; i < t[k].n; i++) {
			if (t[k].tab[i].role != TEGRA_FR_GRATE)
				continue;
			uint64_t m = tegra_field_mask(&t[k].tab[i]);
			cr_assert_eq(or & m, 0, "%s field %s overlaps", t[k].name, t[k].tab[i].name);
			or |= m;
		}
		cr_assert_eq(tegra_fields_known(t[k].tab, t[k].n), or, "%s", t[k].name);
		cr_assert_eq(or, t[k].known, "%s known mask 0x%llx", t[k].name, (unsigned long long)or);
	}
	/* sampler 8 (bit 3) is a known bit: the decoder and the disassembler agree */
	tegra_tex_inst x;
	tegra_tex_decode(0x408, &x);
	cr_assert_eq(x.sampler, 8);
	cr_assert_eq(x.unknown, 0u);
	tegra_tex_decode(0x40000448, &x);
	cr_assert_eq(x.unknown, 0x40000040u);
	tegra_dw_inst d;
	tegra_dw_decode(0x00028005 | 1u << 6, &d);
	cr_assert_eq(d.unknown, 1u << 6);
	cr_assert(d.write_killed);
	cr_assert_eq(d.args, (0x00028045u >> 10) & 0xFFFF);
}

/* TGSI -> Tegra GR3D fragment compiler: the slot packing and EXEC limits
 * of every compiled program, refusals with their line, and the CLI
 * (tests/frontends/test_compile_tegra.c: the differential tests). */
#include <criterion/criterion.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fileio.h"
#include "base/image.h"
#include "frontends/tegra/tegra_compile.h"
#include "frontends/tgsi/tgsi_exec.h"
#include "isa/fp20.h"
#include "isa/fx10.h"
#include "isa/tegra/fp_container.h"
#include "isa/tegra/tegra_prog.h"
#include "sim/core/config.h"
#include "tests/test_util.h"
#include "units/gpu.h"
#include "units/gr3d/gr3d_fp.h"

/* an immediate's FP20 as the backend encodes it: truncation, as the
 * driver's uniform uploads (tfp_imm_bits) */
static float fp20_val(float v) { return fp20_decode(fp20_encode(v, ULP_ROUND_TRUNCATE)); }

static tegra_compile_result compile_ok(const char *text, tegra_fp_decoded *dec)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	tgsi_shader *sh = tgsi_parse(text, strlen(text), "t.tgsi", NULL, &d);
	cr_assert(sh, "%s", d.msg);
	tegra_compile_result r;
	cr_assert(tegra_compile(sh, "t.tgsi", &r), "%s", r.d.msg);
	tgsi_shader_free(sh);
	cr_assert(tegra_fp_decode(&r.prog, dec, "t.tgsi", &d), "%s\n%s", d.msg, r.asm_text);
	return r;
}

/* The limits of one EXEC (tegra-fp.md §2.2) on a decoded program. */
static void check_exec_limits(const tegra_fp_decoded *dec)
{
	cr_assert_leq(dec->exec_count, 63);   /* FP_PSEQ_ENGINE_INST's EXEC_COUNT: 6 bits */
	unsigned dws = 0, packets = 0, mfus = 0;
	for (unsigned e = 0; e < dec->exec_count; e++) {
		const tegra_exec *x = &dec->exec[e];
		cr_assert_leq(x->mfu_sched.count, 3);
		cr_assert_leq(x->alu_sched.count, 3);
		packets += x->alu_sched.count;
		mfus += x->mfu_sched.count;
		dws += x->dw.enable;
		if (x->dw.enable)   /* the colour leaves from r2, r3 of the row as FX10 bytes to rt1 */
			cr_assert(x->dw.rt == 1 && x->dw.src_r2);
	}
	cr_assert_leq(packets, 64);
	cr_assert_leq(mfus, 64);
	cr_assert_leq(dws, 1);
}

Test(compile_tegra, slots_pack_into_packets_and_execs)
{
	tegra_fp_decoded *dec = malloc(sizeof *dec);
	cr_assert(dec);
	/* MOV OUT, IN: one EXEC: set-up + 4 interpolations in one MFU
	 * instruction, the 4 FX10 colour writes reading the row registers the
	 * interpolation wrote (one packet, as grate's hand-written programs:
	 * the copies out of the row fold into the pack, docs/calibration.md), DW */
	tegra_compile_result r = compile_ok("FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\n"
	                                    "MOV OUT[0], IN[0]\nEND\n", dec);
	cr_assert_eq(r.execs, 1, "%s", r.asm_text);
	cr_assert_eq(r.mfu_insts, 1);
	cr_assert_eq(r.alu_packets, 1, "%s", r.asm_text);
	cr_assert_eq(dec->exec[0].mfu[0].sfu_op, TEGRA_SFU_RCP);   /* rcp r4: the perspective set-up */
	cr_assert_eq(dec->exec[0].mfu[0].sfu_reg, 4);
	for (unsigned c = 0; c < 4; c++)
		cr_assert_eq(dec->exec[0].mfu[0].var[c].op, TEGRA_VAR_FP20);
	cr_assert(dec->exec[0].dw.enable);
	cr_assert_eq(dec->exec[0].dw.rt, 1);
	for (unsigned k = 0; k < 4; k++) {   /* the colour: FX10 halves, saturated */
		const tegra_alu_inst *s = &dec->exec[0].alu[0].slot[k];
		cr_assert(s->saturate);
		cr_assert_eq(s->dst_index, 2 + k / 2);
		cr_assert_eq(s->write_high, (k & 1) != 0);
		cr_assert_eq(s->write_low, (k & 1) == 0);
	}
	check_exec_limits(dec);
	tegra_compile_result_free(&r);

	/* 12 independent products of uniforms: 3 full packets of 4 in one EXEC */
	r = compile_ok("FRAG\nDCL OUT[0], COLOR\nDCL CONST[0][0..5]\nDCL TEMP[0..2]\n"
	               "MUL TEMP[0], CONST[0][0], CONST[0][1]\nMUL TEMP[1], CONST[0][2], CONST[0][3]\n"
	               "MUL TEMP[2], CONST[0][4], CONST[0][5]\nADD TEMP[0], TEMP[0], TEMP[1]\n"
	               "ADD OUT[0], TEMP[0], TEMP[2]\nEND\n", dec);
	cr_assert_eq(dec->exec[0].alu_sched.count, 3, "%s", r.asm_text);
	for (unsigned p = 0; p < 3; p++)
		for (unsigned k = 0; k < 4; k++)
			cr_assert_eq(dec->exec[0].alu[p].slot[k].add_disable, true, "packet %u slot %u\n%s", p, k,
			             r.asm_text);
	/* 2 ADD levels; the second writes the colour halves itself (the store's
	 * saturated copies fuse into it, tfp_fuse_store) */
	cr_assert_eq(r.execs, 2, "%s", r.asm_text);
	cr_assert_eq(dec->exec[1].alu_sched.count, 2, "%s", r.asm_text);
	for (unsigned k = 0; k < 4; k++) {
		const tegra_alu_inst *s = &dec->exec[1].alu[1].slot[k];
		cr_assert(s->saturate && !s->add_disable, "slot %u\n%s", k, r.asm_text);
		cr_assert_eq(s->dst_index, 2 + k / 2, "%s", r.asm_text);
	}
	check_exec_limits(dec);
	tegra_compile_result_free(&r);

	/* embedded constants: a packet reading imm0..imm2 keeps 3 instructions
	 * (nothing else is ready for it: the next packet reads its results) */
	r = compile_ok("FRAG\nDCL OUT[0], COLOR\nDCL CONST[0][0]\nDCL TEMP[0]\nIMM[0] FLT32 {0.3, 0.7, -0.6, 0.5}\n"
	               "MUL TEMP[0].xyz, CONST[0][0], IMM[0]\nMUL OUT[0], TEMP[0].xyzx, TEMP[0].yzxy\nEND\n", dec);
	unsigned imms = 0;
	for (unsigned p = 0; p < dec->exec[0].alu_sched.count; p++) {
		const tegra_alu_packet *pk = &dec->exec[0].alu[p];
		if (!pk->slot3_is_imm)
			continue;
		for (unsigned i = 0; i < 3; i++) {
			float v = fp20_decode(pk->imm[i]);
			if (v == fp20_val(0.3f) || v == fp20_val(0.7f) || v == fp20_val(-0.6f))
				imms++;
		}
	}
	cr_assert_eq(imms, 3, "%s", r.asm_text);
	tegra_compile_result_free(&r);

	/* four distinct constants and four slots: the packet would stop at 3
	 * with them embedded, so they move to the FP_CONST words past the
	 * declared CONST[0][0] (u4..u7, the program's .constants) and the four
	 * MULs share one packet, writing the colour's halves themselves */
	r = compile_ok("FRAG\nDCL OUT[0], COLOR\nDCL CONST[0][0]\nIMM[0] FLT32 {0.3, 0.7, -0.6, 1.7}\n"
	               "MUL OUT[0], CONST[0][0], IMM[0]\nEND\n", dec);
	cr_assert_eq(r.alu_packets, 1, "%s", r.asm_text);
	cr_assert_eq(r.alu_slots, 4, "%s", r.asm_text);
	cr_assert(!dec->exec[0].alu[0].slot3_is_imm, "%s", r.asm_text);
	const float want[4] = { 0.3f, 0.7f, -0.6f, 1.7f };
	for (unsigned k = 0; k < 4; k++) {
		cr_assert_eq(r.uniform_src[k], (int16_t)k, "CONST[0][0] stays at u0..u3\n%s", r.asm_text);
		cr_assert_eq(r.uniform_src[4 + k], -1, "u%u is the program's own constant\n%s", 4 + k, r.asm_text);
		cr_assert_eq(fp20_decode(dec->constants[4 + k]), fp20_val(want[k]), "u%u\n%s", 4 + k, r.asm_text);
	}
	check_exec_limits(dec);
	tegra_compile_result_free(&r);

	/* SFU: copied into a row register in the EXEC before, RCP in place;
	 * SIN: PRESIN one EXEC before SIN on the same register */
	r = compile_ok("FRAG\nDCL OUT[0], COLOR\nDCL CONST[0][0]\nDCL TEMP[0]\n"
	               "RCP TEMP[0].x, CONST[0][0].xxxx\nSIN TEMP[0].y, CONST[0][0].yyyy\n"
	               "MOV OUT[0], TEMP[0].xyxy\nEND\n", dec);
	int rcp = -1, sin = -1, presin = -1, sin_reg = -1, presin_reg = -1;
	for (unsigned e = 0; e < dec->exec_count; e++)
		for (unsigned m = 0; m < dec->exec[e].mfu_sched.count; m++) {
			const tegra_mfu_inst *mi = &dec->exec[e].mfu[m];
			if (mi->sfu_op == TEGRA_SFU_RCP)
				rcp = (int)e;
			if (mi->sfu_op == TEGRA_SFU_SIN)
				sin = (int)e, sin_reg = mi->sfu_reg;
			if (mi->sfu_op == TEGRA_SFU_PRESIN)
				presin = (int)e, presin_reg = mi->sfu_reg;
		}
	cr_assert_geq(rcp, 1, "%s", r.asm_text);
	cr_assert_eq(presin + 1, sin, "%s", r.asm_text);
	cr_assert_eq(presin_reg, sin_reg);
	check_exec_limits(dec);
	tegra_compile_result_free(&r);
	free(dec);
}

/* The rules that make programs as short as the ISA allows
 * (docs/compiler.md "Schedule and registers"): results read in place in
 * the row registers, operands written straight into them, the colour store
 * fused with the last operation. */
Test(compile_tegra, programs_are_as_short_as_the_row_registers_allow)
{
	tegra_fp_decoded *dec = malloc(sizeof *dec);
	cr_assert(dec);
	/* Mesa's fs_tex (../shared/perf): the coordinates are interpolated into
	 * r0, r1 and fetched there in the same EXEC; the texel goes to g0..g3 (one
	 * packet: r2, r3 are the colour's next); the colour interpolated into
	 * r0..r3 is read in place by the MULs, which write the FX10 halves */
	tegra_compile_result r =
	    compile_ok("FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL IN[1].xy, GENERIC[1], PERSPECTIVE\n"
	               "DCL OUT[0], COLOR\nDCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT\nDCL TEMP[0]\n"
	               "TEX TEMP[0], IN[1].xyyy, SAMP[0], 2D\nMUL OUT[0], TEMP[0], IN[0]\nEND\n", dec);
	cr_assert_eq(r.execs, 2, "%s", r.asm_text);
	cr_assert_eq(r.alu_packets, 2, "%s", r.asm_text);
	cr_assert(dec->exec[0].tex.enable && !dec->exec[0].tex.src_r2, "%s", r.asm_text);
	cr_assert_eq(dec->exec[0].mfu[0].var[0].op, TEGRA_VAR_FP20);   /* S, T interpolated where TEX reads them */
	cr_assert_eq(dec->exec[0].mfu[0].var[1].op, TEGRA_VAR_FP20);
	cr_assert_eq(dec->exec[1].alu_sched.count, 1, "%s", r.asm_text);
	for (unsigned k = 0; k < 4; k++) {
		const tegra_alu_inst *s = &dec->exec[1].alu[0].slot[k];
		cr_assert(s->add_disable && s->saturate, "slot %u: the MUL writes the colour\n%s", k, r.asm_text);
		cr_assert_eq(s->dst_index, 2 + k / 2, "%s", r.asm_text);
		cr_assert_eq(s->b.index, k, "slot %u reads the interpolated r%u in place\n%s", k, k, r.asm_text);
	}
	check_exec_limits(dec);
	tegra_compile_result_free(&r);

	/* a chain of 24 dependent vec4 MADs (calibration alu_long): one packet
	 * each, no copy of the interpolated colour, the last MAD writes the colour */
	char text[2048];
	int n = snprintf(text, sizeof text, "FRAG\nDCL IN[0], COLOR, COLOR\nDCL OUT[0], COLOR\nDCL TEMP[0]\n"
	                 "IMM[0] FLT32 {0.5, 0.5, 0.5, 0.5}\nIMM[1] FLT32 {0.25, 0.25, 0.25, 0.25}\n"
	                 "MOV TEMP[0], IN[0]\n");
	for (unsigned i = 0; i < 24; i++)
		n += snprintf(text + n, sizeof text - (size_t)n, "MAD TEMP[0], TEMP[0], IMM[0], IMM[1]\n");
	snprintf(text + n, sizeof text - (size_t)n, "MOV OUT[0], TEMP[0]\nEND\n");
	r = compile_ok(text, dec);
	cr_assert_eq(r.alu_packets, 24, "%s", r.asm_text);
	cr_assert_eq(r.execs, 8, "%s", r.asm_text);
	check_exec_limits(dec);
	tegra_compile_result_free(&r);

	/* an SFU operand computed by the ALU is written into the row register
	 * the RCP reads (no copy in), and the RCP's result is read there */
	r = compile_ok("FRAG\nDCL IN[0].xy, GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL TEMP[0]\n"
	               "MUL TEMP[0].x, IN[0].xxxx, IN[0].yyyy\nRCP TEMP[0].x, TEMP[0].xxxx\n"
	               "MOV OUT[0], TEMP[0].xxxx\nEND\n", dec);
	cr_assert_eq(r.alu_slots, 5, "one MUL into the row, four colour writes\n%s", r.asm_text);
	cr_assert_eq(r.execs, 2, "%s", r.asm_text);
	const tegra_alu_inst *mul = &dec->exec[0].alu[0].slot[0];
	cr_assert_eq(mul->dst_index, dec->exec[1].mfu[0].sfu_reg, "the MUL writes the RCP's register\n%s",
	             r.asm_text);
	for (unsigned k = 0; k < 4; k++)
		cr_assert_eq(dec->exec[1].alu[0].slot[k].a.index, dec->exec[1].mfu[0].sfu_reg, "%s", r.asm_text);
	check_exec_limits(dec);
	tegra_compile_result_free(&r);
	free(dec);
}

Test(compile_tegra, every_corpus_program_keeps_the_exec_limits, .timeout = 120)
{
	static const char *const sets[] = { "tgsi-noint", "tgsi" };
	tegra_fp_decoded *dec = malloc(sizeof *dec);
	cr_assert(dec);
	unsigned checked = 0;
	for (unsigned k = 0; k < 2; k++) {
		char *dir = test_corpus_path(sets[k]);
		DIR *dp = opendir(dir);
		cr_assert(dp);
		struct dirent *de;
		while ((de = readdir(dp))) {
			char path[1024];
			snprintf(path, sizeof path, "%s/%s/fs.tgsi", dir, de->d_name);
			ulp_diag d;
			ulp_diag_clear(&d);
			size_t len;
			char *text = de->d_name[0] != '.' ? ulp_read_file(path, &len, &d) : NULL;
			if (!text)
				continue;
			tgsi_shader *sh = tgsi_parse(text, len, path, NULL, &d);
			free(text);
			cr_assert(sh);
			tegra_compile_result r;
			if (tegra_compile(sh, path, &r)) {
				cr_assert(tegra_fp_decode(&r.prog, dec, path, &d), "%s", d.msg);
				check_exec_limits(dec);
				cr_assert_leq(r.alu_packets, 64);
				cr_assert_leq(r.mfu_insts, 64);
				cr_assert(r.rows >= 1 && r.rows <= 4);
				checked++;
			} else {
				cr_assert(r.d.set && r.d.line > 0, "%s: refusal without a position", path);
			}
			tegra_compile_result_free(&r);
			tgsi_shader_free(sh);
		}
		closedir(dp);
		free(dir);
	}
	free(dec);
	cr_assert_gt(checked, 200);
}

/* ---- refusals ---- */

#define LOOP40 "FRAG\nDCL OUT[0], COLOR\nDCL TEMP[0]\nIMM[0] FLT32 {0x3f800000, 0x42200000, 0x00000000, 0x00000000}\n" \
	"BGNLOOP\nSGE TEMP[0].y, TEMP[0].xxxx, IMM[0].yyyy\nIF TEMP[0].yyyy\nBRK\nENDIF\n" \
	"ADD TEMP[0].x, TEMP[0].xxxx, IMM[0].xxxx\nMUL TEMP[0].z, TEMP[0].zzzz, TEMP[0].xxxx\nENDLOOP\n" \
	"MOV OUT[0], TEMP[0]\nEND\n"

Test(compile_tegra, what_the_fragment_unit_cannot_do_is_refused_with_its_line)
{
	static const struct { const char *text; enum ir_refusal why; const char *what; } C[] = {
		{ "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\nMOV OUT[0], IN[0]\nEND\n", IR_REFUSE_STAGE, "fragment" },
		{ "FRAG\nDCL OUT[0], COLOR\nDCL CONST[0][0..8]\nDCL TEMP[0]\nADD TEMP[0], CONST[0][0], CONST[0][1]\n"
		  "ADD TEMP[0], TEMP[0], CONST[0][2]\nADD TEMP[0], TEMP[0], CONST[0][3]\nADD TEMP[0], TEMP[0], CONST[0][4]\n"
		  "ADD TEMP[0], TEMP[0], CONST[0][5]\nADD TEMP[0], TEMP[0], CONST[0][6]\nADD TEMP[0], TEMP[0], CONST[0][7]\n"
		  "ADD OUT[0], TEMP[0], CONST[0][8]\nEND\n", IR_REFUSE_CONSTANTS,
		  "t.tgsi:12:1: ADD: the CONST[0] components the program reads need 36 FP_CONST slots" },
		/* piglit's fs-vec4-const-array-indirect-access-008-elements as Debian's Mesa gives it:
		 * an index and an indirect read of 8 vec4 (Mesa's const array in CONST[0]) */
		{ "FRAG\nDCL OUT[0], COLOR\nDCL CONST[0][0..8]\nDCL ADDR[0]\nARL ADDR[0].x, CONST[0][0].xxxx\n"
		  "MOV OUT[0], CONST[0][ADDR[0].x+1]\nEND\n", IR_REFUSE_CONSTANTS,
		  "t.tgsi:6:1: MOV: the CONST[0] components the program reads need 33 FP_CONST slots (1 read "
		  "directly, 32 held for indirect reads" },
		{ "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nAND OUT[0], IN[0], IN[0]\nEND\n",
		  IR_REFUSE_INTEGER, "t.tgsi:4:1: AND" },
		{ "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDADD OUT[0], IN[0], IN[0]\nEND\n",
		  IR_REFUSE_DOUBLE, "t.tgsi:4:1" },
		{ "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL SAMP[0]\n"
		  "DCL SVIEW[0], SHADOWCUBE, FLOAT\nTEX OUT[0], IN[0], SAMP[0], SHADOWCUBE\nEND\n",
		  IR_REFUSE_TEXTURE, "t.tgsi:6:1: TEX" },
		{ "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL OUT[1], COLOR[1]\n"
		  "MOV OUT[0], IN[0]\nMOV OUT[1], IN[0]\nEND\n", IR_REFUSE_IO, "t.tgsi:6:1: MOV" },
		/* a compile-time trip count of 40 that no closed form covers (the MUL) */
		{ LOOP40, IR_REFUSE_CONTROL_FLOW, "t.tgsi:12:1: ENDLOOP: loop: more than 32 iterations" },
		/* an upper-left origin (no FS_COORD_ORIGIN LOWER_LEFT): posy counts from below */
		{ "FRAG\nDCL IN[0], POSITION, LINEAR\nDCL OUT[0], COLOR\nMOV OUT[0], IN[0].zyzw\nEND\n",
		  IR_REFUSE_IO, "t.tgsi:4:1: MOV: fragment position: posx/posy are pixel centres" },
		{ "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDDX OUT[0], IN[0]\nEND\n",
		  IR_REFUSE_OPCODE, "t.tgsi:4:1: DDX: derivatives need the pixel's quad neighbours" },
	};
	for (size_t k = 0; k < sizeof C / sizeof C[0]; k++) {
		ulp_diag d;
		ulp_diag_clear(&d);
		tgsi_shader *sh = tgsi_parse(C[k].text, strlen(C[k].text), "t.tgsi", NULL, &d);
		cr_assert(sh, "case %zu: %s", k, d.msg);
		tegra_compile_result r;
		cr_assert_not(tegra_compile(sh, "t.tgsi", &r), "case %zu compiled:\n%s", k, r.asm_text);
		cr_assert_eq(r.why, C[k].why, "case %zu: %s: %s", k, ir_refusal_name(r.why), r.d.msg);
		char buf[700];
		ulp_diag_format(&r.d, buf, sizeof buf);
		cr_assert(strstr(buf, C[k].what), "case %zu: '%s' lacks '%s'", k, buf, C[k].what);
		cr_assert_null(r.asm_text);
		tegra_compile_result_free(&r);
		tgsi_shader_free(sh);
	}
	/* 40 scalar uniforms (a vec4 slot each), all 40 read: packed they still need 40 words */
	char text[8192];
	int n = snprintf(text, sizeof text, "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\n"
	                 "DCL CONST[0][0..39]\nDCL TEMP[0]\nMOV TEMP[0], IN[0]\n");
	for (int k = 0; k < 40; k++)
		n += snprintf(text + n, sizeof text - (size_t)n, "ADD TEMP[0].%c, TEMP[0].%.4s, CONST[0][%d].xxxx\n",
		              "xy"[k & 1], k & 1 ? "yyyy" : "xxxx", k);
	snprintf(text + n, sizeof text - (size_t)n, "MOV OUT[0], TEMP[0]\nEND\n");
	ulp_diag d;
	ulp_diag_clear(&d);
	tgsi_shader *sh = tgsi_parse(text, strlen(text), "t.tgsi", NULL, &d);
	cr_assert(sh, "%s", d.msg);
	tegra_compile_result r;
	cr_assert_not(tegra_compile(sh, "t.tgsi", &r), "compiled:\n%s", r.asm_text);
	cr_assert_eq(r.why, IR_REFUSE_CONSTANTS, "%s: %s", ir_refusal_name(r.why), r.d.msg);
	cr_assert(strstr(r.d.msg, "need 40 FP_CONST slots (40 read directly, 0 held for indirect reads"), "%s",
	          r.d.msg);
	tegra_compile_result_free(&r);
	tgsi_shader_free(sh);
	/* more values live at once than 16 row registers and g0..g7 hold */
	n = snprintf(text, sizeof text, "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\n"
	             "DCL CONST[0][0..7]\nDCL TEMP[0..8]\n");
	for (int t = 0; t < 8; t++)
		n += snprintf(text + n, sizeof text - (size_t)n, "MUL TEMP[%d], IN[0], CONST[0][%d]\n", t, t);
	for (int t = 1; t < 8; t++)
		n += snprintf(text + n, sizeof text - (size_t)n, "MAD TEMP[0], TEMP[0], TEMP[%d], TEMP[%d]\n", t,
		              (t + 3) % 8);
	snprintf(text + n, sizeof text - (size_t)n, "MOV OUT[0], TEMP[0]\nEND\n");
	ulp_diag_clear(&d);
	sh = tgsi_parse(text, strlen(text), "t.tgsi", NULL, &d);
	cr_assert(sh, "%s", d.msg);
	cr_assert_not(tegra_compile(sh, "t.tgsi", &r), "compiled:\n%s", r.asm_text);
	cr_assert_eq(r.why, IR_REFUSE_REGISTERS, "%s: %s", ir_refusal_name(r.why), r.d.msg);
	tegra_compile_result_free(&r);
	tgsi_shader_free(sh);
}

Test(compile_tegra, cli)
{
	char *dir = test_tmpdir();
	cr_assert(dir);
	char *good = test_write_file(dir, "good.tgsi", "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\n"
	                       "DCL CONST[0][0]\nMUL OUT[0], IN[0], CONST[0][0]\nEND\n");
	char *loop = test_write_file(dir, "loop.tgsi", LOOP40);
	char *bad = test_write_file(dir, "bad.tgsi", "FRAG\nDCL OUT[0], COLOR\nMOV OUT[0], IN[0].x\nEND\n");
	char args[2048], *out, *err;
	snprintf(args, sizeof args, "tgsi compile %s --target tegra -o %s/good.fp", good, dir);
	cr_assert_eq(test_run_cli(args, &out, &err), 0, "%s", err);
	free(out);
	free(err);
	snprintf(args, sizeof args, "%s/good.fp", dir);
	ulp_diag d;
	ulp_diag_clear(&d);
	size_t len;
	char *fp = ulp_read_file(args, &len, &d);
	cr_assert(fp, "%s", d.msg);
	cr_assert(tegra_fp_is_container(fp, len));
	free(fp);
	snprintf(args, sizeof args, "tgsi compile %s --target tegra --asm", good);
	cr_assert_eq(test_run_cli(args, &out, &err), 0, "%s", err);
	cr_assert(strstr(out, "rcp r4") && strstr(out, "store rt1, r2, r3") && strstr(out, "u0"), "%s", out);
	free(out);
	free(err);
	/* the .fp runs: tegra run on the written container */
	snprintf(args, sizeof args, "tegra run %s/good.fp --size 4x4 -o %s/good.png --varying t0=0.5,0.25,1.0,1.0 "
	         "--uniform u0=1.0 --uniform u1=1.0 --uniform u2=0.5 --uniform u3=1.0", dir, dir);
	int rc = test_run_cli(args, &out, &err);
	cr_assert_eq(rc, 0, "%s", err);
	free(out);
	free(err);
	/* unsupported and malformed: exit 2, file:line:col, no output file */
	snprintf(args, sizeof args, "tgsi compile %s --target tegra -o %s/loop.fp", loop, dir);
	cr_assert_eq(test_run_cli(args, &out, &err), 2);
	cr_assert(strstr(err, "loop.tgsi:12:1: ENDLOOP"), "%s", err);
	free(out);
	free(err);
	snprintf(args, sizeof args, "%s/loop.fp", dir);
	cr_assert_null(fopen(args, "r"));
	snprintf(args, sizeof args, "tgsi compile %s --target tegra -o %s/bad.fp", bad, dir);
	cr_assert_eq(test_run_cli(args, &out, &err), 2);
	cr_assert(strstr(err, "bad.tgsi:3:"), "%s", err);
	free(out);
	free(err);
	snprintf(args, sizeof args, "tgsi compile %s --target tegra", good);
	cr_assert_eq(test_run_cli(args, &out, &err), 2);
	free(out);
	free(err);
	free(good);
	free(loop);
	free(bad);
	free(dir);
}

/* gl_FrontFacing: TGSI FACE reads pface (register 75, tegra-fp.md §2.3);
 * a counter-clockwise and a clockwise triangle get opposite colours, and
 * the counter-clockwise one (front: docs/tegra-units.md) the front one's. */
Test(compile_tegra, face_input_reads_pface)
{
	tegra_fp_decoded *dec = malloc(sizeof *dec);
	cr_assert(dec);
	tegra_compile_result r = compile_ok(
		"FRAG\nDCL IN[0], FACE, CONSTANT\nDCL OUT[0], COLOR\nDCL TEMP[0]\n"
		"IMM[0] FLT32 {0.0, 1.0, 0.0, 0.0}\n"
		"SLT TEMP[0].x, IMM[0].xxxx, IN[0].xxxx\nSGE TEMP[0].y, IMM[0].xxxx, IN[0].xxxx\n"
		"MOV OUT[0].xy, TEMP[0].yxyy\nMOV OUT[0].zw, IN[0].zzzw\nEND\n", dec);
	cr_assert(strstr(r.asm_text, "pface"), "%s", r.asm_text);
	cr_assert_eq(r.tram_rows, 0, "FACE is no TRAM row\n%s", r.asm_text);
	ulp_config cfg;
	ulp_config_defaults(&cfg);
	ulp_diag d;
	ulp_diag_clear(&d);
	ulp_image *rt = ulp_image_create(8, 8, &d);
	cr_assert(rt, "%s", d.msg);
	gr3d_draw dr;
	memset(&dr, 0, sizeof dr);
	dr.prog = dec;
	dr.cfg = &cfg;
	/* left half: (0,0) (4,0) (0,8) counter-clockwise with y up; right half:
	 * (4,0) (4,8) (8,0) clockwise */
	gr3d_vertex v[6];
	memset(v, 0, sizeof v);
	static const double P[6][2] = { { 0, 0 }, { 4, 0 }, { 0, 8 }, { 4, 0 }, { 4, 8 }, { 8, 0 } };
	for (unsigned i = 0; i < 6; i++) {
		v[i].x = P[i][0];
		v[i].y = P[i][1];
		v[i].w = 1.0;
	}
	static const uint16_t idx[6] = { 0, 1, 2, 3, 4, 5 };
	dr.vtx = v;
	dr.nvtx = 6;
	dr.idx = idx;
	dr.ntris = 2;
	dr.rt[1] = rt;
	gr3d_stats st;
	cr_assert(gr3d_fp_draw(&dr, &st, &d), "draw: %s", d.msg);
	const uint8_t *a = ulp_image_cpx(rt, 0, 1), *b = ulp_image_cpx(rt, 6, 1);
	const bool a_green = a[0] == 0 && a[1] == 255, a_red = a[0] == 255 && a[1] == 0;
	const bool b_green = b[0] == 0 && b[1] == 255, b_red = b[0] == 255 && b[1] == 0;
	cr_assert((a_green && b_red) || (a_red && b_green), "ccw %u %u %u %u, cw %u %u %u %u", a[0], a[1], a[2],
	          a[3], b[0], b[1], b[2], b[3]);
	cr_assert(a[2] == 0 && a[3] == 255 && b[2] == 0 && b[3] == 255, "FACE .zw = 0, 1");
	ulp_image_free(rt);
	tegra_compile_result_free(&r);
	free(dec);
}

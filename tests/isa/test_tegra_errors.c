/* Tegra assembler refusals (grate's messages, file:line:col) and malformed
 * words / .fp inputs, plus fuzz-like loops: truncations and byte flips of
 * real corpus inputs, and random programs through disasm -> asm. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fileio.h"
#include "isa/tegra/fp_container.h"
#include "isa/tegra/fp_words.h"
#include "isa/tegra/tegra_asm.h"
#include "isa/tegra/tegra_disasm.h"
#include "tests/test_util.h"

static const struct { const char *src, *where; const char *msg; } refusals[] = {
	{ ".asm\nEXEC ALU: ALU3: imm0 = 1 ;", "2:24", "syntax error" },          /* float needs '.' */
	{ ".asm\nEXEC ALU: ALU0: MUL r0.l, r1, r2 ;", "2:34", "syntax error" },  /* three sources */
	{ ".asm\nEXEC ALU: ALU0: MAD kill.lh, r1, r2, r3 ;", "2:25", "syntax error" },
	{ ".asm\nEXEC ALU: ALU0: MAD cr3.l, r1, r2, r3 ;", "2:24", "syntax error" },
	{ ".asm\nEXEC ALU: ALU0: MAD g8.l, r1, r2, r3 ;", "2:21", "syntax error" },
	{ ".asm\nEXEC ALU: ALU0: MAD r0.l, r1, r2, r3, #0 ;", "2:39", "Invalid src register" },
	{ ".asm\nEXEC ALU: ALU0: MAD r0.l, rB, r2, r3 ;", "2:27", "Invalid src register" },
	{ ".asm\nEXEC ALU: ALU0: MAD r0.l, r1, r2, r3, r1 ;", "2:39", "Invalid src register" },
	{ "alu_buffer_size = 5\n.asm\nEXEC ;", "1:19", "Invalid ALU buffer size, should be 1-4" },
	{ ".asm\nEXEC PSEQ : 0x1 ;", "2:6", "syntax error" },
	{ ".asm\n", NULL, "No fragment instructions generated" },
	{ "", NULL, "No fragment instructions generated" },
	{ ".asm\nEXEC ALU: ALU1: imm0 = 1.0 ;", "2:11", "ALU immediates can override ALU3 only" },
	{ ".asm\nEXEC ALU: ALU0: MAD r0.l, -abs(-r1), r2, r3 ;", "2:32", "syntax error" },
	{ ".asm\nEXEC ALU: ALU0: MAD r0.l, r1*3, r2, r3 ;", "2:30", "Only register scale by x2 is possible" },
	{ ".asm\nEXEC ALU: ALU0: MAD r0.l, r1-2, r2, r3 ;", "2:30", "Only decrement by 1 is possible" },
	{ ".asm\nEXEC MFU: mul0: r4, r0, r0 ;", "2:17", "Invalid row register number, r3 max" },
	{ ".asm\nEXEC MFU: mul0: r0, #0, r0 ;", "2:21", "Invalid constant, should be #1" },
	{ ".asm\nEXEC MFU: ipl: t16.fp20, NOP, NOP, NOP ;", "2:16", "Invalid TRAM row number, should be 0..15" },
	{ ".asm\nEXEC MFU: sfu: rcp r1 mul0: bar, sfu, bar0 mul1: bar, sfu, bar1 ipl: NOP, NOP, NOP, NOP sfu: nop r0 ;",
	  NULL, "syntax error" },                                                 /* five clauses */
	{ ".asm\nEXEC TEX: tex r1, r2, tex0, r0, r1, r2 ;", "2:11", "TEX destination registers" },
	{ ".asm\nEXEC TEX: tex r0, r1, tex16, r0, r1, r2 ;", "2:23", "Invalid TEX sampler id, 15 is maximum" },
	{ ".asm\nEXEC TEX: tex r0, r1, tex1, r0, r1, r3 ;", NULL, "TEX source registers" },
	{ ".asm\nEXEC TEX: txb r0, r1, tex1, r0, r1, r2, r0 ;", NULL, "TXB source registers" },
	{ ".asm\nEXEC DW: store rt16, r0, r1 ;", "2:16", "Invalid DW render target, 15 is maximum" },
	{ ".asm\nEXEC DW: store rt1, r1, r2 ;", NULL, "DW source registers" },
	{ ".uniforms\n[0] = \"a\";\n[0].l = \"b\";\n.asm\nEXEC ;", "3:2", "Overriding uniform name" },
	{ ".uniforms\n[32] = \"a\";\n.asm\nEXEC ;", NULL, "Invalid uniform index" },
	{ ".asm\nEXEC MFU: NOP MFU: NOP MFU: NOP MFU: NOP ;", "2:33", "Over 3 MFU instructions per exec batch" },
	{ ".asm\nEXEC ALU: ALU: ALU: ALU: ;", "2:21", "Over 3 ALU instructions per exec batch" },
	{ ".asm\nEXEC ;\n/* unterminated", "3:1", "syntax error" },
	{ ".asm\nEXEC ALU: ALU0: MAD r0.l, r16, r2, r3 ;", "2:27", "Invalid row reg, should be 0..15" },
	{ ".asm\nEXEC ALU: ALU0: MAD u8.l, r1, r2, r3 ;", "2:21", "Invalid dst reg, uniform should be 0..7" },
	{ ".asm\nEXEC ALU: ALU0: MAD r16.l, r1, r2, r3 ;", "2:21", "Invalid dst reg, row should be 0..15" },
	{ ".asm\nEXEC ALU: ALU0: MAD r0.l, u64, r2, r3 ;", "2:27", "Invalid uniform reg, should be 0..63" },
	{ ".asm\nEXEC ALU: ALU0: MAD r0.l, cr16, r2, r3 ;", "2:27", "Invalid CR reg, should be 0..15" },
	{ ".asm\nEXEC ALU: ALU0: MAD cr16, r1, r2, r3 ;", "2:21", "Invalid dst reg, CR should be 0..15" },
	{ ".constants\n[32] = 1.0;\n.asm\nEXEC ;", "2:2", "Invalid constant index, max 31" },
	{ ".asm\nEXEC ;\nEXEC\r\n;", "3:5", "syntax error at '\\x0D'" },   /* CR is not a blank */
	{ ".asm\nEXEC ALU: ALU0: NOP (sat) ;", NULL, "syntax error" },
	{ ".asm\nEXEC ALU: ALU3: imm0 = 0.5, imm1 = 0.5, imm2 = 0.5, imm0.l = 0.5, imm0.h = 0.5, imm1.l = 0.5, imm1.h = 0.5 ;",
	  NULL, "syntax error" },                                                 /* seven */
	{ ".uniforms\n[0] = \"abc\n\";\n.asm\nEXEC ;", NULL, "syntax error" },  /* no newline in strings */
	{ "EXEC ;", "1:1", "syntax error" },                                      /* outside .asm */
	{ ".asm\nEXEC MFU: sfu: rcp r4 ; foo", NULL, "syntax error" },
	{ ".asm\nEXEC ALU: ALU0: MAD lp, r1, r2, r3 (x3) ;", NULL, "syntax error" },
};

Test(tegra_errors, refused_programs_report_file_line_col)
{
	tegra_fp_program *p = malloc(sizeof *p);
	cr_assert_not_null(p);
	for (size_t i = 0; i < sizeof refusals / sizeof refusals[0]; i++) {
		ulp_diag d;
		ulp_diag_clear(&d);
		const char *src = refusals[i].src;
		cr_assert(!tegra_asm_assemble(src, strlen(src), "q.asm", p, &d), "accepted:\n%s", src);
		char text[700];
		ulp_diag_format(&d, text, sizeof text);
		cr_assert(strstr(text, refusals[i].msg), "'%s' lacks '%s'\n%s", text, refusals[i].msg, src);
		cr_assert(d.line >= 1, "no line for '%s'", text);
		if (refusals[i].where) {
			char want[64];
			snprintf(want, sizeof want, "q.asm:%s: ", refusals[i].where);
			cr_assert(strncmp(text, want, strlen(want)) == 0, "'%s' is not at %s", text, want);
		}
	}
	/* 65 EXECs, 65 MFU instructions, 65 ALU packets */
	char *big = malloc(65 * 32 + 16);
	cr_assert_not_null(big);
	const char *bodies[] = { "EXEC ;\n", "EXEC MFU: NOP ;\n", "EXEC ALU: ;\n" };
	const char *msgs[] = { "Over 64 exec batches", "Over 64", "Over 64" };
	for (int k = 0; k < 3; k++) {
		strcpy(big, ".asm\n");
		for (int i = 0; i < 65; i++)
			strcat(big, bodies[k]);
		ulp_diag d;
		ulp_diag_clear(&d);
		cr_assert(!tegra_asm_assemble(big, strlen(big), "big.asm", p, &d));
		cr_assert(strstr(d.msg, msgs[k]), "%s", d.msg);
		cr_assert_eq(d.line, 66);
		/* 64 of them are fine */
		big[strlen(big) - strlen(bodies[k])] = '\0';
		ulp_diag_clear(&d);
		cr_assert(tegra_asm_assemble(big, strlen(big), "big.asm", p, &d), "%s", d.msg);
	}
	free(big);
	free(p);
}

static const char *const words_refusals[][2] = {
	{ "", "nor a tegra-fp-words v1 file" },
	{ "hello\n", "nor a tegra-fp-words v1 file" },
	{ "# tegra-fp-words v2\n", "nor a tegra-fp-words v1 file" },
	{ "# tegra-fp-words v1\n", "no words" },
	{ "# tegra-fp-words v1\n.exec_count 1\n.mfu_count 0\n.alu_packet_count 0\nPSEQ 00000000\n", "truncated: 1 of 6 words" },
	{ "# tegra-fp-words v1\nPSEQ 00000000\n", "word before the .exec_count" },
	{ "# tegra-fp-words v1\n.exec_count 0\n.mfu_count 0\n.alu_packet_count 0\nPSEQ 0\n", "outside the limits" },
	{ "# tegra-fp-words v1\n.exec_count 1\n.mfu_count 0\n.alu_packet_count 0\nDW 0\n", "expected a PSEQ word" },
	{ "# tegra-fp-words v1\n.exec_count 1\n.mfu_count 0\n.alu_packet_count 0\nPSEQ 0x1\n", "8 hex digits" },
	{ "# tegra-fp-words v1\n.exec_count 1\n.exec_count 1\n", "repeated" },
	{ "# tegra-fp-words v1\n.frob 1\n", "unknown header line" },
	{ "# tegra-fp-words v1\n.const 32 00000001\n", "over 31" },
	{ "# tegra-fp-words v1\n.uniform 0 q \"x\"\n", "fp20, l or h" },
	{ "# tegra-fp-words v1\n.uniform 0 l x\n", "quoted uniform name" },
	{ "# tegra-fp-words v1\n.exec_count 1\n.reg 0520 20006002\n", "does not match" },
	{ "# tegra-fp-words v1\n.exec_count 1\n.mfu_count 0\n.alu_packet_count 0\n"
	  "PSEQ 0\nMFU_SCHED 00000001\nTEX 0\nALU_SCHED 0\nALU_COMPLEMENT 0\nDW 0\n", "MFU schedule of EXEC 0" },
};

Test(tegra_errors, malformed_words_files)
{
	tegra_fp_program *p = malloc(sizeof *p);
	cr_assert_not_null(p);
	for (size_t i = 0; i < sizeof words_refusals / sizeof words_refusals[0]; i++) {
		ulp_diag d;
		ulp_diag_clear(&d);
		const char *t = words_refusals[i][0];
		cr_assert(!tegra_fp_load_buffer(t, strlen(t), "w.words", p, &d), "accepted:\n%s", t);
		char text[700];
		ulp_diag_format(&d, text, sizeof text);
		cr_assert(strstr(text, words_refusals[i][1]), "'%s' lacks '%s'", text, words_refusals[i][1]);
		cr_assert(strncmp(text, "w.words", 7) == 0, "%s", text);
	}
	free(p);
}

/* ---- fuzz-like loops ---------------------------------------------------------- */

static char *read_corpus(const char *rel, size_t *len)
{
	char *path = test_corpus_path(rel);
	ulp_diag d;
	ulp_diag_clear(&d);
	char *t = ulp_read_file(path, len, &d);
	cr_assert_not_null(t, "%s: %s", path, d.msg);
	free(path);
	return t;
}

/* If the program assembles, its default disassembly must re-assemble to it. */
static void check_roundtrip(const tegra_fp_program *p, tegra_fp_program *q)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	char *text = tegra_disasm(p, 0, NULL, &d);
	if (!text) {   /* only structurally invalid programs are refused */
		cr_assert(d.set);
		return;
	}
	if (!tegra_fp_is_canonical(p)) {   /* not expressible in grate's language */
		cr_assert(strstr(text, "// note: the MFU/ALU schedules"));
		free(text);
		return;
	}
	cr_assert(tegra_asm_assemble(text, strlen(text), "rt", q, &d), "%s\n%s", d.msg, text);
	/* discards_fragment is re-derived from kill destinations by the assembler;
	 * a flag without a kill word (or the reverse) has no grate syntax */
	q->discards_fragment = p->discards_fragment;
	char *a = tegra_fp_words_write(p, NULL), *b = tegra_fp_words_write(q, NULL);
	cr_assert_str_eq(a, b, "round trip changed words:\n%s\n--- before\n%s\n--- after\n%s", text, a, b);
	free(a);
	free(b);
	free(text);
	char *g = tegra_disasm(p, TEGRA_DISASM_GRATE, NULL, &d);
	cr_assert_not_null(g);
	free(g);
}

static const char *const fuzz_sources[] = {
	"tegra/grate-tests/fs_mfu_tests.txt",
	"tegra/grate-tests/cube2_grate_fs.txt",
	"tegra/grate-tests/fs_uniform.txt",
	"tegra/xf86/blend_in/blend_in/fragment.asm",
};

Test(tegra_fuzz, asm_truncations_and_byte_flips)
{
	tegra_fp_program *p = malloc(sizeof *p), *q = malloc(sizeof *q);
	cr_assert(p && q);
	static const char flips[] = { '\0', '(', '9', '-', ',', ';', '.', 'x', '"', '\n', '*', '#' };
	int accepted = 0, refused = 0;
	for (size_t f = 0; f < sizeof fuzz_sources / sizeof fuzz_sources[0]; f++) {
		size_t len;
		char *src = read_corpus(fuzz_sources[f], &len);
		char *buf = malloc(len + 1);
		cr_assert_not_null(buf);
		size_t step = len > 3000 ? 7 : 1;
		for (size_t cut = 0; cut <= len; cut += step) {
			memcpy(buf, src, cut);
			ulp_diag d;
			ulp_diag_clear(&d);
			if (tegra_asm_assemble(buf, cut, "t.asm", p, &d)) {
				accepted++;
				check_roundtrip(p, q);
			} else {
				refused++;
				cr_assert(d.line >= 1 && d.msg[0], "cut %zu: no position", cut);
			}
		}
		for (size_t i = 0; i < len; i += step) {
			for (size_t k = 0; k < sizeof flips; k++) {
				memcpy(buf, src, len);
				buf[i] = flips[k];
				ulp_diag d;
				ulp_diag_clear(&d);
				if (tegra_asm_assemble(buf, len, "t.asm", p, &d)) {
					accepted++;
					check_roundtrip(p, q);
				} else {
					refused++;
					cr_assert(d.line >= 1 && d.msg[0]);
				}
			}
		}
		free(buf);
		free(src);
	}
	cr_assert_gt(accepted, 0);
	cr_assert_gt(refused, 0);
	free(p);
	free(q);
}

static uint32_t crc32_ref(const uint8_t *b, size_t n)
{
	uint32_t c = 0xFFFFFFFFu;
	for (size_t i = 0; i < n; i++) {
		c ^= i >= 52 && i < 56 ? 0u : b[i];
		for (int k = 0; k < 8; k++)
			c = c & 1 ? (c >> 1) ^ 0xEDB88320u : c >> 1;
	}
	return ~c;
}

static void set_crc(uint8_t *b, size_t n)
{
	uint32_t c = crc32_ref(b, n);
	for (int k = 0; k < 4; k++)
		b[52 + k] = (uint8_t)(c >> (8 * k));
}

Test(tegra_fuzz, fp_container_truncations_and_flips)
{
	tegra_fp_program *p = malloc(sizeof *p), *q = malloc(sizeof *q);
	cr_assert(p && q);
	int survived = 0;
	for (size_t f = 0; f < sizeof fuzz_sources / sizeof fuzz_sources[0]; f++) {
		size_t len;
		char *src = read_corpus(fuzz_sources[f], &len);
		ulp_diag d;
		ulp_diag_clear(&d);
		cr_assert(tegra_asm_assemble(src, len, "s", p, &d), "%s", d.msg);
		free(src);
		size_t n;
		uint8_t *img = tegra_fp_container_write(p, &n);
		cr_assert_not_null(img);
		uint8_t *buf = malloc(n);
		cr_assert_not_null(buf);
		for (size_t cut = 0; cut < n; cut++) {
			ulp_diag_clear(&d);
			cr_assert(!tegra_fp_container_read(img, cut, "t.fp", q, &d), "cut %zu accepted", cut);
			cr_assert(d.offset >= 0, "cut %zu: %s", cut, d.msg);
		}
		for (size_t i = 0; i < n; i++) {
			static const uint8_t xors[] = { 0x01, 0x80, 0xFF };
			for (size_t k = 0; k < sizeof xors; k++) {
				memcpy(buf, img, n);
				buf[i] ^= xors[k];
				ulp_diag_clear(&d);
				cr_assert(!tegra_fp_container_read(buf, n, "t.fp", q, &d), "flip at %zu accepted", i);
				cr_assert(d.set);
				/* the same damage with a repaired CRC: refused cleanly, or a
				 * program that disassembles and round-trips */
				set_crc(buf, n);
				ulp_diag_clear(&d);
				if (tegra_fp_container_read(buf, n, "t.fp", q, &d)) {
					survived++;
					check_roundtrip(q, p);
				} else {
					cr_assert(d.set && d.msg[0]);
				}
			}
		}
		free(buf);
		free(img);
	}
	cr_assert_gt(survived, 0);
	free(p);
	free(q);
}

Test(tegra_fuzz, words_truncations_and_flips)
{
	tegra_fp_program *p = malloc(sizeof *p), *q = malloc(sizeof *q);
	cr_assert(p && q);
	size_t len;
	char *src = read_corpus("tegra/grate-tests/fs_mfu_tests.words", &len);
	char *buf = malloc(len + 1);
	cr_assert_not_null(buf);
	int ok = 0, bad = 0;
	for (size_t cut = 0; cut <= len; cut++) {
		memcpy(buf, src, cut);
		ulp_diag d;
		ulp_diag_clear(&d);
		if (tegra_fp_load_buffer(buf, cut, "t.words", p, &d)) {
			ok++;
			check_roundtrip(p, q);
		} else {
			bad++;
			cr_assert(d.set && d.msg[0]);
		}
	}
	for (size_t i = 0; i < len; i++) {
		static const char flips[] = { '\0', 'F', ' ', '\n', '.', '#', 'Z' };
		for (size_t k = 0; k < sizeof flips; k++) {
			memcpy(buf, src, len);
			buf[i] = flips[k];
			ulp_diag d;
			ulp_diag_clear(&d);
			if (tegra_fp_load_buffer(buf, len, "t.words", p, &d)) {
				ok++;
				check_roundtrip(p, q);
			} else {
				bad++;
				cr_assert(d.set && d.msg[0]);
			}
		}
	}
	cr_assert_gt(ok, 0);
	cr_assert_gt(bad, len / 2);
	free(buf);
	free(src);
	free(p);
	free(q);
}

static uint64_t next_rand(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Random words in a valid structure: whatever the bits, the default
 * disassembly re-assembles to the same words. */
Test(tegra_fuzz, random_programs_roundtrip_through_disasm)
{
	tegra_fp_program *p = malloc(sizeof *p), *q = malloc(sizeof *q);
	cr_assert(p && q);
	uint64_t s = 0x2545F4914F6CDD1Du;
	for (int iter = 0; iter < 1000; iter++) {
		memset(p, 0, sizeof *p);
		p->exec_count = 1 + (unsigned)(next_rand(&s) % 8);
		p->mfu_count = (unsigned)(next_rand(&s) % 6);
		p->alu_packet_count = (unsigned)(next_rand(&s) % 6);
		p->alu_buffer_size = (unsigned)(next_rand(&s) % 5);
		p->pseq_to_dw_exec_nb = (unsigned)(next_rand(&s) % 100);
		p->discards_fragment = next_rand(&s) & 1;
		size_t n = tegra_fp_word_count(p);
		for (size_t i = 0; i < n; i++) {
			uint64_t r = next_rand(&s);
			/* bias towards small/structured values now and then */
			uint32_t v = (uint32_t)r;
			if ((r >> 40) % 4 == 0)
				v &= 0x0000FFFF;
			tegra_fp_upload_set(p, i, v);
		}
		/* canonical schedules: consecutive, every instruction used once */
		unsigned mnext = 0, anext = 0;
		for (unsigned e = 0; e < p->exec_count; e++) {
			bool last = e + 1 == p->exec_count;
			unsigned mc = last ? p->mfu_count - mnext : (unsigned)(next_rand(&s) % 4);
			if (mc > p->mfu_count - mnext)
				mc = p->mfu_count - mnext;
			if (mc > 3) {   /* cannot fit: start over with fewer */
				p->mfu_count = mnext + 3;
				mc = 3;
			}
			p->mfu_sched[e] = mc ? mnext << 2 | mc : 0;
			mnext += mc;
			unsigned ac = last ? p->alu_packet_count - anext : (unsigned)(next_rand(&s) % 4);
			if (ac > p->alu_packet_count - anext)
				ac = p->alu_packet_count - anext;
			if (ac > 3) {
				p->alu_packet_count = anext + 3;
				ac = 3;
			}
			p->alu_sched[e] = ac ? anext << 2 | ac : 0;
			anext += ac;
		}
		cr_assert(tegra_fp_is_canonical(p));
		for (unsigned i = 0; i < 32; i++)
			p->constants[i] = next_rand(&s) % 3 == 0 ? (uint32_t)next_rand(&s) : 0;
		ulp_diag d;
		ulp_diag_clear(&d);
		cr_assert(tegra_fp_validate(p, NULL, &d), "%s", d.msg);
		check_roundtrip(p, q);
	}
	free(p);
	free(q);
}

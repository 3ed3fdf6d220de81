/* Malformed TGSI text: truncations of real files at many offsets, random byte
 * flips, random bytes and random token soup.  Every input must either parse
 * (and then reprint idempotently: dump(parse(dump)) == dump) or fail with a
 * message and a line:col inside the text; never crash or hang.  Bounded:
 * a few thousand parses of small inputs. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/fileio.h"
#include "frontends/tgsi/tgsi.h"
#include "tests/test_util.h"

static uint32_t xorshift(uint32_t *s)
{
	uint32_t x = *s;
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return *s = x;
}

typedef struct fuzz_stats {
	unsigned parsed, rejected;
} fuzz_stats;

/* The checks every input gets. */
static void check_input(const char *text, size_t len, fuzz_stats *st)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	tgsi_shader *sh = tgsi_parse(text, len, "fuzz.tgsi", NULL, &d);
	if (!sh) {
		st->rejected++;
		cr_assert(d.set, "rejected without a diagnostic");
		cr_assert_str_eq(d.file, "fuzz.tgsi");
		cr_assert(d.msg[0], "empty message");
		int lines = 1, last_len = 0;
		for (size_t i = 0; i < len; i++) {
			if (text[i] == '\n') {
				lines++;
				last_len = 0;
			} else {
				last_len++;
			}
		}
		cr_assert(d.line >= 1 && d.line <= lines, "line %d of %d (%s)", d.line, lines, d.msg);
		cr_assert(d.col >= 1, "col %d (%s)", d.col, d.msg);
		if (d.line == lines)
			cr_assert_leq(d.col, last_len + 1, "col %d past the end (%s)", d.col, d.msg);
		return;
	}
	st->parsed++;
	size_t n1;
	char *p1 = tgsi_dump_str(sh, TGSI_DUMP_FLOATS_AS_WRITTEN, &n1);
	cr_assert(p1);
	/* control-flow resolution may fail, but must not crash */
	ulp_diag cd;
	ulp_diag_clear(&cd);
	if (!tgsi_cf_resolve(sh, "fuzz.tgsi", &cd))
		cr_assert(cd.set && cd.line >= 1, "cf failure without a position");
	tgsi_shader_free(sh);
	ulp_diag_clear(&d);
	tgsi_shader *sh2 = tgsi_parse(p1, n1, "reprint.tgsi", NULL, &d);
	cr_assert(sh2, "reprint does not parse: %d:%d: %s\n%s", d.line, d.col, d.msg, p1);
	size_t n2;
	char *p2 = tgsi_dump_str(sh2, TGSI_DUMP_FLOATS_AS_WRITTEN, &n2);
	cr_assert(p2);
	cr_assert(n1 == n2 && memcmp(p1, p2, n1) == 0, "reprint not idempotent:\n%s\n---\n%s", p1, p2);
	free(p1);
	free(p2);
	tgsi_shader_free(sh2);
}

static char *load(const char *rel, size_t *len)
{
	char *path = test_corpus_path(rel);
	ulp_diag d;
	ulp_diag_clear(&d);
	char *t = ulp_read_file(path, len, &d);
	cr_assert(t, "%s: %s", path, d.msg);
	free(path);
	return t;
}

static const char *const seeds[] = {
	"tgsi-noint/tests__shaders__ssa__fs-swap-problem/fs.tgsi",
	"tgsi-noint/generated_tests__spec__glsl-1.10__execution__variable-indexing__fs-uniform-array-mat3-index-col-rd/fs.tgsi",
	"tgsi-noint/generated_tests__spec__glsl-1.10__execution__built-in-functions__vs-op-eq-vec4-vec4-using-if/vs.tgsi",
	"tgsi-noint/generated_tests__spec__glsl-1.10__execution__interpolation__interpolation-none-gl_BackColor-smooth-vertex/vs.tgsi",
};

Test(tgsi_fuzz, truncations, .timeout = 60)
{
	fuzz_stats st = { 0, 0 };
	for (size_t f = 0; f < sizeof seeds / sizeof seeds[0]; f++) {
		size_t len;
		char *t = load(seeds[f], &len);
		size_t step = len > 1500 ? len / 1500 + 1 : 1;
		for (size_t cut = 0; cut <= len; cut += step)
			check_input(t, cut, &st);
		free(t);
	}
	cr_assert_gt(st.parsed, 10);
	cr_assert_gt(st.rejected, 100);
}

Test(tgsi_fuzz, byte_flips, .timeout = 60)
{
	fuzz_stats st = { 0, 0 };
	uint32_t rng = 0x1234567u;
	static const char interesting[] = "[](){},.:|-+ \n\r\t\0xyzw0123456789_ADIMTXabc";
	for (size_t f = 0; f < sizeof seeds / sizeof seeds[0]; f++) {
		size_t len;
		char *t = load(seeds[f], &len);
		char *m = malloc(len + 1);
		cr_assert(m);
		for (int it = 0; it < 600; it++) {
			memcpy(m, t, len);
			int flips = 1 + (int)(xorshift(&rng) % 3);
			for (int k = 0; k < flips; k++) {
				size_t pos = xorshift(&rng) % len;
				uint32_t r = xorshift(&rng);
				m[pos] = (r & 1) ? (char)(r >> 8)
				                 : interesting[(r >> 8) % (sizeof interesting - 1)];
			}
			check_input(m, len, &st);
		}
		free(m);
		free(t);
	}
	cr_assert_gt(st.parsed, 10);
	cr_assert_gt(st.rejected, 100);
}

Test(tgsi_fuzz, garbage_bytes, .timeout = 60)
{
	fuzz_stats st = { 0, 0 };
	uint32_t rng = 0xdeadbeefu;
	char buf[300];
	for (int it = 0; it < 1500; it++) {
		size_t len = xorshift(&rng) % sizeof buf;
		size_t start = 0;
		if (it % 2 && len > 5) {
			memcpy(buf, "FRAG\n", 5);   /* get past the header half the time */
			start = 5;
		}
		for (size_t i = start; i < len; i++)
			buf[i] = (char)xorshift(&rng);
		check_input(buf, len, &st);
	}
	cr_assert_eq(st.parsed + st.rejected, 1500);
	cr_assert_gt(st.rejected, 1000);
}

/* Sequences of plausible tokens reach deep into the grammar. */
Test(tgsi_fuzz, token_soup, .timeout = 60)
{
	static const char *const toks[] = {
		"MOV", "ADD", "MAD", "TEX", "IF", "ELSE", "ENDIF", "BGNLOOP", "ENDLOOP", "BRK",
		"END", "KILL_IF", "DCL", "IMM", "PROPERTY", "MOV_SAT", "CAL", "BGNSUB", "ENDSUB",
		"TEMP", "IN", "OUT", "CONST", "ADDR", "SAMP", "SVIEW", "IMM", "SV",
		"[", "]", "[0]", "[1]", "[2..3]", "[]", "(1)", ",", ", ", ".", ".xyzw", ".x", ".xy",
		".wzyx", "-", "|", ":", " :2", " :0", "+1", "-2", "0", "7", "\n", " ", "\t",
		"ADDR[0].x+1", "{", "}", "FLT32", "UINT32", "INT32", "FLT64", "0x3f800000",
		"1.5", "-2e-3", "GENERIC[0]", "COLOR", "POSITION", "PERSPECTIVE", "LINEAR",
		"CENTROID", "INVARIANT", "ARRAY(1)", "LOCAL", "2D", "3D", "SHADOW2D", "FLOAT",
		"GS_INPUT_PRIMITIVE", "TRIANGLES", "NEXT_SHADER", "FRAG", "STREAM(0,1,0,0)",
	};
	static const char *const heads[] = { "FRAG\n", "VERT\n", "GEOM\n", "TESS_CTRL\n", "COMP\n" };
	fuzz_stats st = { 0, 0 };
	uint32_t rng = 0xc0ffee1u;
	char buf[800];
	for (int it = 0; it < 3000; it++) {
		size_t len = 0;
		const char *h = heads[xorshift(&rng) % 5];
		memcpy(buf, h, strlen(h));
		len = strlen(h);
		int n = (int)(xorshift(&rng) % 40);
		for (int k = 0; k < n; k++) {
			const char *t = toks[xorshift(&rng) % (sizeof toks / sizeof toks[0])];
			size_t tl = strlen(t);
			if (len + tl + 1 >= sizeof buf)
				break;
			memcpy(buf + len, t, tl);
			len += tl;
			if (xorshift(&rng) % 3 == 0)
				buf[len++] = ' ';
		}
		check_input(buf, len, &st);
	}
	cr_assert_gt(st.rejected, 1000);
}

/* Valid statements, shuffled, with an occasional stray token. */
Test(tgsi_fuzz, statement_soup, .timeout = 60)
{
	static const char *const stmts[] = {
		"MOV TEMP[0], IN[0]", "ADD TEMP[1].xy, -TEMP[0].wzyx, |IMM[0]|",
		"IF TEMP[0].xxxx :3", "ELSE :5", "ENDIF", "BGNLOOP :0", "ENDLOOP :0", "BRK", "CONT",
		"KILL_IF -TEMP[0].xxxx", "TEX TEMP[0], IN[0], SAMP[0], 2D, IMM[0].xyz",
		"DCL TEMP[0..3]", "DCL OUT[0], COLOR", "DCL CONST[0][0..4]", "DCL TEMP[4..5], ARRAY(1)",
		"IMM FLT32 {1.0, 0x3f800000, -2.5, 0}", "IMM UINT32 {1, 2, 3, 4}", "IMM INT32 {-1, 0, 1, 2}",
		"PROPERTY NEXT_SHADER FRAG", "MOV TEMP[ADDR[0].x+1](1), CONST[0][ADDR[0].y-2]", "END",
		"CAL :1", "BGNSUB", "ENDSUB", "RET", "DCL SVIEW[0], 2D, FLOAT", "DCL SAMP[0]",
		"5: MUL_SAT OUT[0], IN[0], CONST[1][2].xxxx", "UIF TEMP[0].xxxx", "SWITCH TEMP[0].xxxx",
		"CASE IMM[0].xxxx", "DEFAULT", "ENDSWITCH", "ARL ADDR[0].x, TEMP[0].xxxx",
		"DP4_SAT_PRECISE OUT[0].w, IN[0], CONST[0][1]", "SUB TEMP[0], IN[0], IN[1]",
		"IMM FLT64 {1.5, -0.25}", "NOP", "EMIT IMM[0].xxxx",
	};
	static const char *const heads[] = { "FRAG", "VERT", "GEOM", "COMP" };
	static const char *const junk[] = { ",", "]", "[", "|", ".x", ":", "{", "0x", "DCL", "\r" };
	fuzz_stats st = { 0, 0 };
	uint32_t rng = 0x5eed5u;
	char buf[2000];
	for (int it = 0; it < 2000; it++) {
		size_t len = (size_t)sprintf(buf, "%s", heads[xorshift(&rng) % 4]);
		int n = (int)(xorshift(&rng) % 20);
		for (int k = 0; k < n; k++) {
			uint32_t r = xorshift(&rng);
			const char *t = r % 10 == 0 ? junk[(r >> 8) % (sizeof junk / sizeof junk[0])]
			                            : stmts[(r >> 8) % (sizeof stmts / sizeof stmts[0])];
			len += (size_t)sprintf(buf + len, "%s%s", (r >> 4) & 1 ? "\n" : " ", t);
		}
		check_input(buf, len, &st);
	}
	cr_assert_gt(st.parsed, 300);
	cr_assert_gt(st.rejected, 300);
}

/* Deep nesting and long inputs stay linear and bounded. */
Test(tgsi_fuzz, long_and_deep_inputs, .timeout = 60)
{
	size_t cap = 200000, len = 0;
	char *buf = malloc(cap);
	cr_assert(buf);
	len += (size_t)sprintf(buf, "FRAG\n");
	for (int i = 0; i < 1100; i++)
		len += (size_t)sprintf(buf + len, "IF IN[0].xxxx\n");
	for (int i = 0; i < 1100; i++)
		len += (size_t)sprintf(buf + len, "ENDIF\n");
	fuzz_stats st = { 0, 0 };
	check_input(buf, len, &st);
	cr_assert_eq(st.rejected, 1);
	/* the parser refuses it (so fmt does too, not only run and compile),
	 * at the IF that opens level TGSI_MAX_NESTING + 1 (docs/robustness.md) */
	ulp_diag d;
	ulp_diag_clear(&d);
	tgsi_shader *sh = tgsi_parse(buf, len, "deep.tgsi", NULL, &d);
	cr_assert_null(sh, "nesting beyond the limit accepted");
	cr_assert(strstr(d.msg, "IF nested too deeply"), "%s", d.msg);
	cr_assert_eq(d.line, 2 + TGSI_MAX_NESTING, "%d", d.line);
	/* at the limit it parses and resolves */
	len = (size_t)sprintf(buf, "FRAG\n");
	for (int i = 0; i < TGSI_MAX_NESTING; i++)
		len += (size_t)sprintf(buf + len, "IF IN[0].xxxx\n");
	for (int i = 0; i < TGSI_MAX_NESTING; i++)
		len += (size_t)sprintf(buf + len, "ENDIF\n");
	sh = tgsi_parse(buf, len, "deep.tgsi", NULL, &d);
	cr_assert(sh, "%s", d.msg);
	cr_assert(tgsi_cf_resolve(sh, "deep.tgsi", &d), "%s", d.msg);
	tgsi_shader_free(sh);
	free(buf);
}

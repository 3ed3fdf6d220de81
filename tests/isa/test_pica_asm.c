/* PICA200 assembler: byte-exact conformance with picasso over the corpus,
 * encodings of the constructs the corpus does not cover, and diagnostics. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/fileio.h"
#include "isa/pica/pica_asm.h"
#include "isa/pica/pica_isa.h"
#include "isa/pica/shbin.h"
#include "tests/test_util.h"

/* Known failures: cases picasso's output cannot be matched for, with the
 * reason.  Empty: every visible corpus case is byte-identical. */
static const struct { const char *expected; const char *reason; } KNOWN_FAILURES[] = {
	{ NULL, NULL },
};

static bool is_known_failure(const char *path)
{
	for (size_t i = 0; KNOWN_FAILURES[i].expected; i++)
		if (strstr(path, KNOWN_FAILURES[i].expected))
			return true;
	return false;
}

static bool exists(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0;
}

/* Assemble the given source paths; NULL on failure (d filled). */
static uint8_t *assemble_paths(char **paths, int n, size_t *len, ulp_diag *d)
{
	struct pica_asm_file files[4];
	char *texts[4] = { 0 };
	uint8_t *out = NULL;
	bool ok = true;
	for (int i = 0; i < n && ok; i++) {
		size_t l;
		texts[i] = ulp_read_file(paths[i], &l, d);
		ok = texts[i] != NULL;
		files[i] = (struct pica_asm_file){ paths[i], texts[i], texts[i] ? l : 0 };
	}
	struct shbin s;
	if (ok && pica_assemble(files, (size_t)n, NULL, &s, d)) {
		if (!shbin_write(&s, &out, len, d))
			out = NULL;
		shbin_free(&s);
	}
	for (int i = 0; i < n; i++)
		free(texts[i]);
	return out;
}

struct tally { int total, pass, known; };

static void check_case(struct tally *t, char **src, int n, const char *expected)
{
	if (!exists(expected))
		return;
	t->total++;
	ulp_diag d;
	ulp_diag_clear(&d);
	size_t len = 0, elen = 0;
	uint8_t *got = assemble_paths(src, n, &len, &d);
	char *want = ulp_read_file(expected, &elen, &d);
	bool same = got && want && len == elen && memcmp(got, want, len) == 0;
	if (same) {
		t->pass++;
	} else if (is_known_failure(expected)) {
		t->known++;
	} else {
		char msg[800] = "";
		if (!got)
			ulp_diag_format(&d, msg, sizeof msg);
		cr_log_error("%s: %s", expected, got ? "bytes differ" : msg);
	}
	free(got);
	free(want);
}

static char *join(const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = malloc(n);
	cr_assert_not_null(p);
	snprintf(p, n, "%s/%s", dir, name);
	return p;
}

static bool ends_with(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);
	return a >= b && strcmp(s + a - b, suf) == 0;
}

/* One case per source base name X in a folder: X.shbin from X.v.pica (or
 * X.vsh) followed by X.g.pica; for pairs also X.v.shbin and X.g.shbin. */
static void scan_folder(struct tally *t, const char *dir)
{
	DIR *dp = opendir(dir);
	if (!dp)
		return;
	struct dirent *de;
	while ((de = readdir(dp)) != NULL) {
		const char *nm = de->d_name;
		const char *suffix = ends_with(nm, ".v.pica") ? ".v.pica" : ends_with(nm, ".vsh") ? ".vsh"
		                   : ends_with(nm, ".g.pica") ? ".g.pica" : NULL;
		if (!suffix)
			continue;
		char base[256];
		snprintf(base, sizeof base, "%.*s", (int)(strlen(nm) - strlen(suffix)), nm);
		char gname[300], vname[300], out[300];
		snprintf(gname, sizeof gname, "%s.g.pica", base);
		snprintf(vname, sizeof vname, "%s.v.pica", base);
		char *g = join(dir, gname), *v = join(dir, vname);
		bool has_g = exists(g), has_v = exists(v);
		if (!strcmp(suffix, ".g.pica") && has_v) {    /* handled with its VS */
			free(g);
			free(v);
			continue;
		}
		char *self = join(dir, nm);
		snprintf(out, sizeof out, "%s.shbin", base);
		char *whole = join(dir, out);
		if (strcmp(suffix, ".g.pica") && has_g) {
			char *pair[2] = { self, g };
			check_case(t, pair, 2, whole);
			snprintf(out, sizeof out, "%s.v.shbin", base);
			char *vo = join(dir, out);
			check_case(t, &self, 1, vo);
			snprintf(out, sizeof out, "%s.g.shbin", base);
			char *go = join(dir, out);
			check_case(t, &g, 1, go);
			free(vo);
			free(go);
		} else {
			check_case(t, &self, 1, whole);
		}
		free(whole);
		free(self);
		free(g);
		free(v);
	}
	closedir(dp);
}

Test(pica_asm, corpus_byte_identical)
{
	char *root = test_corpus_path("pica");
	DIR *dp = opendir(root);
	cr_assert_not_null(dp, "corpus folder %s missing", root);
	struct tally t = { 0 };
	struct dirent *de;
	while ((de = readdir(dp)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		char *dir = join(root, de->d_name);
		scan_folder(&t, dir);
		free(dir);
	}
	closedir(dp);
	fprintf(stderr, "pica asm conformance: %d/%d byte-identical (%d known failures)\n", t.pass, t.total, t.known);
	cr_assert_geq(t.total, 26, "expected at least the 26 visible corpus cases, found %d", t.total);
	cr_assert_eq(t.pass + t.known, t.total, "%d of %d cases differ from picasso", t.total - t.pass - t.known, t.total);
	free(root);
}

/* ---- probes for constructs the corpus does not exercise ---- */

static bool asm_text(const char *text, struct shbin *s, ulp_diag *d)
{
	struct pica_asm_file f = { "probe.pica", text, strlen(text) };
	ulp_diag_clear(d);
	return pica_assemble(&f, 1, NULL, s, d);
}

static void decode_at(const struct shbin *s, size_t i, struct pica_inst *in)
{
	cr_assert_lt(i, s->ncode);
	cr_assert(pica_decode_prog(s->code[i], s->opdesc, s->nopdesc, in));
}

static const char PROBE_FLOW[] =
	".fvec u0\n"                           /* c0 */
	".bool flag\n"                         /* b0 */
	".consti loopc(2, 0, 1, 0)\n"          /* i3 */
	".constf k(1.0, 2.0, 3.0, 4.0)\n"      /* c95 */
	".constfa arr[3]\n"                    /* c92..c94 */
	".constfa (0.5, 0.5, 0.5, 0.5)\n"
	".end\n"
	".setf c10(1.0, 0.0, 0.0, 0.0)\n"
	".seti i0(1, 2, 3, -1)\n"
	".setb b1 true\n"
	".proc main\n"
	"    for loopc\n"                       /* 0 */
	"        add r0, u0[aL], r0\n"         /* 1 */
	"        breakc cmp.x\n"               /* 2, then padding NOP at 3 */
	"    .end\n"
	"    callc cmp.x && !cmp.y, sub\n"     /* 4 */
	"    callu flag, sub\n"                /* 5 */
	"    ifu flag\n"                       /* 6 */
	"        dph r1, r2, c1\n"             /* 7: DPHI */
	"    .end\n"
	"    jmpu !flag, skip\n"               /* 8 */
	"    nop\n"                            /* 9 */
	"skip:\n"
	"    ex2 r3, r1.y\n"                   /* 10 */
	"    mad r4, r1, r2, c3\n"             /* 11: MADI */
	"    dst r5, c2, r1\n"                 /* 12 */
	"    litp r6, r1\n"                    /* 13 */
	"    lg2 r7, -c4.w\n"                  /* 14 */
	"    break\n"                          /* 15 */
	"    end\n"                            /* 16 */
	".end\n"
	".proc sub\n"
	"    sgei r5, r1, c2\n"                /* 17: SGEI */
	"    slt r5, c2, r1\n"                 /* 18: SLT */
	"    call sub2\n"                      /* 19, padding NOP at 20 */
	".end\n"
	".proc sub2\n"
	".end\n";                              /* empty: one padding NOP at 21 */

Test(pica_asm, flow_control_and_forms)
{
	struct shbin s;
	ulp_diag d;
	cr_assert(asm_text(PROBE_FLOW, &s, &d), "%s", d.msg);
	cr_assert_eq(s.ncode, 22u);
	struct pica_inst in;
	decode_at(&s, 0, &in);
	cr_assert_eq(in.op, PICA_OP_LOOP);
	cr_assert_eq(in.uniform_id, 3);      /* .consti takes i3 first */
	cr_assert_eq(in.target, 3);          /* LOOP DST = last body word incl. padding */
	cr_assert_eq(s.code[0], 0x29u << 26 | 3u << 22 | 3u << 10);
	decode_at(&s, 1, &in);
	cr_assert_eq(in.src[0].reg, 0x20);
	cr_assert_eq(in.src[0].idx, PICA_IDX_AL);
	cr_assert_eq(s.code[2], 0x23u << 26 | 1u << 25 | 1u << 24 | 2u << 22);   /* breakc cmp.x */
	cr_assert_eq(pica_op_of_word(s.code[3]), PICA_OP_NOP);
	decode_at(&s, 4, &in);
	cr_assert_eq(in.op, PICA_OP_CALLC);
	cr_assert_eq(in.cond, PICA_COND_AND);
	cr_assert(in.ref_x && !in.ref_y);
	cr_assert_eq(in.target, 17);
	cr_assert_eq(in.num, 4);             /* sgei, slt, call, padding nop */
	decode_at(&s, 5, &in);
	cr_assert_eq(s.code[5], 0x26u << 26 | 0u << 22 | 17u << 10 | 4u);
	decode_at(&s, 6, &in);
	cr_assert_eq(in.op, PICA_OP_IFU);
	cr_assert_eq(in.target, 8);
	cr_assert_eq(in.num, 0);
	decode_at(&s, 7, &in);
	cr_assert_eq(in.op, PICA_OP_DPHI);
	cr_assert_eq(in.src[0].reg, 0x12);
	cr_assert_eq(in.src[1].reg, 0x21);
	cr_assert_eq(s.code[8], 0x2Du << 26 | 0u << 22 | 10u << 10 | 1u);       /* jmpu !b0 */
	decode_at(&s, 10, &in);
	cr_assert_eq(in.op, PICA_OP_EX2);
	cr_assert_eq(in.src[0].swz[0], 1);
	decode_at(&s, 11, &in);
	cr_assert_eq(in.op, PICA_OP_MADI);
	cr_assert_eq(in.src[2].reg, 0x23);
	cr_assert_lt(in.desc_id, 32);
	decode_at(&s, 12, &in);
	cr_assert_eq(in.op, PICA_OP_DST);
	decode_at(&s, 13, &in);
	cr_assert_eq(in.op, PICA_OP_LITP);
	decode_at(&s, 14, &in);
	cr_assert_eq(in.op, PICA_OP_LG2);
	cr_assert(in.src[0].neg);
	cr_assert_eq(in.src[0].swz[0], 3);
	cr_assert_eq(s.code[15], 0x20u << 26);
	decode_at(&s, 17, &in);
	cr_assert_eq(in.op, PICA_OP_SGEI);
	decode_at(&s, 18, &in);
	cr_assert_eq(in.op, PICA_OP_SLT);
	decode_at(&s, 19, &in);
	cr_assert_eq(in.target, 21);
	cr_assert_eq(in.num, 1);
	cr_assert_eq(pica_op_of_word(s.code[20]), PICA_OP_NOP);
	cr_assert_eq(pica_op_of_word(s.code[21]), PICA_OP_NOP);

	cr_assert_eq(s.ndvle, 1u);
	const struct shbin_dvle *e = &s.dvle[0];
	cr_assert_eq(e->main, 0u);
	cr_assert_eq(e->endmain, 17u);
	/* constants in source order; .constfa emits its elements at .end */
	cr_assert_eq(e->nconsts, 8u);
	cr_assert_eq(e->consts[0].type, SHBIN_CONST_IVEC);
	cr_assert_eq(e->consts[0].reg, 3);
	cr_assert_eq(e->consts[0].data[0], 0x00010002u);
	cr_assert_eq(e->consts[1].reg, 95);
	cr_assert_eq(e->consts[1].data[3], 0x410000u);                 /* 4.0 */
	cr_assert_eq(e->consts[2].reg, 92);
	cr_assert_eq(e->consts[2].data[0], 0x3E0000u);                 /* 0.5 */
	cr_assert_eq(e->consts[3].reg, 93);
	cr_assert_eq(e->consts[3].data[0], 0u);                        /* zero-filled tail */
	cr_assert_eq(e->consts[4].reg, 94);
	cr_assert_eq(e->consts[5].reg, 10);
	cr_assert_eq(e->consts[6].type, SHBIN_CONST_IVEC);
	cr_assert_eq(e->consts[6].data[0], 0xFF030201u);
	cr_assert_eq(e->consts[7].type, SHBIN_CONST_BOOL);
	cr_assert_eq(e->consts[7].reg, 1);
	cr_assert_eq(e->consts[7].data[0], 1u);
	cr_assert_eq(s.dvle[0].nuniforms, 2u);
	cr_assert_eq(e->uniforms[0].first, 0x10);                      /* u0 = c0 */
	cr_assert_eq(e->uniforms[1].first, 0x78);                      /* flag = b0 */
	shbin_free(&s);
	cr_assert(asm_text(".setb b1 off\n.proc main\n end\n.end\n", &s, &d));
	cr_assert_eq(s.dvle[0].consts[0].data[0], 0u);
	shbin_free(&s);
}

/* More than 32 descriptors before the first MAD: picasso swaps the MAD's
 * entry with the lowest entry no MAD uses and renumbers earlier users. */
Test(pica_asm, mad_descriptor_swap)
{
	char src[8192];
	size_t n = 0;
	n += (size_t)snprintf(src + n, sizeof src - n, ".proc main\n");
	for (int i = 0; i < 33; i++) {
		int a = i & 3, b = (i >> 2) & 3, c = (i >> 4) & 3;
		n += (size_t)snprintf(src + n, sizeof src - n, "  mov r0, r1.%c%c%cw\n", "xyzw"[a], "xyzw"[b], "xyzw"[c]);
	}
	n += (size_t)snprintf(src + n, sizeof src - n, "  mad r2, r3, r4.wzyx, r5.yyyy\n  mov r0, r1.xxxw\n  end\n.end\n");
	struct shbin s;
	ulp_diag d;
	cr_assert(asm_text(src, &s, &d), "%s", d.msg);
	cr_assert_eq(s.nopdesc, 34u);
	struct pica_inst in;
	decode_at(&s, 33, &in);
	cr_assert_eq(in.op, PICA_OP_MAD);
	cr_assert_eq(in.desc_id, 0);                       /* swapped down from 33 */
	cr_assert_eq(in.src[1].swz[0], 3);                 /* its descriptor moved with it */
	cr_assert_eq(s.code[0] & 0x7F, 33u);              /* the first mov was renumbered */
	decode_at(&s, 0, &in);
	cr_assert_eq(in.src[0].swz[0], 0);
	cr_assert_eq(in.src[0].swz[1], 0);
	decode_at(&s, 34, &in);                            /* same as the first mov */
	cr_assert_eq(in.desc_id, 33);
	shbin_free(&s);
}

Test(pica_asm, multi_file_linking)
{
	const char *lib = ".nodvle\n.fvec shared[2]\n.proc helper\n  add r0, shared, r0\n.end\n";
	const char *vs = ".fvec mine\n.fvec shared[2]\n.proc main\n  call helper\n  end\n.end\n";
	struct pica_asm_file f[2] = { { "lib.pica", lib, strlen(lib) }, { "vs.pica", vs, strlen(vs) } };
	struct shbin s;
	ulp_diag d;
	ulp_diag_clear(&d);
	cr_assert(pica_assemble(f, 2, NULL, &s, &d), "%s", d.msg);
	cr_assert_eq(s.ndvle, 1u);                          /* .nodvle file has none */
	cr_assert_eq(s.dvle[0].main, 1u);
	struct pica_inst in;
	decode_at(&s, 1, &in);
	cr_assert_eq(in.op, PICA_OP_CALL);
	cr_assert_eq(in.target, 0);
	cr_assert_eq(in.num, 1);
	/* shared keeps its first position (c0-c1); mine follows at c2 */
	cr_assert_eq(s.dvle[0].nuniforms, 2u);
	cr_assert_eq(s.dvle[0].uniforms[0].first, 0x10);
	cr_assert_eq(s.dvle[0].uniforms[0].last, 0x11);
	cr_assert_str_eq(s.dvle[0].uniforms[0].name, "shared");
	cr_assert_eq(s.dvle[0].uniforms[1].first, 0x12);
	shbin_free(&s);
	/* --no-nop leaves an empty procedure empty */
	const char *e = ".proc main\n  call x\n.end\n.proc x\n  end\n.end\n";
	struct pica_asm_file one = { "n.pica", e, strlen(e) };
	struct pica_asm_opts opts = { .no_nop = true };
	cr_assert(pica_assemble(&one, 1, &opts, &s, &d), "%s", d.msg);
	cr_assert_eq(s.ncode, 2u);
	shbin_free(&s);
}

/* ---- diagnostics ---- */

struct bad_case { const char *src; const char *where; const char *msg; };

static const struct bad_case BAD[] = {
	{ "mov r0, v0\n", "probe.pica:1:1", "instruction outside block" },
	{ ".proc main\n  add r0, v0, v1\n.end\n", "probe.pica:2:", "different input registers" },
	{ ".proc main\n  mad r0, v0, r1, v1\n.end\n", "probe.pica:2:", "different input registers" },
	{ ".proc main\n  mov r0, v15\n.end\n", "probe.pica:2:11", "invalid input register" },
	{ ".proc main\n  mov r0, c8[-2]\n.end\n", "probe.pica:2:", "invalid register offset" },
	{ ".proc main\n  mov r0, c8[a0.x-2]\n.end\n", "probe.pica:2:", "negative offsets" },
	{ ".proc main\n  mov r0, r1[a0.x]\n.end\n", "probe.pica:2:", "only be used with floating-point uniforms" },
	{ ".proc main\n  mov r0, c95[1]\n.end\n", "probe.pica:2:", "register offset out of range" },
	{ ".proc main\n  mov r0, r1\n", "probe.pica:1", "unclosed block" },
	{ ".proc main\n  jmpc cmp.x, nowhere\n  nop\n.end\n", "probe.pica:2:15", "label 'nowhere' is undefined" },
	{ ".proc main\n  call nothere\n.end\n", "probe.pica:2:8", "procedure 'nothere' is undefined" },
	{ ".proc foo\n  end\n.end\n", "probe.pica:1", "entrypoint 'main' is undefined" },
	{ ".proc main\n  mov r0.xyzwx, r1\n.end\n", "probe.pica:2:", "invalid swizzling mask" },
	{ ".proc main\n  frob r0\n.end\n", "probe.pica:2:3", "invalid instruction" },
	{ ".proc main\n  mad r0, c0, r1, r2\n.end\n", "probe.pica:2:", "invalid source1 register" },
	{ ".proc main\n  add r0, r1, c2\n.end\n", "probe.pica:2:", "invalid source2 register" },
	{ ".proc main\n  setemit 3\n.end\n", "probe.pica:2:", "out of range" },
	{ ".proc main\n  setemit 0, sideways\n.end\n", "probe.pica:2:", "unknown setemit flag" },
	{ ".fvec a\n.fvec a\n", "probe.pica:2:", "identifier already used" },
	{ ".proc main\n  ifu !b0\n  nop\n  .end\n.end\n", "probe.pica:2:", "not supported by ifu" },
	{ ".gsh point c0\n.gsh point c0\n", "probe.pica:2:", ".gsh had already been used" },
	{ ".out x position\n.gsh point c0\n", "probe.pica:2:", "must be used before" },
	{ ".gsh point c0\n.proc main\n  mov o7, r0\n.end\n", "probe.pica:3:", "invalid output register" },
	{ ".gsh fixed c8 c8 4\n", "probe.pica:1:", "overlaps uniform allocation pool" },
	{ ".constf k(1.0, 2.0, 3.0)\n", "probe.pica:1:", "expected 4 values" },
	{ ".constf k(1.0, 2.0, abc, 4)\n", "probe.pica:1:", "invalid number" },
	{ ".proc main\n  cmp r0, xx, eq, r1\n.end\n", "probe.pica:2:", "invalid conditional operator" },
	{ ".proc main\n  mov r0, r1, r2\n.end\n", "probe.pica:2:", "too many parameters" },
	{ ".proc main\n  mov r0\n.end\n", "probe.pica:2:", "missing parameter" },
	{ ".proc main\n  mova a3, r0\n.end\n", "probe.pica:2:", "invalid destination register for mova" },
	{ ".proc main\n  jmpc cmp.x && cmp.x, l\nl:\n  nop\n.end\n", "probe.pica:2:", "checked twice" },
	{ ".proc main\n  ifc cmp.z\n  .end\n.end\n", "probe.pica:2:", "invalid condition register" },
	{ ".proc main\n  .else\n.end\n", "probe.pica:2:", "unmatched IF" },
	{ ".end\n", "probe.pica:1:", "unmatched block" },
	{ ".proc main\n  for b0\n  .end\n.end\n", "probe.pica:2:", "integer vector uniform" },
	{ ".out o position\n.out p color o0\n", "probe.pica:2:", "collides" },
	{ ".out o position o8\n", "probe.pica:1:", "only be a dummy output" },
	{ ".alias r3 r4\n", "probe.pica:1:", "cannot redefine register" },
	{ ".proc main\n  mov r0, foo\n.end\n", "probe.pica:2:11", "unknown register or alias" },
	{ ".in a v15\n", "probe.pica:1:", "invalid input register" },
	{ ".proc main\n  nop\n.end\n.proc main\n  nop\n.end\n", "probe.pica:4:", "proc already exists" },
	{ ".nodvle\n.proc main\n  nop\n.end\n", "probe.pica", "no DVLEs" },
	{ ".bogus x\n", "probe.pica:1:1", "invalid directive" },
	{ "x:\nx:\n", "probe.pica:2:", "duplicate label" },
};

Test(pica_asm, diagnostics)
{
	for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
		struct shbin s;
		ulp_diag d;
		bool ok = asm_text(BAD[i].src, &s, &d);
		cr_assert_not(ok, "case %zu assembled: %s", i, BAD[i].src);
		cr_assert(d.set, "case %zu: no diagnostic", i);
		char msg[1024];
		ulp_diag_format(&d, msg, sizeof msg);
		cr_assert(strstr(msg, BAD[i].where) == msg, "case %zu: '%s' does not start with '%s'", i, msg, BAD[i].where);
		cr_assert(strstr(msg, BAD[i].msg), "case %zu: '%s' lacks '%s'", i, msg, BAD[i].msg);
	}
}

Test(pica_asm, limits)
{
	/* 513 instructions in a vertex shader */
	size_t cap = 600 * 8 + 64, n = 0;
	char *src = malloc(cap);
	cr_assert_not_null(src);
	n += (size_t)snprintf(src + n, cap - n, ".proc main\n");
	for (int i = 0; i < 513; i++)
		n += (size_t)snprintf(src + n, cap - n, "  nop\n");
	snprintf(src + n, cap - n, ".end\n");
	struct shbin s;
	ulp_diag d;
	cr_assert_not(asm_text(src, &s, &d));
	cr_assert(strstr(d.msg, "vertex shader code memory"), "%s", d.msg);
	cr_assert_eq(d.line, 514);
	free(src);
	/* 129 distinct operand descriptors */
	cap = 200 * 40;
	src = malloc(cap);
	cr_assert_not_null(src);
	n = (size_t)snprintf(src, cap, ".proc main\n");
	for (int i = 0; i < 129; i++)
		n += (size_t)snprintf(src + n, cap - n, "  dp4 r0, %sr1.%c%c%c%c, r2\n", i & 128 ? "-" : "",
		                      "xyzw"[i & 3], "xyzw"[i >> 2 & 3], "xyzw"[i >> 4 & 3], "xyzw"[i >> 6 & 1]);
	snprintf(src + n, cap - n, ".end\n");
	cr_assert_not(asm_text(src, &s, &d));
	cr_assert(strstr(d.msg, "too many operand descriptors"), "%s", d.msg);
	free(src);
}

Test(pica_asm, cli)
{
	char *out = NULL, *err = NULL;
	cr_assert_eq(test_run_cli("pica asm --help", &out, &err), 0);
	cr_assert(strstr(out, "usage: ulpsim pica asm"));
	free(out);
	free(err);
	cr_assert_eq(test_run_cli("pica frobnicate", &out, &err), 2);
	cr_assert(strstr(err, "ulpsim: pica: unknown subcommand"), "%s", err);
	free(out);
	free(err);
	char *dir = test_tmpdir();
	cr_assert_not_null(dir);
	char path[600], args[1400];
	snprintf(path, sizeof path, "%s/bad.v.pica", dir);
	cr_assert(ulp_write_file(path, ".proc main\n  mov r0, v15\n.end\n", 31, NULL));
	snprintf(args, sizeof args, "pica asm -o %s/bad.shbin %s", dir, path);
	cr_assert_eq(test_run_cli(args, &out, &err), 2);
	cr_assert(strstr(err, "bad.v.pica:2:11: invalid input register"), "%s", err);
	snprintf(path, sizeof path, "%s/bad.shbin", dir);
	cr_assert_not(exists(path), "a failed run left an output file");
	free(out);
	free(err);
	char *src = test_corpus_path("pica/geoshader/program.v.pica");
	char *gsrc = test_corpus_path("pica/geoshader/program.g.pica");
	char *want = test_corpus_path("pica/geoshader/program.shbin");
	snprintf(args, sizeof args, "pica asm -o %s/ok.shbin %s %s", dir, src, gsrc);
	cr_assert_eq(test_run_cli(args, &out, &err), 0, "%s", err);
	snprintf(path, sizeof path, "%s/ok.shbin", dir);
	size_t la, lb;
	ulp_diag d;
	ulp_diag_clear(&d);
	char *a = ulp_read_file(path, &la, &d), *b = ulp_read_file(want, &lb, &d);
	cr_assert(a && b && la == lb && !memcmp(a, b, la));
	remove(path);
	snprintf(path, sizeof path, "%s/bad.v.pica", dir);
	remove(path);
	remove(dir);
	free(a);
	free(b);
	free(out);
	free(err);
	free(src);
	free(gsrc);
	free(want);
	free(dir);
}

/* Mutated corpus sources: every outcome is either an SHBIN or a diagnostic
 * with a line number; never a crash (the sanitizer run checks memory). */
Test(pica_asm, mutated_sources_never_crash)
{
	static const char *const srcs[] = {
		"pica/loop_subdivision/program.g.pica", "pica/particles/particle.g.pica",
		"pica/normal_mapping/vshader.v.pica", "pica/geoshader/program.g.pica",
	};
	static const char junk[] = "-[].,;:!&|(#$_ \t\nxyzwcrvo0123456789";
	size_t runs = 0, failed = 0;
	for (size_t k = 0; k < sizeof srcs / sizeof srcs[0]; k++) {
		char *p = test_corpus_path(srcs[k]);
		ulp_diag d;
		ulp_diag_clear(&d);
		size_t len;
		char *text = ulp_read_file(p, &len, &d);
		cr_assert_not_null(text, "%s", d.msg);
		char *copy = malloc(len + 1);
		cr_assert_not_null(copy);
		for (size_t step = 0; step < len; step += 3) {
			for (int variant = 0; variant < 3; variant++) {
				size_t n = len;
				memcpy(copy, text, len);
				if (variant == 0)
					n = step;                                   /* truncation */
				else
					copy[step] = junk[(step * 7 + (size_t)variant) % (sizeof junk - 1)];
				struct pica_asm_file f = { "m.pica", copy, n };
				struct shbin s;
				ulp_diag_clear(&d);
				if (pica_assemble(&f, 1, NULL, &s, &d)) {
					shbin_free(&s);
				} else {
					failed++;
					cr_assert(d.set && d.msg[0], "%s step %zu: no message", srcs[k], step);
				}
				runs++;
			}
		}
		free(copy);
		free(text);
		free(p);
	}
	cr_assert_gt(runs, 3000u);
	cr_assert_gt(failed, 0u);
}

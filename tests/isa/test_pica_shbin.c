/* SHBIN reader/writer, malformed inputs, and the disassembler round trip. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fileio.h"
#include "isa/pica/pica_asm.h"
#include "isa/pica/pica_disasm.h"
#include "isa/pica/shbin.h"
#include "tests/test_util.h"

struct blob { char *path; uint8_t *data; size_t len; };

/* Every *.shbin in the corpus (malloc'd array, count in *n). */
static struct blob *corpus_shbins(size_t *n)
{
	char **paths = test_corpus_files("pica", ".shbin", n);
	struct blob *v = calloc(*n ? *n : 1, sizeof *v);
	cr_assert_not_null(v);
	for (size_t i = 0; i < *n; i++) {
		ulp_diag d;
		ulp_diag_clear(&d);
		size_t len;
		char *data = ulp_read_file(paths[i], &len, &d);
		cr_assert_not_null(data, "%s", d.msg);
		v[i] = (struct blob){ paths[i], (uint8_t *)data, len };
	}
	free(paths);                    /* the strings now belong to the blobs */
	return v;
}

static void free_blobs(struct blob *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].path);
		free(v[i].data);
	}
	free(v);
}

Test(pica_shbin, read_write_identity)
{
	size_t n;
	struct blob *v = corpus_shbins(&n);
	cr_assert_geq(n, 26u);
	for (size_t i = 0; i < n; i++) {
		struct shbin s;
		ulp_diag d;
		ulp_diag_clear(&d);
		cr_assert(shbin_read(v[i].data, v[i].len, v[i].path, &s, &d), "%s: %s", v[i].path, d.msg);
		cr_assert_geq(s.ndvle, 1u);
		uint8_t *out;
		size_t len;
		cr_assert(shbin_write(&s, &out, &len, &d));
		cr_assert(len == v[i].len && !memcmp(out, v[i].data, len), "%s: write(read(x)) != x", v[i].path);
		free(out);
		shbin_free(&s);
	}
	free_blobs(v, n);
}

Test(pica_shbin, geoshader_layout)
{
	/* pica200.md §3: DVLB N=2; DVLP code n=46, opdesc n=8; DVLEs type 0 main 0 end 4, type 1 main 4 end 26 */
	char *p = test_corpus_path("pica/geoshader/program.shbin");
	ulp_diag d;
	ulp_diag_clear(&d);
	size_t len;
	char *data = ulp_read_file(p, &len, &d);
	cr_assert_not_null(data);
	struct shbin s;
	cr_assert(shbin_read((uint8_t *)data, len, p, &s, &d), "%s", d.msg);
	cr_assert_eq(s.ndvle, 2u);
	cr_assert_eq(s.ncode, 46u);
	cr_assert_eq(s.nopdesc, 8u);
	cr_assert_eq(s.dvle[0].type, SHBIN_VS);
	cr_assert_eq(s.dvle[0].endmain, 4u);
	cr_assert_eq(s.dvle[1].type, SHBIN_GS);
	cr_assert_eq(s.dvle[1].main, 4u);
	cr_assert_eq(s.dvle[1].endmain, 26u);
	cr_assert_eq(s.dvle[1].gs_mode, SHBIN_GS_POINT);
	cr_assert_str_eq(s.dvle[1].uniforms[0].name, "projection");
	shbin_free(&s);
	free(data);
	free(p);
}

/* Truncate every corpus SHBIN at every length: always a diagnostic with a
 * byte offset inside the file, never a crash or an out-of-bounds read
 * (the sanitizer run checks the latter). */
Test(pica_shbin, truncated_files)
{
	size_t n;
	struct blob *v = corpus_shbins(&n);
	size_t checked = 0;
	for (size_t i = 0; i < n; i++) {
		for (size_t cut = 0; cut < v[i].len; cut++) {
			uint8_t *copy = malloc(cut ? cut : 1);      /* exact-size buffer for ASan */
			cr_assert_not_null(copy);
			memcpy(copy, v[i].data, cut);
			struct shbin s;
			ulp_diag d;
			ulp_diag_clear(&d);
			bool ok = shbin_read(copy, cut, "t.shbin", &s, &d);
			/* the last bytes may be symbol-table padding: only those may go */
			if (ok) {
				cr_assert_geq(cut, v[i].len - 3, "%s cut at %zu accepted", v[i].path, cut);
				shbin_free(&s);
			} else {
				cr_assert(d.set && d.msg[0], "%s cut at %zu: no message", v[i].path, cut);
				cr_assert(d.offset >= 0 && (size_t)d.offset <= v[i].len, "%s cut at %zu: offset %ld",
				          v[i].path, cut, d.offset);
			}
			free(copy);
			checked++;
		}
	}
	cr_assert_gt(checked, 5000u);
	free_blobs(v, n);
}

static void disasm_quietly(const struct shbin *s)
{
	char *text = NULL;
	size_t tl = 0;
	FILE *f = open_memstream(&text, &tl);
	cr_assert_not_null(f);
	ulp_diag d;
	ulp_diag_clear(&d);
	bool exact;
	cr_assert(pica_disasm(s, f, &exact, &d));
	fclose(f);
	cr_assert_gt(tl, 0u);
	free(text);
}

/* Flip bytes everywhere: the reader either rejects with a message or the
 * file is still consistent enough to disassemble and write back. */
Test(pica_shbin, flipped_bytes)
{
	size_t n;
	struct blob *v = corpus_shbins(&n);
	static const uint8_t flips[] = { 0xFF, 0x01, 0x80, 0x10 };
	size_t rejected = 0, accepted = 0;
	for (size_t i = 0; i < n; i++) {
		uint8_t *copy = malloc(v[i].len);
		cr_assert_not_null(copy);
		for (size_t at = 0; at < v[i].len; at++) {
			for (size_t k = 0; k < sizeof flips; k++) {
				memcpy(copy, v[i].data, v[i].len);
				copy[at] ^= flips[k];
				struct shbin s;
				ulp_diag d;
				ulp_diag_clear(&d);
				if (shbin_read(copy, v[i].len, "f.shbin", &s, &d)) {
					accepted++;
					disasm_quietly(&s);
					uint8_t *out;
					size_t len;
					if (shbin_write(&s, &out, &len, &d))
						free(out);
					shbin_free(&s);
				} else {
					rejected++;
					cr_assert(d.msg[0] && d.offset >= 0 && (size_t)d.offset < v[i].len + 4,
					          "%s flip at %zu: bad diagnostic", v[i].path, at);
				}
			}
		}
		free(copy);
	}
	cr_assert_gt(rejected, 0u);
	cr_assert_gt(accepted, 0u);
	free_blobs(v, n);
}

Test(pica_shbin, specific_malformations)
{
	char *p = test_corpus_path("pica/simple_tri/vshader.shbin");
	ulp_diag d;
	ulp_diag_clear(&d);
	size_t len;
	uint8_t *data = (uint8_t *)ulp_read_file(p, &len, &d);
	cr_assert_not_null(data);
	struct { size_t at; uint32_t val; long off; const char *msg; } cases[] = {
		{ 0, 0x12345678, 0, "bad magic" },
		{ 4, 0, 4, "DVLE count" },
		{ 4, 0x40000000, 4, "DVLE count" },
		{ 8, 0xFFFFFF00, 8, "DVLE 0 offset" },
		{ 0x18, 5000, 0x18, "exceeds the 4096-word code memory" },
		{ 0x18, 4000, 0x14, "runs past the end" },
		{ 0x20, 200, 0x20, "exceeds 128" },
		{ 0x8c + 0x0C, 100, 0x8c + 8, "entry range" },
		{ 0x8c + 0x1C, 0x7FFFFFFF, 0x8c + 0x18, "constant table" },
		{ 0x8c + 0x30, 0xFFFFFFF0, 0x8c + 0x30, "uniform table" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		uint8_t *copy = malloc(len);
		cr_assert_not_null(copy);
		memcpy(copy, data, len);
		for (int k = 0; k < 4; k++)
			copy[cases[i].at + (size_t)k] = (uint8_t)(cases[i].val >> (8 * k));
		struct shbin s;
		ulp_diag_clear(&d);
		cr_assert_not(shbin_read(copy, len, "m.shbin", &s, &d), "case %zu accepted", i);
		cr_assert_eq(d.offset, cases[i].off, "case %zu: offset %ld (%s)", i, d.offset, d.msg);
		cr_assert(strstr(d.msg, cases[i].msg), "case %zu: '%s'", i, d.msg);
		free(copy);
	}
	free(data);
	free(p);
}

/* disassemble -> assemble -> the same code words and descriptors */
Test(pica_shbin, disasm_round_trip)
{
	size_t n, singles = 0;
	struct blob *v = corpus_shbins(&n);
	for (size_t i = 0; i < n; i++) {
		struct shbin s, r;
		ulp_diag d;
		ulp_diag_clear(&d);
		cr_assert(shbin_read(v[i].data, v[i].len, v[i].path, &s, &d));
		char *text = NULL;
		size_t tl = 0;
		FILE *f = open_memstream(&text, &tl);
		cr_assert_not_null(f);
		bool exact = false;
		cr_assert(pica_disasm(&s, f, &exact, &d));
		fclose(f);
		cr_assert(exact, "%s: disassembly not exact", v[i].path);
		struct pica_asm_file af = { "round.pica", text, tl };
		cr_assert(pica_assemble(&af, 1, NULL, &r, &d), "%s: %s:%d:%d: %s", v[i].path, d.file, d.line, d.col, d.msg);
		cr_assert_eq(r.ncode, s.ncode, "%s", v[i].path);
		cr_assert(!memcmp(r.code, s.code, s.ncode * 4), "%s: code words differ", v[i].path);
		cr_assert_eq(r.nopdesc, s.nopdesc, "%s", v[i].path);
		cr_assert(!memcmp(r.opdesc, s.opdesc, s.nopdesc * 4), "%s: descriptors differ", v[i].path);
		cr_assert_eq(r.dvle[0].main, s.dvle[0].main);
		if (s.ndvle == 1) {
			/* one DVLE: its tables are printed as directives, so the whole file matches */
			uint8_t *out;
			size_t len;
			cr_assert(shbin_write(&r, &out, &len, &d));
			cr_assert(len == v[i].len && !memcmp(out, v[i].data, len), "%s: SHBIN differs after round trip", v[i].path);
			free(out);
			singles++;
		}
		/* one instruction per line, with its address */
		cr_assert(strstr(text, "; 000: "), "%s", v[i].path);
		shbin_free(&r);
		shbin_free(&s);
		free(text);
	}
	cr_assert_geq(singles, 20u);
	free_blobs(v, n);
}

Test(pica_shbin, disasm_text)
{
	char *p = test_corpus_path("pica/particles/particle.shbin");
	char *out = NULL, *err = NULL;
	char args[1200];
	snprintf(args, sizeof args, "pica disasm %s", p);
	cr_assert_eq(test_run_cli(args, &out, &err), 0, "%s", err);
	cr_assert(strstr(out, "; DVLE 1: geometry shader"), "%s", out);
	cr_assert(strstr(out, "gs mode fixed, array at c0, 4 vertices"), "%s", out);
	cr_assert(strstr(out, "uniform b0 multiplyW"));
	cr_assert(strstr(out, "setemit 0, prim inv"));
	cr_assert(strstr(out, "jmpc cmp.x || cmp.y, l_"));
	cr_assert(strstr(out, "ifu b1"));
	cr_assert(strstr(out, ";   .setf c95(0, 1, 3, 0.5)"));
	free(out);
	free(err);
	/* malformed: exit 2 with "file: byte N: msg" */
	char *dir = test_tmpdir();
	char bad[600];
	snprintf(bad, sizeof bad, "%s/cut.shbin", dir);
	cr_assert(ulp_write_file(bad, "DVLB\x01\0\0\0\x0c\0\0\0DVLP", 16, NULL));
	snprintf(args, sizeof args, "pica disasm %s", bad);
	cr_assert_eq(test_run_cli(args, &out, &err), 2);
	cr_assert(strstr(err, "cut.shbin: byte 12: DVLP header runs past the end"), "%s", err);
	free(out);
	free(err);
	cr_assert_eq(test_run_cli("pica disasm --help", &out, &err), 0);
	cr_assert(strstr(out, "usage: ulpsim pica disasm"));
	free(out);
	free(err);
	cr_assert_eq(test_run_cli("pica disasm", &out, &err), 2);
	free(out);
	free(err);
	remove(bad);
	remove(dir);
	free(dir);
	free(p);
}

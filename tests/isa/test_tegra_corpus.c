/* Tegra fragment ISA conformance over the whole shared corpus
 * (corpus/tegra: grate-tests and xf86, each with grate's .words/.disasm):
 *   - assemble -> header and word lines identical to .words
 *   - disassemble (--grate) -> text identical to .disasm
 *   - disassemble (default) -> re-assemble -> identical words
 *   - .fp container and words text round trips. */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/fileio.h"
#include "isa/tegra/fp_container.h"
#include "isa/tegra/fp_words.h"
#include "isa/tegra/tegra_asm.h"
#include "isa/tegra/tegra_disasm.h"
#include "tests/test_util.h"

enum { MAX_PROGS = 128 };

typedef struct corpus_prog {
	char *words;    /* .words path */
	char *source;   /* .txt / fragment.asm path */
	char *disasm;   /* .disasm path */
} corpus_prog;

/* Programs that are expected to differ, with the reason.  Empty today:
 * every corpus program matches. */
static const struct { const char *path_suffix, *reason; } known_failures[] = {
	{ NULL, NULL },
};

static bool is_known_failure(const char *path)
{
	for (size_t i = 0; known_failures[i].path_suffix; i++) {
		size_t n = strlen(path), m = strlen(known_failures[i].path_suffix);
		if (n >= m && strcmp(path + n - m, known_failures[i].path_suffix) == 0)
			return true;
	}
	return false;
}

static char *with_ext(const char *base, size_t stem, const char *ext)
{
	size_t n = stem + strlen(ext) + 1;
	char *p = malloc(n);
	cr_assert_not_null(p);
	snprintf(p, n, "%.*s%s", (int)stem, base, ext);
	return p;
}

static bool exists(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0;
}

static void scan(const char *dir, corpus_prog *progs, int *n)
{
	DIR *d = opendir(dir);
	cr_assert_not_null(d, "cannot open corpus folder %s", dir);
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		size_t len = strlen(dir) + strlen(e->d_name) + 2;
		char *path = malloc(len);
		cr_assert_not_null(path);
		snprintf(path, len, "%s/%s", dir, e->d_name);
		struct stat st;
		if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
			scan(path, progs, n);
			free(path);
			continue;
		}
		size_t pl = strlen(path);
		if (pl > 6 && strcmp(path + pl - 6, ".words") == 0) {
			cr_assert_lt(*n, MAX_PROGS);
			corpus_prog *p = &progs[(*n)++];
			p->words = path;
			p->disasm = with_ext(path, pl - 6, ".disasm");
			p->source = with_ext(path, pl - 6, ".txt");
			if (!exists(p->source)) {
				free(p->source);
				p->source = with_ext(path, pl - 6, ".asm");
			}
			continue;
		}
		free(path);
	}
	closedir(d);
}

static int load_corpus(corpus_prog *progs)
{
	int n = 0;
	char *dir = test_corpus_path("tegra");
	cr_assert_not_null(dir);
	scan(dir, progs, &n);
	free(dir);
	return n;
}

static void free_corpus(corpus_prog *progs, int n)
{
	for (int i = 0; i < n; i++) {
		free(progs[i].words);
		free(progs[i].source);
		free(progs[i].disasm);
	}
}

/* The lines that must be identical: everything but '#' comment lines. */
static char *significant_lines(const char *text)
{
	size_t n = strlen(text);
	char *out = malloc(n + 1);
	cr_assert_not_null(out);
	size_t o = 0;
	for (const char *s = text; *s;) {
		const char *nl = strchr(s, '\n');
		size_t len = nl ? (size_t)(nl - s) + 1 : strlen(s);
		if (s[0] != '#') {
			memcpy(out + o, s, len);
			o += len;
		}
		s += len;
	}
	out[o] = '\0';
	return out;
}

static char *read_text(const char *path, size_t *len)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	char *t = ulp_read_file(path, len, &d);
	cr_assert_not_null(t, "cannot read %s: %s", path, d.msg);
	return t;
}

static bool assemble_file(const char *path, tegra_fp_program *p, ulp_diag *d)
{
	size_t len;
	char *src = read_text(path, &len);
	bool ok = tegra_asm_assemble(src, len, path, p, d);
	free(src);
	return ok;
}

static bool same_words(const tegra_fp_program *a, const tegra_fp_program *b)
{
	char *x = tegra_fp_words_write(a, NULL), *y = tegra_fp_words_write(b, NULL);
	cr_assert(x && y);
	bool same = strcmp(x, y) == 0;
	free(x);
	free(y);
	return same;
}

Test(tegra_corpus, assemble_matches_grate_words)
{
	corpus_prog progs[MAX_PROGS];
	int n = load_corpus(progs), same = 0, known = 0;
	cr_assert_geq(n, 76, "expected the 76 corpus programs, found %d", n);
	tegra_fp_program *p = malloc(sizeof *p);
	cr_assert_not_null(p);
	for (int i = 0; i < n; i++) {
		ulp_diag d;
		ulp_diag_clear(&d);
		bool ok = assemble_file(progs[i].source, p, &d);
		char *want_text = read_text(progs[i].words, NULL);
		char *want = significant_lines(want_text);
		char *got_text = ok ? tegra_fp_words_write(p, progs[i].source) : NULL;
		char *got = got_text ? significant_lines(got_text) : NULL;
		if (got && strcmp(got, want) == 0)
			same++;
		else if (is_known_failure(progs[i].source))
			known++;
		else
			cr_expect_fail("%s: %s", progs[i].source, ok ? "words differ" : d.msg);
		free(want_text);
		free(want);
		free(got_text);
		free(got);
	}
	fprintf(stderr, "tegra asm conformance: %d/%d identical (%d known failures)\n", same, n, known);
	cr_assert_eq(same + known, n);
	free(p);
	free_corpus(progs, n);
}

Test(tegra_corpus, disasm_grate_text_and_roundtrip)
{
	corpus_prog progs[MAX_PROGS];
	int n = load_corpus(progs), text_same = 0, rt_same = 0;
	tegra_fp_program *p = malloc(sizeof *p), *q = malloc(sizeof *q);
	cr_assert(p && q);
	for (int i = 0; i < n; i++) {
		ulp_diag d;
		ulp_diag_clear(&d);
		size_t len;
		char *words = read_text(progs[i].words, &len);
		cr_assert(tegra_fp_load_buffer(words, len, progs[i].words, p, &d), "%s: %s",
		          progs[i].words, d.msg);
		free(words);

		char *grate = tegra_disasm(p, TEGRA_DISASM_GRATE, progs[i].words, &d);
		cr_assert_not_null(grate, "%s: %s", progs[i].words, d.msg);
		char *want = read_text(progs[i].disasm, NULL);
		if (strcmp(grate, want) == 0)
			text_same++;
		else
			cr_expect_fail("%s: --grate text differs from .disasm", progs[i].words);
		free(want);
		free(grate);

		char *text = tegra_disasm(p, 0, progs[i].words, &d);
		cr_assert_not_null(text, "%s: %s", progs[i].words, d.msg);
		if (tegra_asm_assemble(text, strlen(text), "disasm", q, &d) && same_words(p, q))
			rt_same++;
		else
			cr_expect_fail("%s: disasm does not re-assemble to the same words (%s)\n%s",
			               progs[i].words, d.msg, text);
		free(text);
	}
	fprintf(stderr, "tegra disasm: grate text %d/%d identical to .disasm; "
	        "disasm -> asm round trip %d/%d identical\n", text_same, n, rt_same, n);
	cr_assert_eq(text_same, n);
	cr_assert_eq(rt_same, n);
	free(p);
	free(q);
	free_corpus(progs, n);
}

Test(tegra_corpus, container_and_words_roundtrip)
{
	corpus_prog progs[MAX_PROGS];
	int n = load_corpus(progs), ok_count = 0;
	tegra_fp_program *p = malloc(sizeof *p), *q = malloc(sizeof *q);
	tegra_fp_decoded *dec = malloc(sizeof *dec);
	cr_assert(p && q && dec);
	for (int i = 0; i < n; i++) {
		ulp_diag d;
		ulp_diag_clear(&d);
		cr_assert(assemble_file(progs[i].source, p, &d), "%s: %s", progs[i].source, d.msg);
		size_t len;
		uint8_t *img = tegra_fp_container_write(p, &len);
		cr_assert_not_null(img);
		cr_assert(tegra_fp_container_read(img, len, "mem.fp", q, &d), "%s: %s", progs[i].source, d.msg);
		cr_assert(same_words(p, q), "%s: .fp round trip changed the program", progs[i].source);
		cr_assert_eq(memcmp(p->uniforms, q->uniforms, sizeof p->uniforms), 0);
		free(img);
		char *w = tegra_fp_words_write(p, "x");
		cr_assert(tegra_fp_words_read(w, strlen(w), "mem.words", q, &d), "%s: %s", progs[i].source, d.msg);
		cr_assert(same_words(p, q));
		free(w);
		cr_assert(tegra_fp_decode(p, dec, NULL, &d), "%s: %s", progs[i].source, d.msg);
		cr_assert_eq(dec->exec_count, p->exec_count);
		ok_count++;
	}
	cr_assert_eq(ok_count, n);
	free(p);
	free(q);
	free(dec);
	free_corpus(progs, n);
}

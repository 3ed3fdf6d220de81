/* Reproducers of fuzzing findings (tests/fuzz_repro/<input>/NAME, checked in
 * with NAME.expect): each file goes to the entry point its fuzz target
 * feeds (fuzz/fuzz_<input>.c), and the outcome must be NAME.expect's: "ok"
 * (accepted and, for traces, replayed) or a substring of the error.  Under
 * make san the same run catches the sanitizer reports the finding was. */
#include <criterion/criterion.h>
#include <sys/resource.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/fileio.h"
#include "base/image.h"
#include "frontends/tgsi/tgsi.h"
#include "fuzz/fuzz_gl.h"
#include "fuzz/fuzz_report.h"
#include "isa/pica/pica_asm.h"
#include "isa/tegra/tegra_asm.h"
#include "traces/piglit/piglit.h"
#include "traces/replay/replay.h"
#include "traces/trace.h"
#include "tests/test_util.h"

#define REPRO "tests/fuzz_repro"

/* Each feeder: true when accepted; else the error in msg. */
typedef bool (*feeder)(const char *text, size_t len, const char *name, char *msg, size_t n);

static bool fail_with(const ulp_diag *d, char *msg, size_t n)
{
	ulp_diag_format(d, msg, n);
	return false;
}

static bool feed_tgsi(const char *text, size_t len, const char *name, char *msg, size_t n)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	tgsi_shader *sh = tgsi_parse(text, len, name, NULL, &d);
	if (!sh)
		return fail_with(&d, msg, n);
	free(tgsi_dump_str(sh, TGSI_DUMP_FLOATS_AS_WRITTEN, NULL));
	bool ok = tgsi_cf_resolve(sh, name, &d);
	tgsi_shader_free(sh);
	return ok || fail_with(&d, msg, n);
}

static bool feed_pica_asm(const char *text, size_t len, const char *name, char *msg, size_t n)
{
	struct pica_asm_file f = { name, text, len };
	struct shbin s;
	memset(&s, 0, sizeof s);
	ulp_diag d;
	ulp_diag_clear(&d);
	if (!pica_assemble(&f, 1, NULL, &s, &d))
		return fail_with(&d, msg, n);
	shbin_free(&s);
	return true;
}

static bool feed_tegra_asm(const char *text, size_t len, const char *name, char *msg, size_t n)
{
	tegra_fp_program *p = malloc(sizeof *p);
	cr_assert(p);
	ulp_diag d;
	ulp_diag_clear(&d);
	bool ok = tegra_asm_assemble(text, len, name, p, &d);
	free(p);
	return ok || fail_with(&d, msg, n);
}

/* as fuzz/fuzz_piglit.c: parse, then apply every state command */
static bool feed_piglit(const char *text, size_t len, const char *name, char *msg, size_t n)
{
	(void)len;
	pg_test t;
	ulp_diag d;
	ulp_diag_clear(&d);
	if (!pg_test_parse(&t, text, NULL, "VERT\nEND\n", "FRAG\nEND\n", name, &d))
		return fail_with(&d, msg, n);
	pg_state *s = calloc(1, sizeof *s);
	cr_assert(s);
	pg_state_init(s, &t, &d);
	bool ok = true;
	for (size_t i = 0; ok && i < t.ncmds; i++) {
		const pg_cmd *c = &t.cmds[i];
		if (c->kind == PG_UNSUPPORTED || c->kind == PG_CLEAR || c->kind == PG_PROBE)
			continue;
		if (c->kind == PG_DRAW_RECT || c->kind == PG_DRAW_ARRAYS) {
			pg_draw dr;
			if ((ok = pg_state_draw(s, &t, c, &dr, msg, n)))
				pg_draw_free(&dr);
		} else {
			ok = pg_state_apply(s, &t, c, msg, n);
		}
	}
	pg_state_free(s);
	free(s);
	pg_test_free(&t);
	return ok;
}

/* as fuzz/fuzz_replay.c: load and replay with a budget */
static bool feed_trace(const char *text, size_t len, const char *name, char *msg, size_t n)
{
	(void)len;
	ulp_config cfg;
	ulp_config_defaults(&cfg);
	replay_opts o;
	memset(&o, 0, sizeof o);
	o.cfg = &cfg;
	o.max_cycles = 10000000;
	replay_result res;
	ulp_diag d;
	ulp_diag_clear(&d);
	bool ok = test_replay_json(text, name, REPRO "/trace", &o, &res, &d);
	return ok || fail_with(&d, msg, n);
}

/* as fuzz/fuzz_png.c */
static bool feed_png(const char *text, size_t len, const char *name, char *msg, size_t n)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	ulp_image *img = ulp_image_decode_png((const uint8_t *)text, len, name, &d);
	ulp_image_free(img);
	return img || fail_with(&d, msg, n);
}

/* as fuzz/fuzz_replay_report.c: reports separated by form feeds, merged,
 * written and read back (fuzz/fuzz_report.h) */
static bool feed_replay_report(const char *text, size_t len, const char *name, char *msg, size_t n)
{
	(void)name;
	ulp_diag d;
	ulp_diag_clear(&d);
	const int rc = fuzz_report_feed((const uint8_t *)text, len, &d);
	cr_expect_geq(rc, 0, "%s: %s", name, d.msg);
	return rc > 0 || fail_with(&d, msg, n);
}

/* as fuzz/fuzz_gl_state.c: shaders and a stream of driver calls (fuzz/fuzz_gl.h) */
static bool feed_gl_state(const char *text, size_t len, const char *name, char *msg, size_t n)
{
	(void)name;
	ulp_diag d;
	ulp_diag_clear(&d);
	return fuzz_gl_feed((const uint8_t *)text, len, &d) || fail_with(&d, msg, n);
}

static const struct { const char *dir; feeder feed; } FEEDERS[] = {
	{ "tgsi", feed_tgsi }, { "pica_asm", feed_pica_asm }, { "tegra_asm", feed_tegra_asm },
	{ "piglit", feed_piglit }, { "trace", feed_trace }, { "png", feed_png },
	{ "replay_report", feed_replay_report }, { "gl_state", feed_gl_state },
};

static char *slurp(const char *path, size_t *len)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	char *s = ulp_read_file(path, len, &d);
	cr_assert(s, "%s", d.msg);
	return s;
}

Test(fuzz_repro, every_reproducer, .timeout = 120)
{
	unsigned checked = 0;
	for (size_t k = 0; k < sizeof FEEDERS / sizeof FEEDERS[0]; k++) {
		char dir[256];
		snprintf(dir, sizeof dir, REPRO "/%s", FEEDERS[k].dir);
		size_t nn;
		char **names = test_list_dir(dir, false, &nn);
		for (size_t i = 0; i < nn; i++) {
			size_t l = strlen(names[i]);
			if (l > 7 && !strcmp(names[i] + l - 7, ".expect"))
				continue;
			char path[512], epath[520];
			snprintf(path, sizeof path, "%s/%s", dir, names[i]);
			snprintf(epath, sizeof epath, "%s.expect", path);
			size_t len, elen;
			char *text = slurp(path, &len);
			char *want = slurp(epath, &elen);
			while (elen && (want[elen - 1] == '\n' || want[elen - 1] == '\r'))
				want[--elen] = '\0';
			char msg[1024] = "";
			bool ok = FEEDERS[k].feed(text, len, path, msg, sizeof msg);
			if (!strcmp(want, "ok"))
				cr_expect(ok, "%s: refused: %s", path, msg);
			else
				cr_expect(!ok && strstr(msg, want), "%s: expected an error with '%s', got %s%s", path,
				          want, ok ? "success" : "", msg);
			checked++;
			free(text);
			free(want);
		}
		test_free_names(names, nn);
	}
	cr_assert_geq(checked, 8, "only %u reproducers found under " REPRO, checked);
	/* bounded memory: png/iccp-2gb.png once took 2 GB (a zTXt chunk
	 * claiming 2 GB that libpng allocated before reading) */
	struct rusage ru;
	cr_assert_eq(getrusage(RUSAGE_SELF, &ru), 0);
	cr_expect_lt(ru.ru_maxrss, 1L << 20, "the reproducers took %ld KB", ru.ru_maxrss);
}

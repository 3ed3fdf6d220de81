/* TGSI fmt conformance: every .tgsi file of both corpora (read in place)
 * parses and reprints byte for byte; the decimal reprint of the hex corpus
 * matches Mesa's own decimal IMM lines (meta.json imm_decimal); the CLI. */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fileio.h"
#include "frontends/tgsi/tgsi.h"
#include "tests/test_util.h"

/* Known failures: none.  Add {"corpus/dir/file", "reason"} rows here if a
 * file ever has to be excused; the test prints them. */
static const struct { const char *path, *reason; } known_failures[] = {
	{ NULL, NULL },
};

static bool is_known_failure(const char *rel)
{
	for (size_t i = 0; i < sizeof known_failures / sizeof known_failures[0]; i++)
		if (known_failures[i].path && strcmp(known_failures[i].path, rel) == 0)
			return true;
	return false;
}

/* Sorted test folder names of a corpus (malloc'd array of malloc'd names). */
static char **list_dirs(const char *corpus, size_t *n)
{
	char *root = test_corpus_path(corpus);
	char **names = test_list_dir(root, true, n);
	free(root);
	return names;
}

static char *read_rel(const char *rel, size_t *len)
{
	char *path = test_corpus_path(rel);
	ulp_diag d;
	ulp_diag_clear(&d);
	char *text = ulp_read_file(path, len, &d);
	free(path);
	return text;
}

/* Parse + dump one file; returns 1 identical, 0 different, -1 absent. */
static int reprint_one(const char *rel, char *why, size_t whylen)
{
	size_t len;
	char *text = read_rel(rel, &len);
	if (!text)
		return -1;
	ulp_diag d;
	ulp_diag_clear(&d);
	tgsi_shader *sh = tgsi_parse(text, len, rel, NULL, &d);
	int ok = 0;
	if (!sh) {
		ulp_diag_format(&d, why, whylen);
	} else {
		size_t olen;
		char *out = tgsi_dump_str(sh, TGSI_DUMP_FLOATS_AS_WRITTEN, &olen);
		cr_assert(out);
		ok = olen == len && memcmp(out, text, len) == 0;
		if (!ok) {
			size_t i = 0;
			while (i < len && i < olen && out[i] == text[i])
				i++;
			snprintf(why, whylen, "differs at byte %zu", i);
		}
		free(out);
		tgsi_shader_free(sh);
	}
	free(text);
	return ok;
}

static void conformance(const char *corpus, size_t min_files)
{
	size_t ndirs;
	char **dirs = list_dirs(corpus, &ndirs);
	static const char *const stages[] = { "vs.tgsi", "fs.tgsi", "gs.tgsi" };
	size_t total = 0, same = 0, excused = 0;
	for (size_t i = 0; i < ndirs; i++) {
		for (size_t s = 0; s < 3; s++) {
			char rel[1024], why[600] = "";
			snprintf(rel, sizeof rel, "%s/%s/%s", corpus, dirs[i], stages[s]);
			int r = reprint_one(rel, why, sizeof why);
			if (r < 0)
				continue;
			total++;
			if (r == 1) {
				same++;
			} else if (is_known_failure(rel)) {
				excused++;
			} else {
				cr_log_error("tgsi fmt: %s: %s", rel, why);
			}
		}
		free(dirs[i]);
	}
	free(dirs);
	fprintf(stderr, "tgsi fmt conformance: %zu/%zu byte-identical (%s)\n", same, total, corpus);
	for (size_t i = 0; i < sizeof known_failures / sizeof known_failures[0]; i++)
		if (known_failures[i].path)
			fprintf(stderr, "  known failure: %s: %s\n", known_failures[i].path,
			        known_failures[i].reason);
	cr_assert_geq(total, min_files, "%s: only %zu .tgsi files found", corpus, total);
	cr_assert_eq(same + excused, total, "%s: %zu of %zu files differ", corpus,
	             total - same - excused, total);
}

Test(tgsi_fmt, corpus_noint_byte_identical, .timeout = 60)
{
	conformance("tgsi-noint", 400);
}

Test(tgsi_fmt, corpus_mesa_byte_identical, .timeout = 60)
{
	conformance("tgsi", 300);
}

/* The hex corpus, reprinted in tgsi_dump's default "%10.4f", gives exactly
 * the IMM lines Mesa printed (meta.json stages.*.imm_decimal). */
Test(tgsi_fmt, noint_decimal_imm_lines_match_mesa, .timeout = 60)
{
	size_t ndirs;
	char **dirs = list_dirs("tgsi-noint", &ndirs);
	size_t checked = 0;
	for (size_t i = 0; i < ndirs; i++) {
		char rel[1024];
		snprintf(rel, sizeof rel, "tgsi-noint/%s/meta.json", dirs[i]);
		size_t mlen;
		char *meta = read_rel(rel, &mlen);
		cr_assert(meta, "%s missing", rel);
		cJSON *root = cJSON_Parse(meta);
		free(meta);
		cr_assert(root, "%s: bad JSON", rel);
		cJSON *stages = cJSON_GetObjectItemCaseSensitive(root, "stages");
		cJSON *st;
		cJSON_ArrayForEach(st, stages) {
			cJSON *lines = cJSON_GetObjectItemCaseSensitive(st, "imm_decimal");
			cJSON *file = cJSON_GetObjectItemCaseSensitive(st, "file");
			if (!cJSON_IsArray(lines) || !cJSON_IsString(file))
				continue;
			char trel[1024];
			snprintf(trel, sizeof trel, "tgsi-noint/%s/%s", dirs[i], file->valuestring);
			size_t len;
			char *text = read_rel(trel, &len);
			cr_assert(text);
			ulp_diag d;
			ulp_diag_clear(&d);
			tgsi_shader *sh = tgsi_parse(text, len, trel, NULL, &d);
			cr_assert(sh, "%s: %s", trel, d.msg);
			char *out = tgsi_dump_str(sh, TGSI_DUMP_FLOATS_DECIMAL, NULL);
			cr_assert(out);
			int k = 0;
			for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
				if (strncmp(line, "IMM[", 4) != 0)
					continue;
				cJSON *want = cJSON_GetArrayItem(lines, k++);
				cr_assert(cJSON_IsString(want), "%s: extra IMM line %s", trel, line);
				cr_assert_str_eq(line, want->valuestring, "%s", trel);
				checked++;
			}
			cr_assert_eq(k, cJSON_GetArraySize(lines), "%s: IMM line count", trel);
			free(out);
			tgsi_shader_free(sh);
			free(text);
		}
		cJSON_Delete(root);
		free(dirs[i]);
	}
	free(dirs);
	cr_assert_gt(checked, 100, "only %zu IMM lines checked", checked);
}

/* ---- CLI ---- */

static int cli(const char *args, char **out, char **err)
{
	return test_run_cli(args, out, err);
}

Test(tgsi_fmt, cli_fmt_stdout_and_output_file)
{
	char *rel = test_corpus_path("tgsi-noint/tests__shaders__ssa__fs-swap-problem/fs.tgsi");
	size_t len;
	ulp_diag d;
	ulp_diag_clear(&d);
	char *want = ulp_read_file(rel, &len, &d);
	cr_assert(want, "%s", rel);
	char args[2048], *out, *err;
	snprintf(args, sizeof args, "tgsi fmt %s", rel);
	cr_assert_eq(cli(args, &out, &err), 0, "stderr: %s", err);
	cr_assert_str_eq(out, want);
	free(out);
	free(err);

	char *dir = test_tmpdir();
	cr_assert(dir);
	char opath[1024];
	snprintf(opath, sizeof opath, "%s/o.tgsi", dir);
	snprintf(args, sizeof args, "tgsi fmt %s -o %s", rel, opath);
	cr_assert_eq(cli(args, &out, &err), 0, "stderr: %s", err);
	cr_assert_str_eq(out, "");
	char *got = ulp_read_file(opath, NULL, &d);
	cr_assert(got);
	cr_assert_str_eq(got, want);
	free(got);
	free(out);
	free(err);
	remove(opath);

	snprintf(args, sizeof args, "tgsi fmt %s --floats decimal", rel);
	cr_assert_eq(cli(args, &out, &err), 0);
	cr_assert(strstr(out, "IMM[0] FLT32 {    1.0000,     0.0000,     0.0000,     0.0000}"),
	          "%s", out);
	free(out);
	free(err);
	remove(dir);
	free(dir);
	free(want);
	free(rel);
}

Test(tgsi_fmt, cli_errors_and_help)
{
	char *out, *err;
	cr_assert_eq(cli("tgsi --help", &out, &err), 0);
	cr_assert(strstr(out, "fmt FILE"));
	free(out);
	free(err);
	cr_assert_eq(cli("help tgsi", &out, &err), 0);
	free(out);
	free(err);
	cr_assert_eq(cli("tgsi", &out, &err), 2);
	free(out);
	free(err);
	cr_assert_eq(cli("tgsi frob", &out, &err), 2);
	cr_assert(strstr(err, "unknown subcommand"));
	free(out);
	free(err);
	cr_assert_eq(cli("tgsi fmt", &out, &err), 2);
	free(out);
	free(err);
	cr_assert_eq(cli("tgsi fmt /nonexistent/x.tgsi", &out, &err), 2);
	cr_assert(strstr(err, "ulpsim: /nonexistent/x.tgsi"), "%s", err);
	free(out);
	free(err);

	char *dir = test_tmpdir();
	cr_assert(dir);
	char path[1024], opath[1024], args[3000];
	snprintf(path, sizeof path, "%s/bad.tgsi", dir);
	snprintf(opath, sizeof opath, "%s/out.tgsi", dir);
	static const char bad[] = "FRAG\nDCL OUT[0], COLOR\nMOV OUT[0] IN[0]\nEND\n";
	ulp_diag d;
	ulp_diag_clear(&d);
	cr_assert(ulp_write_file(path, bad, sizeof bad - 1, &d));
	snprintf(args, sizeof args, "tgsi fmt %s -o %s", path, opath);
	cr_assert_eq(cli(args, &out, &err), 2);
	char want[1100];
	snprintf(want, sizeof want, "ulpsim: %s:3:12: expected `,'", path);
	cr_assert(strstr(err, want), "stderr: %s", err);
	FILE *f = fopen(opath, "r");
	cr_assert_null(f, "a failed fmt left an output file");
	free(out);
	free(err);
	remove(path);
	remove(dir);
	free(dir);
	cr_assert_eq(cli("tgsi run x.tgsi", &out, &err), 2);
	free(out);
	free(err);
}

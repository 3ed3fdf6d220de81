#define _POSIX_C_SOURCE 200809L
#include "tests/test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <criterion/criterion.h>

#include "base/fileio.h"

const char *test_corpus_dir(void)
{
	const char *c = getenv("ULPSIM_CORPUS");
	return c && *c ? c : "../shared/corpus";
}

char *test_corpus_path(const char *rel)
{
	const char *dir = test_corpus_dir();
	size_t n = strlen(dir) + strlen(rel) + 2;
	char *p = malloc(n);
	if (p)
		snprintf(p, n, "%s/%s", dir, rel);
	return p;
}

char *test_tmpdir(void)
{
	char tmpl[] = "/tmp/ulpsim-test-XXXXXX";
	char *d = mkdtemp(tmpl);
	return d ? strdup(d) : NULL;
}

int test_run_cli(const char *args, char **out, char **err)
{
	const char *bin = getenv("ULPSIM_BIN");
	if (!bin || !*bin)
		bin = "build/ulpsim";
	char *dir = test_tmpdir();
	if (!dir)
		return -1;
	size_t n = strlen(bin) + strlen(args) + 2 * strlen(dir) + 64;
	char *cmd = malloc(n);
	snprintf(cmd, n, "%s %s >%s/out 2>%s/err </dev/null", bin, args, dir, dir);
	int st = system(cmd);
	free(cmd);
	char path[512];
	ulp_diag d;
	ulp_diag_clear(&d);
	snprintf(path, sizeof path, "%s/out", dir);
	char *o = ulp_read_file(path, NULL, &d);
	remove(path);
	snprintf(path, sizeof path, "%s/err", dir);
	char *e = ulp_read_file(path, NULL, &d);
	remove(path);
	remove(dir);
	free(dir);
	if (out)
		*out = o ? o : strdup("");
	else
		free(o);
	if (err)
		*err = e ? e : strdup("");
	else
		free(e);
	if (st == -1 || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

char *test_write_file(const char *dir, const char *name, const char *text)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = malloc(n);
	cr_assert(p);
	snprintf(p, n, "%s/%s", dir, name);
	FILE *f = fopen(p, "w");
	cr_assert(f, "cannot write %s", p);
	fputs(text, f);
	fclose(f);
	return p;
}

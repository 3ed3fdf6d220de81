/* TGSI -> PICA200 compile time: every vs.tgsi of the tgsi-noint corpus,
 * parse + compile + assemble, read from memory (goal: the whole corpus in
 * under a second).  To be listed in bench/bench.h and bench_main.c. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fileio.h"
#include "bench/bench.h"
#include "frontends/pica/pica_compile.h"


typedef struct src { char *path, *text; size_t len; } src;

void bench_compile(bench_table *t)
{
	const char *corpus = getenv("ULPSIM_CORPUS");
	if (!corpus || !*corpus)
		corpus = "../shared/corpus";
	char dir[1024];
	snprintf(dir, sizeof dir, "%s/tgsi-noint", corpus);
	DIR *dp = opendir(dir);
	if (!dp) {
		fprintf(stderr, "bench: %s: not found\n", dir);
		return;
	}
	src *v = NULL;
	size_t n = 0;
	struct dirent *de;
	while ((de = readdir(dp))) {
		if (de->d_name[0] == '.')
			continue;
		char path[1400];
		snprintf(path, sizeof path, "%s/%s/vs.tgsi", dir, de->d_name);
		ulp_diag d;
		ulp_diag_clear(&d);
		size_t len;
		char *text = ulp_read_file(path, &len, &d);
		if (!text)
			continue;
		src *p = realloc(v, (n + 1) * sizeof *p);
		if (!p) {
			free(text);
			break;
		}
		v = p;
		v[n++] = (src){ strdup(path), text, len };
	}
	closedir(dp);
	enum { ROUNDS = 5 };
	unsigned ok = 0;
	double t0 = bench_now();
	for (int r = 0; r < ROUNDS; r++) {
		for (size_t i = 0; i < n; i++) {
			ulp_diag d;
			ulp_diag_clear(&d);
			tgsi_shader *sh = tgsi_parse(v[i].text, v[i].len, v[i].path, NULL, &d);
			if (!sh)
				continue;
			pica_compile_result res;
			ok += pica_compile(sh, v[i].path, NULL, &res);
			pica_compile_result_free(&res);
			tgsi_shader_free(sh);
		}
	}
	double dt = (bench_now() - t0) / ROUNDS;
	if (n) {
		bench_add(t, "tgsi->pica: tgsi-noint corpus (all VS)", dt * 1e3, "ms", "< 1000 ms");
		bench_add(t, "tgsi->pica: per shader", dt * 1e6 / (double)n, "us", "");
		bench_add(t, "tgsi->pica: compiled", (double)ok / ROUNDS, "shaders", "");
	}
	for (size_t i = 0; i < n; i++) {
		free(v[i].path);
		free(v[i].text);
	}
	free(v);
}

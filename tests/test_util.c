#define _POSIX_C_SOURCE 200809L
#include "tests/test_util.h"
#include "tests/test_session_fx.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <cjson/cJSON.h>
#include <criterion/criterion.h>

#include "base/fileio.h"
#include "traces/replay/replay.h"
#include "traces/trace.h"
#include "units/gr3d/gr3d_quad.h"

/* Under make san: LeakSanitizer reports leaks in the test binary (the
 * Criterion runner and its workers) but does not change its exit status;
 * scripts/san_check.sh reads the log and fails on every leak except those
 * wholly inside libcriterion's runner (Criterion 2.4 leaks 48 bytes there
 * now and then).  The programs the tests run (ulpsim, ulpsim-view) keep
 * the default: a leak fails them.  The sanitizer runtime calls this hook;
 * without sanitizers nothing does. */
const char *__lsan_default_options(void);
const char *__lsan_default_options(void)
{
	return "exitcode=0";
}

bool test_fp20_probes(uint32_t code, double out[6])
{
	const double v = gr3d_fp20(code);
	if (isnan(v))
		return false;
	const double up = gr3d_fp20((code & 0x7FFFFu) + 1u < 0x80000u ? code + 1u : code);
	const double mid = v + (up - v) / 2;
	const double p[6] = { v, nextafter(v, INFINITY), nextafter(v, -INFINITY),
	                      mid, nextafter(mid, INFINITY), nextafter(mid, -INFINITY) };
	memcpy(out, p, sizeof p);
	return true;
}

bool test_replay_json(const char *json, const char *name, const char *base, const struct replay_opts *o,
                      struct replay_result *res, struct ulp_diag *d)
{
	trace t;
	ulp_diag_clear(d);
	memset(res, 0, sizeof *res);
	/* tests name their temporary side files by absolute path */
	const trace_load_opts lo = { .allow_paths = true };
	if (!trace_parse_with(&t, json, name, base, &lo, d)) {
		trace_free(&t);                   /* a refused trace is freed too */
		return false;
	}
	const bool ok = replay_run(&t, o, res, d);
	trace_free(&t);
	return ok;
}

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

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char **test_list_dir(const char *dir, bool dirs_only, size_t *n)
{
	DIR *dp = opendir(dir);
	cr_assert(dp, "%s not found (ULPSIM_CORPUS=%s)", dir, test_corpus_dir());
	char **names = NULL;
	size_t k = 0, cap = 0;
	struct dirent *de;
	while ((de = readdir(dp))) {
		if (de->d_name[0] == '.')
			continue;
		if (dirs_only) {
			char path[4096];
			struct stat st;
			snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
			if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
				continue;
		}
		if (k == cap) {
			cap = cap ? cap * 2 : 256;
			names = realloc(names, cap * sizeof *names);
			cr_assert(names);
		}
		names[k] = strdup(de->d_name);
		cr_assert(names[k]);
		k++;
	}
	closedir(dp);
	if (k > 1)                      /* an empty folder has no array at all */
		qsort(names, k, sizeof *names, cmp_names);
	*n = k;
	return names;
}

void test_free_names(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

uint32_t test_rnd(test_rng *r)
{
	r->s ^= r->s << 13;
	r->s ^= r->s >> 17;
	r->s ^= r->s << 5;
	return r->s;
}

uint32_t test_f_bits(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return u;
}

float test_bits_f(uint32_t u)
{
	float f;
	memcpy(&f, &u, 4);
	return f;
}

/* A full-screen, fill-bound trace: a 4-EXEC program over every pixel of a
 * 128x128 target, drawn `draws` times (1..8) before one checkpoint. */
char *test_fill_trace(unsigned draws)
{
	static const char exec[] =
		"EXEC\\n\\tMFU:\\tNOP\\n\\tTEX:\\tNOP\\n\\tALU:\\n"
		"\\t\\tALU0:\\tMAD  r0.*h, #1, #1, #0, #1\\n\\t\\tALU1:\\tMAD  r0.l*, #1, #1, #0, #1\\n"
		"\\t\\tALU2:\\tMAD  r1.*h, #1, #1, #0, #1\\n\\t\\tALU3:\\tMAD  r1.l*, #1, #1, #0, #1\\n"
		"\\tDW:\\t%s\\n;\\n";
	char *s = malloc(8192), *p = s;
	cr_assert(s);
	p += sprintf(p, "{\"format\": \"ulpsim-trace\", \"version\": 1, \"name\": \"fill\", \"resources\": {"
	                "\"vb\": {\"type\": \"buffer\", \"f32\": [-1, -1, 0, 1,  1, -1, 0, 1,  1, 1, 0, 1,"
	                " -1, -1, 0, 1,  1, 1, 0, 1,  -1, 1, 0, 1]}}, \"shaders\": {"
	                "\"vs\": {\"stage\": \"vertex\", \"tgsi\": \"VERT\\nDCL IN[0]\\nDCL OUT[0], POSITION\\n"
	                "  0: MOV OUT[0], IN[0]\\n  1: END\\n\"},"
	                "\"fs\": {\"stage\": \"fragment\", \"grate\": \"alu_buffer_size = 1\\n"
	                "pseq_to_dw_exec_nb = 4\\n.asm\\n");
	for (int k = 0; k < 4; k++)
		p += sprintf(p, exec, k < 3 ? "NOP" : "store rt1, r0, r1");
	p += sprintf(p, "\"}}, \"commands\": ["
	    "{\"cmd\": \"framebuffer\", \"width\": 128, \"height\": 128, \"cbufs\": [{\"format\": \"RGBA8888\"}]},"
	    "{\"cmd\": \"bind_shaders\", \"vs\": \"vs\", \"fs\": \"fs\"},"
	    "{\"cmd\": \"vertex_elements\", \"elements\": ["
	    "{\"buffer\": \"vb\", \"offset\": 0, \"stride\": 16, \"format\": \"R32G32B32A32_FLOAT\"}]},"
	    "{\"cmd\": \"clear\", \"color\": [0, 0, 0, 1]},");
	for (unsigned k = 0; k < draws && k < 8; k++)
		p += sprintf(p, "{\"cmd\": \"draw\", \"mode\": \"triangles\", \"start\": 0, \"count\": 6},");
	p += sprintf(p, "{\"cmd\": \"checkpoint\", \"name\": \"f\"}]}");
	return s;
}

char **test_corpus_files(const char *sub, const char *ext, size_t *n)
{
	char *root = test_corpus_path(sub);
	size_t nd;
	char **dirs = test_list_dir(root, true, &nd);
	char **paths = NULL;
	size_t k = 0;
	size_t el = strlen(ext);
	for (size_t i = 0; i < nd; i++) {
		char dir[4096];
		snprintf(dir, sizeof dir, "%s/%s", root, dirs[i]);
		size_t nf;
		char **files = test_list_dir(dir, false, &nf);
		for (size_t j = 0; j < nf; j++) {
			size_t l = strlen(files[j]);
			if (l <= el || strcmp(files[j] + l - el, ext))
				continue;
			paths = realloc(paths, (k + 1) * sizeof *paths);
			cr_assert(paths);
			size_t pl = strlen(dir) + l + 2;
			paths[k] = malloc(pl);
			cr_assert(paths[k]);
			snprintf(paths[k], pl, "%s/%s", dir, files[j]);
			k++;
		}
		test_free_names(files, nf);
	}
	test_free_names(dirs, nd);
	free(root);
	*n = k;
	return paths;
}

void test_session_open(test_session *f, const char *name)
{
	memset(f, 0, sizeof *f);
	ulp_config_defaults(&f->cfg);
	f->o.cfg = &f->cfg;
	replay_session_units u = { .lazy = true };
	ulp_diag_clear(&f->d);
	f->s = replay_session_open(&f->o, &u, name, "", &f->res, &f->d);
	cr_assert(f->s, "%s", f->d.msg);
}

bool test_session_cmd(test_session *f, const char *json)
{
	cJSON *j = cJSON_Parse(json);
	cr_assert(j, "test JSON: %s", json);
	ulp_diag_clear(&f->d);
	const bool ok = replay_session_command(f->s, j, &f->d);
	cJSON_Delete(j);
	return ok;
}

void test_session_close(test_session *f, bool must_finish)
{
	const bool ok = replay_session_finish(f->s, &f->d);
	if (must_finish)
		cr_assert(ok, "%s", f->d.msg);
	replay_session_close(f->s);
	ulp_image_free(f->res.image);
	free(f->res.depth);
}

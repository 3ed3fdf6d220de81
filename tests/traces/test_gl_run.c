/* The outputs of a whole `ulpsim gl` run over its contexts
 * (traces/gl/gl_run.h), driven as the Gallium driver drives them: two
 * contexts, each its own session, draws bracketed by draw_begin/end. */
#include <criterion/criterion.h>
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/fileio.h"
#include "base/image.h"
#include "sim/core/config.h"
#include "traces/gl/gl_run.h"
#include "traces/replay/session.h"
#include "tests/test_util.h"

static const char VS[] = "VERT\nDCL IN[0]\nDCL IN[1]\nDCL OUT[0], POSITION\nDCL OUT[1], COLOR\n"
                         "  0: MOV OUT[0], IN[0]\n  1: MOV OUT[1], IN[1]\n  2: END\n";
static const char FS[] = "FRAG\nDCL IN[0], COLOR, COLOR\nDCL OUT[0], COLOR\n  0: MOV OUT[0], IN[0]\n  1: END\n";

/* A GL context as the driver has one: its config, result, session, part of the run. */
typedef struct gl_ctx {
	ulp_config cfg;
	replay_opts o;
	replay_result res;
	replay_session *s;
	ulp_gl_ctx *cx;
} gl_ctx;

static bool cmd(gl_ctx *c, const char *json)
{
	cJSON *j = cJSON_Parse(json);
	cr_assert(j, "test JSON: %s", json);
	ulp_diag d;
	ulp_diag_clear(&d);
	bool ok = replay_session_command(c->s, j, &d);
	cJSON_Delete(j);
	cr_assert(ok, "%s", d.msg);
	return ok;
}

static void open_ctx(gl_ctx *c, ulp_gl_run *run, unsigned w, unsigned h)
{
	memset(c, 0, sizeof *c);
	ulp_config_defaults(&c->cfg);
	c->o.cfg = &c->cfg;
	c->cx = ulp_gl_run_add(run, &c->cfg, &c->res);
	cr_assert(c->cx);
	c->o.tl = ulp_gl_ctx_timeline(c->cx);
	replay_session_units u = { .lazy = true };
	ulp_diag d;
	ulp_diag_clear(&d);
	c->s = replay_session_open(&c->o, &u, "gl", "", &c->res, &d);
	cr_assert(c->s, "%s", d.msg);
	const char *ids[2] = { "vs", "fs" };
	const char *texts[2] = { VS, FS };
	for (int k = 0; k < 2; k++) {
		trace_shader sh;
		memset(&sh, 0, sizeof sh);
		snprintf(sh.id, sizeof sh.id, "%s", ids[k]);
		sh.stage = k ? TRACE_FRAGMENT : TRACE_VERTEX;
		sh.code = TRACE_TGSI;
		sh.text = (char *)texts[k];
		cr_assert(replay_session_shader(c->s, &sh, &d), "%s", d.msg);
	}
	static const float V[4][8] = { { -1, -1, 0, 1, 1, 0, 0, 1 }, { 1, -1, 0, 1, 0, 1, 0, 1 },
		{ -1, 1, 0, 1, 0, 0, 1, 1 }, { 1, 1, 0, 1, 1, 1, 1, 1 } };
	cr_assert(replay_session_buffer(c->s, "vb", V, sizeof V, &d), "%s", d.msg);
	char fb[160];
	snprintf(fb, sizeof fb, "{\"cmd\":\"framebuffer\",\"width\":%u,\"height\":%u,\"cbufs\":[{\"format\":\"RGBA8888\"}]}",
	         w, h);
	cmd(c, fb);
	cmd(c, "{\"cmd\":\"bind_shaders\",\"vs\":\"vs\",\"fs\":\"fs\"}");
	cmd(c, "{\"cmd\":\"vertex_elements\",\"elements\":["
	       "{\"buffer\":\"vb\",\"offset\":0,\"stride\":32,\"format\":\"R32G32B32A32_FLOAT\"},"
	       "{\"buffer\":\"vb\",\"offset\":16,\"stride\":32,\"format\":\"R32G32B32A32_FLOAT\"}]}");
}

static void draw(gl_ctx *c)
{
	ulp_gl_ctx_draw_begin(c->cx);
	cmd(c, "{\"cmd\":\"draw\",\"mode\":\"triangle_strip\",\"start\":0,\"count\":4}");
	ulp_gl_ctx_draw_end(c->cx);
}

static void close_ctx(gl_ctx *c, ulp_gl_run *run)
{
	ulp_gl_run_remove(run, c->cx);
	ulp_diag d;
	ulp_diag_clear(&d);
	cr_assert(replay_session_finish(c->s, &d), "%s", d.msg);
	replay_session_close(c->s);
	ulp_image_free(c->res.image);
	free(c->res.depth);
}

/* The number after `key` at the start of a line of stats.txt. */
static double stat(const char *text, const char *key)
{
	size_t n = strlen(key);
	for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (!strncmp(p, key, n) && p[n] == ' ')
			return strtod(p + n, NULL);
	cr_assert_fail("no %s in stats.txt", key);
	return 0;
}

static char *slurp(const char *path)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	size_t len;
	char *t = ulp_read_file(path, &len, &d);
	cr_assert(t, "%s", d.msg);
	return t;
}

/* Two contexts, the second made while the first lives: draws 1 (ctx a),
 * 2 (b), 3 (a); a ends first.  Returns the figures of a and b. */
static void two_contexts(const char *stats, const char *timeline, uint64_t cycles[2], uint64_t vertices[2],
                         uint64_t *run_cycles)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	ulp_gl_run *run = ulp_gl_run_open(stats, timeline, &d);
	cr_assert(run, "%s", d.msg);
	gl_ctx *a = malloc(sizeof *a), *b = malloc(sizeof *b);
	cr_assert(a && b);
	open_ctx(a, run, 16, 8);
	draw(a);
	open_ctx(b, run, 32, 32);
	draw(b);
	draw(a);
	cr_assert_eq(ulp_gl_run_cycles(run), a->res.cycles + b->res.cycles, "the run's axis: the draws one after another");
	cycles[0] = a->res.cycles, cycles[1] = b->res.cycles;
	vertices[0] = a->res.vertices, vertices[1] = b->res.vertices;
	*run_cycles = ulp_gl_run_cycles(run);
	close_ctx(a, run);
	cr_assert(ulp_gl_run_write_stats(run, &d), "%s", d.msg);    /* a ended, b lives: both counted */
	if (stats) {
		char *t = slurp(stats);
		cr_assert_eq((uint64_t)stat(t, "sim.cycles"), cycles[0] + cycles[1]);
		free(t);
	}
	close_ctx(b, run);
	cr_assert(ulp_gl_run_close(run, &d), "%s", d.msg);
	free(a);
	free(b);
}

Test(gl_run, stats_sum_every_context_and_are_deterministic)
{
	char *dir = test_tmpdir();
	char p1[512], p2[512];
	snprintf(p1, sizeof p1, "%s/one.txt", dir);
	snprintf(p2, sizeof p2, "%s/two.txt", dir);
	uint64_t cyc[2], vert[2], run_cycles;
	two_contexts(p1, NULL, cyc, vert, &run_cycles);
	cr_assert(cyc[0] > 0 && cyc[1] > 0 && cyc[0] != cyc[1], "two different contexts drew");
	char *t = slurp(p1);
	cr_assert_eq((uint64_t)stat(t, "sim.cycles"), cyc[0] + cyc[1]);
	cr_assert_eq((uint64_t)stat(t, "gpu.vfetch.vertices"), vert[0] + vert[1]);
	cr_assert_eq(vert[0] + vert[1], 12, "three draws of four vertices");
	cr_assert_eq((uint64_t)stat(t, "gpu.raster.busy_cycles") > 0, true);
	cr_assert(!strstr(t, "host"), "no host figures: the same program gives the same file");
	two_contexts(p2, NULL, cyc, vert, &run_cycles);
	char *u = slurp(p2);
	cr_assert_str_eq(t, u, "the same run writes the same stats.txt");
	free(t);
	free(u);
	unlink(p1);
	unlink(p2);
	rmdir(dir);
	free(dir);
}

Test(gl_run, timeline_puts_every_context_on_one_axis)
{
	char *dir = test_tmpdir();
	char path[512];
	snprintf(path, sizeof path, "%s/t.json", dir);
	uint64_t cyc[2], vert[2], run_cycles;
	two_contexts(NULL, path, cyc, vert, &run_cycles);
	char *text = slurp(path);
	cJSON *j = cJSON_Parse(text);
	cr_assert(j, "the timeline is JSON");
	const cJSON *other = cJSON_GetObjectItem(j, "otherData");
	const double last = cJSON_GetNumberValue(cJSON_GetObjectItem(other, "last_cycle"));
	/* the last draw (context a's second) ends at the run's last cycle, past
	 * either context's own count */
	cr_assert(last < (double)run_cycles && last > (double)cyc[0] && last > (double)cyc[1],
	          "last cycle %.0f, run %llu, contexts %llu and %llu", last, (unsigned long long)run_cycles,
	          (unsigned long long)cyc[0], (unsigned long long)cyc[1]);
	/* one track per unit name, however many contexts recorded it */
	unsigned vfetch = 0;
	const cJSON *e;
	cJSON_ArrayForEach(e, cJSON_GetObjectItem(j, "traceEvents"))
	{
		const cJSON *args = cJSON_GetObjectItem(e, "args");
		const char *name = cJSON_GetStringValue(cJSON_GetObjectItem(args, "name"));
		vfetch += name && !strcmp(name, "vfetch");
	}
	cr_assert_eq(vfetch, 1, "vfetch named once");
	cJSON_Delete(j);
	free(text);
	unlink(path);
	rmdir(dir);
	free(dir);
}

Test(gl_run, bad_timeline_name_and_no_outputs)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	cr_assert_null(ulp_gl_run_open(NULL, "/tmp/t.txt", &d));
	cr_assert(strstr(d.msg, "FILE.json"), "%s", d.msg);
	ulp_diag_clear(&d);
	ulp_gl_run *run = ulp_gl_run_open(NULL, NULL, &d);
	cr_assert(run);
	gl_ctx c;
	open_ctx(&c, run, 8, 8);
	cr_assert_null(ulp_gl_ctx_timeline(c.cx));
	draw(&c);
	cr_assert(ulp_gl_run_write_stats(run, &d), "no stats path: nothing to write");
	close_ctx(&c, run);
	cr_assert(ulp_gl_run_close(run, &d), "%s", d.msg);
}

/* The last_cycle of a whole Perfetto timeline at path. */
static double last_cycle(const char *path)
{
	char *text = slurp(path);
	cJSON *j = cJSON_Parse(text);
	cr_assert(j, "the timeline is whole JSON: %.200s", text);
	const double last = cJSON_GetNumberValue(cJSON_GetObjectItem(cJSON_GetObjectItem(j, "otherData"), "last_cycle"));
	cJSON_Delete(j);
	free(text);
	return last;
}

Test(gl_run, timeline_is_whole_after_each_frame)
{
	/* a program killed after its second frame: the file has both frames'
	 * draws, without the run being closed */
	char *dir = test_tmpdir();
	char path[512], vcd[512];
	snprintf(path, sizeof path, "%s/t.json", dir);
	snprintf(vcd, sizeof vcd, "%s/t.vcd", dir);
	for (int k = 0; k < 2; k++) {
		const char *p = k ? vcd : path;
		ulp_diag d;
		ulp_diag_clear(&d);
		ulp_gl_run *run = ulp_gl_run_open(NULL, p, &d);
		cr_assert(run, "%s", d.msg);
		cr_assert(access(p, F_OK) != 0, "no file before the first frame");
		gl_ctx *c = malloc(sizeof *c);
		cr_assert(c);
		open_ctx(c, run, 16, 8);
		draw(c);
		cr_assert(ulp_gl_run_write(run, &d), "%s", d.msg);          /* frame 0 */
		if (!k) {
			const double one = last_cycle(p);
			cr_assert(one > 0 && one < (double)ulp_gl_run_cycles(run), "frame 0: %.0f of %llu", one,
			          (unsigned long long)ulp_gl_run_cycles(run));
			const uint64_t at1 = ulp_gl_run_cycles(run);
			draw(c);
			cr_assert(ulp_gl_run_write(run, &d), "%s", d.msg);      /* frame 1 */
			const double two = last_cycle(p);
			cr_assert(two > (double)at1 && two < (double)ulp_gl_run_cycles(run),
			          "frame 1 is in: %.0f, after %llu", two, (unsigned long long)at1);
			cr_assert(ulp_gl_run_write(run, &d), "%s", d.msg);
			cr_assert_eq(last_cycle(p), two, "written again: the same");
		} else {
			char *t = slurp(p);
			cr_assert(strstr(t, "$enddefinitions") && strstr(t, "\n#"), "a VCD with its changes");
			free(t);
		}
		close_ctx(c, run);
		cr_assert(ulp_gl_run_close(run, &d), "%s", d.msg);
		free(c);
		unlink(p);
	}
	rmdir(dir);
	free(dir);
}

/* Capture (traces/replay/capture.h, docs/capture.md), without Mesa: a
 * session driven as the Gallium driver drives one, mirrored into a capture;
 * each captured frame replays alone to the same image and cycles.  The
 * bundled captures (traces/captures/) replay to their expected image and
 * cycles; malformed captures are refused with the file and JSON path. */
#include <criterion/criterion.h>
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/fileio.h"
#include "base/image.h"
#include "sim/core/config.h"
#include "traces/replay/capture.h"
#include "traces/replay/session.h"
#include "tests/test_util.h"
#include "units/gr3d/zs.h"

/* ---- a session and its capture, side by side ---- */

typedef struct rig {
	ulp_config cfg;
	replay_opts o;
	replay_result res;
	replay_session *s;
	replay_capture *cap;
	trace t;
	ulp_diag d;
} rig;

static void rig_open_ctx(rig *g, const char *dir, unsigned first, unsigned last, unsigned context)
{
	memset(g, 0, sizeof *g);
	ulp_config_defaults(&g->cfg);
	g->o.cfg = &g->cfg;
	cr_assert(trace_load(&g->t, "traces/samples/textured_cube.json", &g->d), "%s", g->d.msg);
	replay_session_units u = { .lazy = true };
	g->s = replay_session_open(&g->o, &u, "gl", "", &g->res, &g->d);
	cr_assert(g->s, "%s", g->d.msg);
	replay_capture_opts co = { .dir = dir, .first = first, .last = last, .name = "test", .context = context };
	g->cap = replay_capture_open(&co, &g->d);
	cr_assert(g->cap, "%s", g->d.msg);
	for (size_t k = 0; k < g->t.nsh; k++) {
		cr_assert(replay_session_shader(g->s, &g->t.sh[k], &g->d), "%s", g->d.msg);
		replay_capture_shader(g->cap, &g->t.sh[k]);
	}
	for (size_t k = 0; k < g->t.nres; k++) {
		const trace_resource *r = &g->t.res[k];
		if (r->type == TRACE_BUFFER) {
			cr_assert(replay_session_buffer(g->s, r->id, r->bytes, r->len, &g->d), "%s", g->d.msg);
			replay_capture_buffer(g->cap, r->id, r->bytes, r->len);
		} else {
			cr_assert(replay_session_texture(g->s, r->id, r->format, r->target, r->width, r->height, r->nlevels,
			                                 r->bytes, r->len, &g->d), "%s", g->d.msg);
			replay_capture_texture(g->cap, r->id, r->format, r->target, r->width, r->height, r->nlevels,
			                       r->bytes, r->len);
		}
	}
}

static void rig_open(rig *g, const char *dir, unsigned first, unsigned last)
{
	rig_open_ctx(g, dir, first, last, 0);
}

static void rig_cmd(rig *g, const cJSON *c)
{
	bool ok = replay_session_command(g->s, c, &g->d);
	replay_capture_command(g->cap, c, ok);
	cr_assert(ok, "%s", g->d.msg);
}

/* The sample's commands from..to-1 (its checkpoint left out). */
static void rig_cmds(rig *g, size_t from, size_t to)
{
	for (size_t i = from; i < to && i < g->t.ncmd; i++)
		if (strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(g->t.cmd[i], "cmd")), "checkpoint"))
			rig_cmd(g, g->t.cmd[i]);
}

static size_t find_cmd(const rig *g, const char *name)
{
	for (size_t i = 0; i < g->t.ncmd; i++)
		if (!strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(g->t.cmd[i], "cmd")), name))
			return i;
	cr_assert_fail("no %s", name);
	return 0;
}

static void rig_close(rig *g)
{
	replay_capture_close(g->cap);
	replay_session_close(g->s);
	trace_free(&g->t);
}

/* Frame n of the capture's context ctx ends: written, and its file
 * replays alone to the session's colour buffer 0 (turned over unless the
 * framebuffer's origin is upper-left) and the frame's cycles. */
static void frame_replays_ctx(rig *g, const char *dir, unsigned ctx, unsigned n, uint64_t cycles0)
{
	bool written;
	cr_assert(replay_capture_frame(g->cap, g->s, n, g->res.cycles, &written, &g->d), "%s", g->d.msg);
	cr_assert(written);
	char path[512];
	if (ctx)
		snprintf(path, sizeof path, "%s/ctx%u-frame-%04u.json", dir, ctx, n);
	else
		snprintf(path, sizeof path, "%s/frame-%04u.json", dir, n);
	trace t;
	ulp_diag d;
	ulp_diag_clear(&d);
	cr_assert(trace_load(&t, path, &d), "%s", d.msg);
	cr_assert_eq(t.version, 2);
	/* bulk data in the compact forms (docs/trace-format.md "Data forms"):
	 * every resource's bytes a side file, no number arrays */
	const cJSON *rs = cJSON_GetObjectItemCaseSensitive(t.root, "resources");
	for (const cJSON *it = rs ? rs->child : NULL; it; it = it->next)
		for (const char *const *k = (const char *const[]){ "f32", "u32", "u16", "u8", "hex", NULL }; *k; k++)
			cr_assert_null(cJSON_GetObjectItemCaseSensitive(it, *k), "%s: $.resources.%s.%s", path, it->string, *k);
	ulp_config cfg;
	ulp_config_defaults(&cfg);
	replay_opts o = { .cfg = &cfg, .keep_image = true };
	replay_result r;
	cr_assert(replay_run(&t, &o, &r, &d), "%s: %s", path, d.msg);
	cr_assert_eq(r.checkpoints, 1);
	cr_assert_eq(r.checks_failed, 0, "%s: %s", path, r.first_failure);
	cr_assert_eq(r.cycles, g->res.cycles - cycles0, "%s: %llu cycles, the session's frame %llu", path,
	             (unsigned long long)r.cycles, (unsigned long long)(g->res.cycles - cycles0));
	const ulp_image *cb = replay_session_cbuf(g->s, 0, NULL);
	const bool ul = replay_session_upper_left(g->s);
	cr_assert_eq(r.image->width, cb->width);
	for (uint32_t y = 0; y < cb->height; y++)       /* res.image: top row first */
		cr_assert(!memcmp(ulp_image_cpx(r.image, 0, ul ? y : cb->height - 1 - y), ulp_image_cpx(cb, 0, y),
		                  (size_t)cb->width * 4), "%s: row %u differs", path, y);
	ulp_image_free(r.image);
	trace_free(&t);
}

static void frame_replays(rig *g, const char *dir, unsigned n, uint64_t cycles0)
{
	frame_replays_ctx(g, dir, 0, n, cycles0);
}

Test(capture, frames_replay_alone_with_uploads_and_cpu_writes)
{
	char *dir = test_tmpdir();
	rig g;
	rig_open(&g, dir, 1, 2);
	const size_t draw = find_cmd(&g, "draw");
	/* frame 0: the sample as it is (not captured) */
	rig_cmds(&g, 0, g.t.ncmd);
	bool written;
	cr_assert(replay_capture_frame(g.cap, g.s, 0, g.res.cycles, &written, &g.d), "%s", g.d.msg);
	cr_assert(!written);
	/* frame 1: the texture replaced, cleared, drawn; then a CPU write of
	 * both render targets, the vertices moved, drawn again */
	uint64_t c1 = g.res.cycles;
	const trace_resource *tex = trace_find_resource(&g.t, "checker");
	uint8_t *inv = malloc(tex->len);
	for (size_t k = 0; k < tex->len; k++)
		inv[k] = (uint8_t)(k % 4 == 3 ? tex->bytes[k] : 255 - tex->bytes[k]);
	cr_assert(replay_session_texture(g.s, "checker", tex->format, tex->target, tex->width, tex->height,
	                                 tex->nlevels, inv, tex->len, &g.d));
	replay_capture_texture(g.cap, "checker", tex->format, tex->target, tex->width, tex->height, tex->nlevels, inv,
	                       tex->len);
	rig_cmds(&g, 1, draw + 1);
	ulp_image *cb = replay_session_cbuf(g.s, 0, NULL);
	for (uint32_t y = 0; y < 20; y++)
		for (uint32_t x = 0; x < 30; x++)
			memcpy(ulp_image_px(cb, x, y), (const uint8_t[4]){ 250, 10, 200, 255 }, 4);
	zs_surface *zs = replay_session_zs(g.s);
	for (uint32_t y = 50; y < 80; y++)
		for (uint32_t x = 50; x < 80; x++)
			zs->depth[(size_t)y * zs->width + x] = 0;   /* nearest: the second draw is hidden there */
	replay_capture_targets(g.cap, g.s);
	const trace_resource *vb = trace_find_resource(&g.t, "vertices");
	float *moved = malloc(vb->len);
	memcpy(moved, vb->bytes, vb->len);
	for (size_t k = 0; k < vb->len / 4; k += 12)
		moved[k] *= 0.5f;                            /* x of each vertex (stride 48) */
	cr_assert(replay_session_buffer(g.s, "vertices", moved, vb->len, &g.d));
	replay_capture_buffer(g.cap, "vertices", moved, vb->len);
	rig_cmd(&g, g.t.cmd[draw]);
	frame_replays(&g, dir, 1, c1);
	/* frame 2: no clear: the frame starts from what frame 1 left */
	uint64_t c2 = g.res.cycles;
	rig_cmd(&g, g.t.cmd[draw]);
	frame_replays(&g, dir, 2, c2);
	free(inv);
	free(moved);
	rig_close(&g);
	free(dir);
}

Test(capture, failed_command_means_no_frame)
{
	char *dir = test_tmpdir();
	rig g;
	rig_open(&g, dir, 0, 0);
	rig_cmds(&g, 0, find_cmd(&g, "draw"));
	cJSON *bad = cJSON_Parse("{\"cmd\":\"sampler_view\",\"index\":0,\"resource\":\"nope\"}");
	bool ok = replay_session_command(g.s, bad, &g.d);
	cr_assert(!ok);
	replay_capture_command(g.cap, bad, ok);
	cJSON_Delete(bad);
	bool written = true;
	ulp_diag_clear(&g.d);
	cr_assert(!replay_capture_frame(g.cap, g.s, 0, g.res.cycles, &written, &g.d));
	cr_assert(!written);
	cr_assert(strstr(g.d.msg, "frame 0 not captured"), "%s", g.d.msg);
	char path[512];
	snprintf(path, sizeof path, "%s/frame-0000.json", dir);
	struct stat sb;
	cr_assert(stat(path, &sb) != 0, "no half frame");
	rig_close(&g);
	free(dir);
}

/* ---- the bundled captures ---- */

Test(capture, bundled_frames_replay_to_their_image_and_cycles)
{
	size_t nd;
	char **dirs = test_list_dir("traces/captures", true, &nd);
	unsigned frames = 0;
	for (size_t i = 0; i < nd; i++) {
		char dir[256];
		snprintf(dir, sizeof dir, "traces/captures/%s", dirs[i]);
		size_t nf;
		char **files = test_list_dir(dir, false, &nf);
		for (size_t k = 0; k < nf; k++) {
			if (strncmp(files[k], "frame-", 6) || !strstr(files[k], ".json"))
				continue;
			char path[512];
			snprintf(path, sizeof path, "%s/%s", dir, files[k]);
			trace t;
			ulp_diag d;
			ulp_diag_clear(&d);
			cr_assert(trace_load(&t, path, &d), "%s", d.msg);
			ulp_config cfg;
			ulp_config_defaults(&cfg);
			cr_assert(ulp_config_preset(&cfg, t.gpu, &d), "%s", d.msg);
			replay_opts o = { .cfg = &cfg };
			replay_result r;
			cr_assert(replay_run(&t, &o, &r, &d), "%s: %s", path, d.msg);
			/* the checkpoint holds the image (tolerance 0) and the cycles */
			const cJSON *cp = t.cmd[t.ncmd - 1];
			cr_assert_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(cp, "cmd")), "checkpoint");
			cr_assert(cJSON_IsNumber(cJSON_GetObjectItem(cp, "expect_cycles")), "%s", path);
			cr_assert(cJSON_GetObjectItem(cp, "expect_image") && !cJSON_GetObjectItem(cp, "tolerance"));
			cr_assert_eq(r.checkpoints, 1);
			cr_assert_eq(r.checks_failed, 0, "%s: %s", path, r.first_failure);
			cr_assert_eq((double)r.cycles, cJSON_GetObjectItem(cp, "expect_cycles")->valuedouble);
			trace_free(&t);
			frames++;
		}
		test_free_names(files, nf);
	}
	test_free_names(dirs, nd);
	cr_assert_geq(frames, 2, "the bundled captures have frames");
}

/* ---- malformed captures ---- */

/* A copy of the bundled es2gears capture in a temporary folder. */
static char *copy_capture(void)
{
	char *dir = test_tmpdir();
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "cp traces/captures/es2gears/* '%s'/", dir);
	cr_assert_eq(system(cmd), 0);
	return dir;
}

/* The first buffer side file frame-0000.json names. */
static void first_bin(const char *dir, char *name, size_t n)
{
	char path[512];
	snprintf(path, sizeof path, "%s/frame-0000.json", dir);
	ulp_diag d;
	char *text = ulp_read_file(path, NULL, &d);
	cr_assert(text);
	const char *p = strstr(text, ".bin\"");
	cr_assert(p);
	const char *q = p;
	while (q > text && q[-1] != '"')
		q--;
	snprintf(name, n, "%.*s.bin", (int)(p - q), q);
	free(text);
}

static void refused(const char *dir, const char *want1, const char *want2)
{
	char args[600], *out, *err;
	snprintf(args, sizeof args, "replay '%s/frame-0000.json' -o '%s/out.png'", dir, dir);
	int rc = test_run_cli(args, &out, &err);
	cr_assert_eq(rc, 2, "exit %d: %s", rc, err);
	cr_assert(strstr(err, "frame-0000.json") && strstr(err, want1) && strstr(err, want2), "%s", err);
	char png[600];
	snprintf(png, sizeof png, "%s/out.png", dir);
	struct stat sb;
	cr_assert(stat(png, &sb) != 0, "no output after an error");
	free(out);
	free(err);
}

Test(capture, missing_side_file_refused)
{
	char *dir = copy_capture(), bin[64], path[600];
	first_bin(dir, bin, sizeof bin);
	snprintf(path, sizeof path, "%s/%s", dir, bin);
	cr_assert_eq(remove(path), 0);
	refused(dir, "$.resources.", bin);
	free(dir);
}

Test(capture, truncated_side_file_refused)
{
	char *dir = copy_capture(), bin[64], path[600];
	first_bin(dir, bin, sizeof bin);
	snprintf(path, sizeof path, "%s/%s", dir, bin);
	cr_assert_eq(truncate(path, 100), 0);
	refused(dir, ".file: ", "is 100 bytes; the trace says");
	free(dir);
}

Test(capture, newer_version_refused)
{
	char *dir = copy_capture(), path[600];
	snprintf(path, sizeof path, "%s/frame-0000.json", dir);
	ulp_diag d;
	size_t len;
	char *text = ulp_read_file(path, &len, &d);
	char *v = strstr(text, "\"version\":\t2");
	cr_assert(v, "the capture says version 2");
	v[strlen("\"version\":\t")] = '3';
	cr_assert(ulp_write_file(path, text, len, &d));
	free(text);
	refused(dir, "$.version: version 3 of the format is newer", "");
	free(dir);
}

Test(capture, version_2_additions_need_version_2)
{
	static const char *const CASES[][2] = {
		{ "\"resources\":{\"a\":{\"type\":\"buffer\",\"u8\":[1]},\"b\":{\"type\":\"buffer\",\"u8\":[2]}},"
		  "\"commands\":[{\"cmd\":\"update\",\"resource\":\"a\",\"from\":\"b\"}]",
		  "$.commands[0].cmd: 'update' is a command of version 2" },
		{ "\"resources\":{\"t\":{\"type\":\"texture\",\"format\":\"L8\",\"width\":1,\"height\":1,\"file\":\"x.bin\"}},"
		  "\"commands\":[]", "$.resources.t.file: a field of version 2" },
		{ "\"commands\":[{\"cmd\":\"framebuffer\",\"width\":2,\"height\":2,\"cbufs\":[{\"format\":\"RGBA8888\"}],"
		  "\"origin\":\"upper-left\"}]", "$.commands[0].origin: 'origin' is a field of version 2" },
	};
	for (size_t k = 0; k < sizeof CASES / sizeof CASES[0]; k++) {
		char json[1024];
		for (int v = 1; v <= 2; v++) {
			snprintf(json, sizeof json, "{\"format\":\"ulpsim-trace\",\"version\":%d,%s}", v, CASES[k][0]);
			trace t;
			ulp_diag d;
			ulp_diag_clear(&d);
			bool ok = trace_parse(&t, json, "v.json", "/nonexistent", &d);
			if (v == 1)
				cr_assert(!ok && strstr(d.msg, CASES[k][1]), "%s", d.msg);
			else if (k != 1)
				cr_assert(ok, "%s", d.msg);
			else   /* version 2 reads the file: here it is missing */
				cr_assert(!ok && strstr(d.msg, "$.resources.t.file") && strstr(d.msg, "x.bin"), "%s", d.msg);
			trace_free(&t);
		}
	}
}

/* ---- orientation, frames without a draw, two contexts ---- */

/* The sample's framebuffer command with "origin": "upper-left" (a window). */
static cJSON *upper_left_fb(const rig *g)
{
	cJSON *fb = cJSON_Duplicate(g->t.cmd[find_cmd(g, "framebuffer")], true);
	cJSON_AddStringToObject(fb, "origin", "upper-left");
	return fb;
}

Test(capture, upper_left_frames_present_the_image_the_program_saw)
{
	char *dir = test_tmpdir();
	rig g;
	rig_open(&g, dir, 0, 1);
	cJSON *fb = upper_left_fb(&g);
	rig_cmd(&g, fb);
	cr_assert(replay_session_upper_left(g.s));
	rig_cmds(&g, find_cmd(&g, "framebuffer") + 1, g.t.ncmd);
	frame_replays(&g, dir, 0, 0);
	/* frame 1: drawn, then a CPU write of memory rows 0..9 (the window's top) */
	uint64_t c1 = g.res.cycles;
	rig_cmds(&g, find_cmd(&g, "clear"), g.t.ncmd);
	ulp_image *cb = replay_session_cbuf(g.s, 0, NULL);
	for (uint32_t y = 0; y < 10; y++)
		for (uint32_t x = 0; x < cb->width; x++)
			memcpy(ulp_image_px(cb, x, y), (const uint8_t[4]){ 250, 10, 200, 255 }, 4);
	replay_capture_targets(g.cap, g.s);
	frame_replays(&g, dir, 1, c1);
	/* the frame's PNG shows memory row 0 at the top, as the screen did */
	char path[512];
	snprintf(path, sizeof path, "%s/frame-0001.png", dir);
	ulp_image *png = ulp_image_load_png(path, &g.d);
	cr_assert(png, "%s", g.d.msg);
	cr_assert(!memcmp(ulp_image_cpx(png, 3, 2), (const uint8_t[4]){ 250, 10, 200, 255 }, 4));
	cr_assert(memcmp(ulp_image_cpx(png, 3, png->height - 3), (const uint8_t[4]){ 250, 10, 200, 255 }, 4));
	ulp_image_free(png);
	/* and the trace says so */
	snprintf(path, sizeof path, "%s/frame-0001.json", dir);
	trace t;
	cr_assert(trace_load(&t, path, &g.d), "%s", g.d.msg);
	bool said = false;
	for (size_t i = 0; i < t.ncmd; i++)
		said |= !strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(t.cmd[i], "cmd")), "framebuffer") &&
		        !strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(t.cmd[i], "origin")), "upper-left");
	cr_assert(said, "the frame's framebuffer command has origin upper-left");
	trace_free(&t);
	cJSON_Delete(fb);
	rig_close(&g);
	free(dir);
}

/* A frame whose only command is a clear, and one that is only a CPU write
 * (the driver copies a clear into the session before it captures a frame):
 * captured, and replayed alone to the same image and 0 cycles. */
Test(capture, frames_of_only_a_clear_or_a_cpu_write)
{
	char *dir = test_tmpdir();
	rig g;
	rig_open(&g, dir, 1, 2);
	rig_cmds(&g, 0, g.t.ncmd);
	bool written;
	cr_assert(replay_capture_frame(g.cap, g.s, 0, g.res.cycles, &written, &g.d), "%s", g.d.msg);
	uint64_t c1 = g.res.cycles;
	cJSON *clear = cJSON_Parse("{\"cmd\":\"clear\",\"color\":[0.25,0.5,0.75,1]}");
	rig_cmd(&g, clear);
	cr_assert_eq(g.res.cycles, c1);
	frame_replays(&g, dir, 1, c1);
	ulp_image *cb = replay_session_cbuf(g.s, 0, NULL);
	for (uint32_t y = 0; y < cb->height; y++)
		for (uint32_t x = 0; x < cb->width / 2; x++)
			memcpy(ulp_image_px(cb, x, y), (const uint8_t[4]){ 9, 99, 199, 255 }, 4);
	replay_capture_targets(g.cap, g.s);
	frame_replays(&g, dir, 2, c1);
	cJSON_Delete(clear);
	rig_close(&g);
	free(dir);
}

/* Two contexts capturing into one folder: the first writes frame-NNNN,
 * the second ctx1-frame-NNNN; nothing is overwritten, each replays alone. */
Test(capture, two_contexts_one_folder)
{
	char *dir = test_tmpdir();
	rig a, b;
	rig_open_ctx(&a, dir, 0, 1, 0);
	rig_open_ctx(&b, dir, 0, 1, 0);
	replay_capture_set_context(b.cap, 1);      /* as the driver names a context at its first frame */
	cJSON *fb = upper_left_fb(&b);            /* b draws something else: a window */
	rig_cmd(&b, fb);
	rig_cmds(&b, find_cmd(&b, "framebuffer") + 1, b.t.ncmd);
	rig_cmds(&a, 0, a.t.ncmd);
	frame_replays_ctx(&a, dir, 0, 0, 0);
	frame_replays_ctx(&b, dir, 1, 0, 0);
	uint64_t a1 = a.res.cycles, b1 = b.res.cycles;
	rig_cmds(&b, find_cmd(&b, "clear"), b.t.ncmd);
	frame_replays_ctx(&b, dir, 1, 1, b1);
	rig_cmds(&a, find_cmd(&a, "draw"), a.t.ncmd);
	frame_replays_ctx(&a, dir, 0, 1, a1);
	/* frame 0 of a is still a's: lower-left */
	char path[512];
	snprintf(path, sizeof path, "%s/frame-0000.json", dir);
	trace t;
	cr_assert(trace_load(&t, path, &a.d), "%s", a.d.msg);
	for (size_t i = 0; i < t.ncmd; i++)
		cr_assert(!cJSON_GetObjectItem(t.cmd[i], "origin"), "frame-0000 is the first context's");
	trace_free(&t);
	size_t n;
	char **files = test_list_dir(dir, false, &n);
	unsigned frames = 0;
	for (size_t k = 0; k < n; k++)
		frames += strstr(files[k], ".json") != NULL;
	test_free_names(files, n);
	cr_assert_eq(frames, 4, "frame-0000, frame-0001, ctx1-frame-0000, ctx1-frame-0001");
	cJSON_Delete(fb);
	rig_close(&a);
	rig_close(&b);
	free(dir);
}

/* ---- memory placement (docs/capture.md): where resources sit in simulated
 * memory changes no cycle and no pixel; the origin changes only how the
 * image is presented ---- */

static void replay_variant(cJSON *root, replay_result *r)
{
	char *json = cJSON_PrintUnformatted(root);
	ulp_config cfg;
	ulp_config_defaults(&cfg);
	replay_opts o = { .cfg = &cfg, .keep_image = true };
	ulp_diag d;
	ulp_diag_clear(&d);
	cr_assert(test_replay_json(json, "variant.json", "traces/samples", &o, r, &d), "%s", d.msg);
	free(json);
}

Test(capture, cycles_do_not_depend_on_memory_placement)
{
	static const char *const SAMPLES[] = { "textured_cube", "lit_sphere", "alpha_blend" };
	for (size_t k = 0; k < sizeof SAMPLES / sizeof SAMPLES[0]; k++) {
		char path[256];
		snprintf(path, sizeof path, "traces/samples/%s.json", SAMPLES[k]);
		ulp_diag d;
		char *text = ulp_read_file(path, NULL, &d);
		cr_assert(text, "%s", d.msg);
		cJSON *root = cJSON_Parse(text);
		free(text);
		replay_result base, moved, flipped;
		replay_variant(root, &base);
		/* every resource moved: an odd-sized buffer first, the rest in reverse order */
		cJSON *res = cJSON_GetObjectItem(root, "resources");
		cJSON *rev = cJSON_CreateObject();
		cJSON_AddItemToObject(rev, "pad", cJSON_Parse("{\"type\":\"buffer\",\"hex\":\"0102030405060708090a0b\"}"));
		while (res->child) {
			cJSON *last = res->child;
			while (last->next)
				last = last->next;
			cJSON_AddItemToObject(rev, last->string, cJSON_DetachItemViaPointer(res, last));
		}
		cJSON_ReplaceItemInObject(root, "resources", rev);
		replay_variant(root, &moved);
		cr_assert_eq(moved.cycles, base.cycles, "%s: %llu cycles moved, %llu in place", SAMPLES[k],
		             (unsigned long long)moved.cycles, (unsigned long long)base.cycles);
		cr_assert(!memcmp(moved.image->rgba, base.image->rgba, ulp_image_bytes(base.image)), "%s", SAMPLES[k]);
		/* origin upper-left: the same cycles, the image turned over */
		cJSON_ReplaceItemInObject(root, "version", cJSON_CreateNumber(2));
		for (cJSON *c = cJSON_GetObjectItem(root, "commands")->child; c; c = c->next)
			if (!strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(c, "cmd")), "framebuffer"))
				cJSON_AddStringToObject(c, "origin", "upper-left");
		replay_variant(root, &flipped);
		cr_assert_eq(flipped.cycles, base.cycles);
		const ulp_image *a = base.image, *b = flipped.image;
		for (uint32_t y = 0; y < a->height; y++)
			cr_assert(!memcmp(ulp_image_cpx(a, 0, y), ulp_image_cpx(b, 0, a->height - 1 - y), (size_t)a->width * 4),
			          "%s: row %u", SAMPLES[k], y);
		ulp_image_free(base.image);
		ulp_image_free(moved.image);
		ulp_image_free(flipped.image);
		cJSON_Delete(root);
	}
}

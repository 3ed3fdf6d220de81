/* The streaming replay (traces/replay/session.h): a trace replayed command
 * by command equals replay_run; resources replaced between draws take
 * effect; bad commands fail with their JSON path and leave the session
 * usable. */
#include <criterion/criterion.h>
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "base/fileio.h"
#include "base/image.h"
#include "sim/core/config.h"
#include "traces/replay/session.h"
#include "tests/test_session_fx.h"
#include "tests/test_util.h"
#include "units/gr3d/zs.h"

/* ---- the same as replay_run ---- */

static void same_result(const replay_result *a, const replay_result *b, const char *name)
{
	cr_assert_eq(a->cycles, b->cycles, "%s: cycles %llu vs %llu", name, (unsigned long long)a->cycles,
	             (unsigned long long)b->cycles);
	cr_assert_eq(a->draws, b->draws, "%s", name);
	cr_assert_eq(a->fragments, b->fragments, "%s", name);
	cr_assert_eq(a->triangles, b->triangles, "%s", name);
	cr_assert_eq(a->vertex_cycles, b->vertex_cycles, "%s", name);
	cr_assert_eq(a->nunits, b->nunits, "%s", name);
	for (unsigned k = 0; k < a->nunits; k++) {          /* by name: a lazy list adds zs at the end */
		unsigned j = 0;
		while (j < b->nunits && strcmp(a->unit[k].name, b->unit[j].name))
			j++;
		cr_assert(j < b->nunits, "%s: no %s", name, a->unit[k].name);
		cr_assert(!memcmp(&a->unit[k].stats, &b->unit[j].stats, sizeof a->unit[k].stats), "%s: %s stats", name,
		          a->unit[k].name);
	}
	cr_assert(a->image && b->image, "%s: both kept an image", name);
	cr_assert_eq(a->image->width, b->image->width);
	cr_assert_eq(a->image->height, b->image->height);
	cr_assert(!memcmp(a->image->rgba, b->image->rgba, (size_t)a->image->width * a->image->height * 4),
	          "%s: the images differ", name);
	cr_assert_eq(!a->depth, !b->depth, "%s", name);
}

static void free_result(replay_result *r)
{
	ulp_image_free(r->image);
	free(r->depth);
}

static void session_equals_run(const char *path, bool lazy)
{
	trace t;
	ulp_diag d;
	ulp_diag_clear(&d);
	cr_assert(trace_load(&t, path, &d), "%s", d.msg);
	ulp_config cfg;
	ulp_config_defaults(&cfg);
	replay_opts o = { .cfg = &cfg, .keep_image = true, .keep_depth = true };
	replay_result a, b;
	cr_assert(replay_run(&t, &o, &a, &d), "%s: %s", path, d.msg);

	/* the same trace, streamed: shaders and resources first, then one command at a time */
	replay_session_units u = { .zs = !lazy, .lazy = lazy };
	replay_session *s = replay_session_open(&o, &u, t.path, t.dir, &b, &d);
	cr_assert(s, "%s", d.msg);
	for (size_t k = 0; k < t.nsh; k++)
		cr_assert(replay_session_shader(s, &t.sh[k], &d), "%s", d.msg);
	for (size_t k = 0; k < t.nres; k++) {
		const trace_resource *r = &t.res[k];
		bool ok = r->type == TRACE_BUFFER ? replay_session_buffer(s, r->id, r->bytes, r->len, &d)
		        : replay_session_texture(s, r->id, r->format, r->target, r->width, r->height, r->nlevels,
		                                 r->bytes, r->len, &d);
		cr_assert(ok, "%s", d.msg);
	}
	for (size_t i = 0; i < t.ncmd; i++) {
		cr_assert_eq(replay_session_ncommands(s), i);
		cr_assert(replay_session_command(s, t.cmd[i], &d), "%s: %s", path, d.msg);
	}
	cr_assert(replay_session_finish(s, &d), "%s", d.msg);
	replay_session_close(s);
	if (!lazy)                          /* the same list in the same order */
		for (unsigned k = 0; k < a.nunits; k++)
			cr_assert_str_eq(a.unit[k].name, b.unit[k].name);
	same_result(&a, &b, path);
	free_result(&a);
	free_result(&b);
	trace_free(&t);
}

Test(session, samples_equal_replay_run)
{
	static const char *const T[] = { "traces/samples/triangle.json", "traces/samples/textured_cube.json",
		"traces/samples/alpha_blend.json", "traces/samples/discard.json", "traces/samples/lit_sphere.json",
		"traces/samples/gs_particles.json", "traces/samples/teaching_8x8.json" };
	for (size_t k = 0; k < sizeof T / sizeof T[0]; k++)
		session_equals_run(T[k], true);
}

Test(session, units_up_front_or_lazy_give_the_same_figures)
{
	/* textured_cube uses depth: listed up front (zs) or added at its first draw */
	session_equals_run("traces/samples/textured_cube.json", false);
}

/* ---- a session built by hand ---- */

static const char VS[] = "VERT\nDCL IN[0]\nDCL IN[1]\nDCL OUT[0], POSITION\nDCL OUT[1], COLOR\n"
                         "  0: MOV OUT[0], IN[0]\n  1: MOV OUT[1], IN[1]\n  2: END\n";
static const char FS[] = "FRAG\nDCL IN[0], COLOR, COLOR\nDCL OUT[0], COLOR\n  0: MOV OUT[0], IN[0]\n  1: END\n";
static const char FS_TEX[] = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL SAMP[0]\n"
                             "DCL SVIEW[0], 2D, FLOAT\n  0: TEX OUT[0], IN[0], SAMP[0], 2D\n  1: END\n";

typedef test_session fixture;

static void open_fixture(fixture *f)
{
	test_session_open(f, "hand");
}

static bool cmd(fixture *f, const char *json)
{
	return test_session_cmd(f, json);
}

static void shader(fixture *f, const char *id, enum trace_stage st, const char *text)
{
	trace_shader sh;
	memset(&sh, 0, sizeof sh);
	snprintf(sh.id, sizeof sh.id, "%s", id);
	sh.stage = st;
	sh.code = TRACE_TGSI;
	sh.text = (char *)text;
	cr_assert(replay_session_shader(f->s, &sh, &f->d), "%s", f->d.msg);
}

/* A full-window quad (a strip) with one colour per vertex, all c. */
static void quad(float v[4][8], float z, const float c[4])
{
	static const float P[4][2] = { { -1, -1 }, { 1, -1 }, { -1, 1 }, { 1, 1 } };
	for (int k = 0; k < 4; k++) {
		float row[8] = { P[k][0], P[k][1], z, 1, c[0], c[1], c[2], c[3] };
		memcpy(v[k], row, sizeof row);
	}
}

static const uint8_t *pixel(fixture *f, unsigned x, unsigned y)
{
	ulp_image *img = replay_session_cbuf(f->s, 0, NULL);
	cr_assert(img);
	return ulp_image_cpx(img, x, y);
}

static void setup_colour(fixture *f)
{
	open_fixture(f);
	shader(f, "vs", TRACE_VERTEX, VS);
	shader(f, "fs", TRACE_FRAGMENT, FS);
	float v[4][8];
	quad(v, 0, (const float[4]){ 1, 0, 0, 1 });
	cr_assert(replay_session_buffer(f->s, "vb", v, sizeof v, &f->d), "%s", f->d.msg);
	cr_assert(cmd(f, "{\"cmd\":\"framebuffer\",\"width\":16,\"height\":8,\"cbufs\":[{\"format\":\"RGBA8888\"}]}"),
	          "%s", f->d.msg);
	cr_assert(cmd(f, "{\"cmd\":\"bind_shaders\",\"vs\":\"vs\",\"fs\":\"fs\"}"), "%s", f->d.msg);
	cr_assert(cmd(f, "{\"cmd\":\"vertex_elements\",\"elements\":["
	                 "{\"buffer\":\"vb\",\"offset\":0,\"stride\":32,\"format\":\"R32G32B32A32_FLOAT\"},"
	                 "{\"buffer\":\"vb\",\"offset\":16,\"stride\":32,\"format\":\"R32G32B32A32_FLOAT\"}]}"),
	          "%s", f->d.msg);
}

static void close_fixture(fixture *f)
{
	test_session_close(f, true);
}

Test(session, replaced_buffer_takes_effect_at_the_next_draw)
{
	fixture f;
	setup_colour(&f);
	const char *draw = "{\"cmd\":\"draw\",\"mode\":\"triangle_strip\",\"start\":0,\"count\":4}";
	cr_assert(cmd(&f, draw), "%s", f.d.msg);
	const uint8_t *p = pixel(&f, 8, 4);
	cr_assert(p[0] == 255 && p[1] == 0 && p[2] == 0, "red: %u %u %u", p[0], p[1], p[2]);
	float v[4][8];
	quad(v, 0, (const float[4]){ 0, 0, 1, 1 });
	cr_assert(replay_session_buffer(f.s, "vb", v, sizeof v, &f.d), "%s", f.d.msg);
	cr_assert(cmd(&f, draw), "%s", f.d.msg);
	p = pixel(&f, 8, 4);
	cr_assert(p[0] == 0 && p[2] == 255, "blue after the new bytes: %u %u %u", p[0], p[1], p[2]);
	cr_assert_eq(f.res.draws, 2);
	close_fixture(&f);
}

Test(session, cpu_writes_into_the_colour_buffer_are_read_by_the_next_draw)
{
	fixture f;
	setup_colour(&f);
	/* the draw covers only the left half; a CPU write on the right stays */
	ulp_image *img = replay_session_cbuf(f.s, 0, NULL);
	ulp_image_fill(img, 0, 255, 0, 255);
	float v[4][8];
	quad(v, 0, (const float[4]){ 1, 0, 0, 1 });
	for (int k = 0; k < 4; k++)
		if (v[k][0] > 0)
			v[k][0] = 0;
	cr_assert(replay_session_buffer(f.s, "vb", v, sizeof v, &f.d), "%s", f.d.msg);
	cr_assert(cmd(&f, "{\"cmd\":\"draw\",\"mode\":\"triangle_strip\",\"start\":0,\"count\":4}"), "%s", f.d.msg);
	const uint8_t *l = pixel(&f, 2, 4), *r = pixel(&f, 13, 4);
	cr_assert(l[0] == 255 && l[1] == 0, "drawn: %u %u", l[0], l[1]);
	cr_assert(r[0] == 0 && r[1] == 255, "the CPU's green: %u %u", r[0], r[1]);
	close_fixture(&f);
}

Test(session, replaced_texture_is_sampled_at_the_next_draw)
{
	fixture f;
	open_fixture(&f);
	shader(&f, "vs", TRACE_VERTEX, VS);
	shader(&f, "fs", TRACE_FRAGMENT, FS_TEX);
	float v[4][8];
	quad(v, 0, (const float[4]){ 0.5f, 0.5f, 0, 1 });        /* texcoord (0.5, 0.5) everywhere */
	cr_assert(replay_session_buffer(f.s, "vb", v, sizeof v, &f.d), "%s", f.d.msg);
	uint8_t tex[4 * 4 * 4];
	for (size_t k = 0; k < sizeof tex; k += 4)
		tex[k] = 255, tex[k + 1] = 0, tex[k + 2] = 0, tex[k + 3] = 255;
	cr_assert(replay_session_texture(f.s, "t", TRACE_RGBA8888, TRACE_TEX_2D, 4, 4, 1, tex, sizeof tex, &f.d),
	          "%s", f.d.msg);
	const char *setup[] = {
		"{\"cmd\":\"framebuffer\",\"width\":8,\"height\":8,\"cbufs\":[{\"format\":\"RGBA8888\"}]}",
		"{\"cmd\":\"bind_shaders\",\"vs\":\"vs\",\"fs\":\"fs\"}",
		"{\"cmd\":\"vertex_elements\",\"elements\":["
		"{\"buffer\":\"vb\",\"offset\":0,\"stride\":32,\"format\":\"R32G32B32A32_FLOAT\"},"
		"{\"buffer\":\"vb\",\"offset\":16,\"stride\":32,\"format\":\"R32G32B32A32_FLOAT\"}]}",
		"{\"cmd\":\"sampler_view\",\"index\":0,\"resource\":\"t\"}",
		"{\"cmd\":\"sampler\",\"index\":0,\"filter\":\"nearest\"}",
		"{\"cmd\":\"draw\",\"mode\":\"triangle_strip\",\"start\":0,\"count\":4}",
	};
	for (size_t k = 0; k < sizeof setup / sizeof setup[0]; k++)
		cr_assert(cmd(&f, setup[k]), "%s: %s", setup[k], f.d.msg);
	const uint8_t *p = pixel(&f, 4, 4);
	cr_assert(p[0] == 255 && p[2] == 0, "red texels: %u %u %u", p[0], p[1], p[2]);
	for (size_t k = 0; k < sizeof tex; k += 4)
		tex[k] = 0, tex[k + 2] = 255;
	cr_assert(replay_session_texture(f.s, "t", TRACE_RGBA8888, TRACE_TEX_2D, 4, 4, 1, tex, sizeof tex, &f.d),
	          "%s", f.d.msg);
	cr_assert(cmd(&f, setup[5]), "%s", f.d.msg);
	p = pixel(&f, 4, 4);
	cr_assert(p[0] == 0 && p[2] == 255, "blue texels after the replace: %u %u %u", p[0], p[1], p[2]);
	/* a texture's bytes must match its levels */
	ulp_diag_clear(&f.d);
	cr_assert_not(replay_session_texture(f.s, "t", TRACE_RGBA8888, TRACE_TEX_2D, 4, 4, 2, tex, sizeof tex, &f.d));
	cr_assert(strstr(f.d.msg, "levels take"), "%s", f.d.msg);
	close_fixture(&f);
}

Test(session, a_moved_buffer_keeps_its_bytes_and_frees_its_place)
{
	fixture f;
	setup_colour(&f);
	/* grow vb past its 4 KB place: it moves; the vertex elements name it again */
	size_t n = 4096 / sizeof(float) + 64;
	float *big = calloc(n, sizeof *big);
	cr_assert(big);
	quad((float (*)[8])big, 0, (const float[4]){ 0, 1, 0, 1 });
	cr_assert(replay_session_buffer(f.s, "vb", big, n * sizeof *big, &f.d), "%s", f.d.msg);
	/* a small new buffer takes the freed place */
	float v[4][8];
	quad(v, 0, (const float[4]){ 1, 1, 0, 1 });
	cr_assert(replay_session_buffer(f.s, "small", v, sizeof v, &f.d), "%s", f.d.msg);
	cr_assert(cmd(&f, "{\"cmd\":\"vertex_elements\",\"elements\":["
	                  "{\"buffer\":\"vb\",\"offset\":0,\"stride\":32,\"format\":\"R32G32B32A32_FLOAT\"},"
	                  "{\"buffer\":\"vb\",\"offset\":16,\"stride\":32,\"format\":\"R32G32B32A32_FLOAT\"}]}"),
	          "%s", f.d.msg);
	cr_assert(cmd(&f, "{\"cmd\":\"draw\",\"mode\":\"triangle_strip\",\"start\":0,\"count\":4}"), "%s", f.d.msg);
	const uint8_t *p = pixel(&f, 8, 4);
	cr_assert(p[0] == 0 && p[1] == 255, "green from the moved buffer: %u %u %u", p[0], p[1], p[2]);
	cr_assert(cmd(&f, "{\"cmd\":\"vertex_elements\",\"elements\":["
	                  "{\"buffer\":\"small\",\"offset\":0,\"stride\":32,\"format\":\"R32G32B32A32_FLOAT\"},"
	                  "{\"buffer\":\"small\",\"offset\":16,\"stride\":32,\"format\":\"R32G32B32A32_FLOAT\"}]}"),
	          "%s", f.d.msg);
	cr_assert(cmd(&f, "{\"cmd\":\"draw\",\"mode\":\"triangle_strip\",\"start\":0,\"count\":4}"), "%s", f.d.msg);
	p = pixel(&f, 8, 4);
	cr_assert(p[0] == 255 && p[1] == 255, "yellow from the buffer in the freed place: %u %u %u", p[0], p[1], p[2]);
	free(big);
	close_fixture(&f);
}

Test(session, bad_commands_fail_with_their_path_and_the_session_goes_on)
{
	fixture f;
	open_fixture(&f);
	shader(&f, "vs", TRACE_VERTEX, VS);
	shader(&f, "fs", TRACE_FRAGMENT, FS);
	cr_assert_not(cmd(&f, "{\"cmd\":\"draw\",\"mode\":\"triangles\",\"start\":0,\"count\":3}"));
	cr_assert(strstr(f.d.msg, "$.commands[0]") && strstr(f.d.msg, "draw before bind_shaders"), "%s", f.d.msg);
	cr_assert_not(cmd(&f, "{\"cmd\":\"teleport\"}"));
	cr_assert(strstr(f.d.msg, "$.commands[1].cmd") && strstr(f.d.msg, "unknown command"), "%s", f.d.msg);
	cr_assert_not(cmd(&f, "{\"cmd\":\"bind_shaders\",\"vs\":\"vs\",\"fs\":\"nope\"}"));
	cr_assert(strstr(f.d.msg, "no shader named 'nope'"), "%s", f.d.msg);
	cr_assert_not(cmd(&f, "{\"cmd\":\"viewport\",\"scale\":[1,1],\"translate\":[0,0,0]}"));
	cr_assert(strstr(f.d.msg, "$.commands[3].scale"), "%s", f.d.msg);
	/* a removed resource is no longer a name a command may use */
	float v[4][8];
	quad(v, 0, (const float[4]){ 1, 0, 0, 1 });
	cr_assert(replay_session_buffer(f.s, "vb", v, sizeof v, &f.d));
	cr_assert(replay_session_remove_resource(f.s, "vb"));
	cr_assert_not(replay_session_remove_resource(f.s, "vb"));
	cr_assert_not(cmd(&f, "{\"cmd\":\"vertex_elements\",\"elements\":["
	                      "{\"buffer\":\"vb\",\"offset\":0,\"stride\":32,\"format\":\"R32G32B32A32_FLOAT\"}]}"));
	cr_assert(strstr(f.d.msg, "no buffer named 'vb'"), "%s", f.d.msg);
	ulp_diag_clear(&f.d);
	cr_assert_not(replay_session_buffer(f.s, "bad id!", v, sizeof v, &f.d));
	cr_assert(strstr(f.d.msg, "not a trace id"), "%s", f.d.msg);
	cr_assert(cmd(&f, "{\"cmd\":\"framebuffer\",\"width\":4,\"height\":4,\"cbufs\":[{\"format\":\"RGBA8888\"}]}"),
	          "%s", f.d.msg);
	/* still usable: a good bind and a draw run */
	cr_assert(replay_session_buffer(f.s, "vb", v, sizeof v, &f.d));
	cr_assert(cmd(&f, "{\"cmd\":\"bind_shaders\",\"vs\":\"vs\",\"fs\":\"fs\"}"), "%s", f.d.msg);
	cr_assert(cmd(&f, "{\"cmd\":\"vertex_elements\",\"elements\":["
	                  "{\"buffer\":\"vb\",\"offset\":0,\"stride\":32,\"format\":\"R32G32B32A32_FLOAT\"},"
	                  "{\"buffer\":\"vb\",\"offset\":16,\"stride\":32,\"format\":\"R32G32B32A32_FLOAT\"}]}"),
	          "%s", f.d.msg);
	cr_assert(cmd(&f, "{\"cmd\":\"draw\",\"mode\":\"triangle_strip\",\"start\":0,\"count\":4}"), "%s", f.d.msg);
	cr_assert_eq(f.res.draws, 1);
	const uint8_t *p = pixel(&f, 2, 2);
	cr_assert_eq(p[0], 255);
	cr_assert_null(replay_session_cbuf(f.s, 1, NULL));
	cr_assert_null(replay_session_zs(f.s));
	close_fixture(&f);
}

Test(session, depth_surface_reads_back_what_the_draw_wrote)
{
	fixture f;
	open_fixture(&f);
	shader(&f, "vs", TRACE_VERTEX, VS);
	shader(&f, "fs", TRACE_FRAGMENT, FS);
	float v[4][8];
	quad(v, 0.5f, (const float[4]){ 1, 0, 0, 1 });     /* window z 0.75 */
	cr_assert(replay_session_buffer(f.s, "vb", v, sizeof v, &f.d));
	const char *c[] = {
		"{\"cmd\":\"framebuffer\",\"width\":4,\"height\":4,\"cbufs\":[{\"format\":\"RGBA8888\"}],"
		"\"zsbuf\":{\"format\":\"D24S8\"}}",
		"{\"cmd\":\"depth_stencil_alpha\",\"depth\":{\"enabled\":true,\"func\":\"less\"}}",
		"{\"cmd\":\"clear\",\"depth\":1.0}",
		"{\"cmd\":\"bind_shaders\",\"vs\":\"vs\",\"fs\":\"fs\"}",
		"{\"cmd\":\"vertex_elements\",\"elements\":["
		"{\"buffer\":\"vb\",\"offset\":0,\"stride\":32,\"format\":\"R32G32B32A32_FLOAT\"},"
		"{\"buffer\":\"vb\",\"offset\":16,\"stride\":32,\"format\":\"R32G32B32A32_FLOAT\"}]}",
		"{\"cmd\":\"draw\",\"mode\":\"triangle_strip\",\"start\":0,\"count\":4}",
	};
	for (size_t k = 0; k < sizeof c / sizeof c[0]; k++)
		cr_assert(cmd(&f, c[k]), "%s: %s", c[k], f.d.msg);
	zs_surface *zs = replay_session_zs(f.s);
	cr_assert(zs);
	double z = zs_surface_depth(zs, 1, 1);
	cr_assert(z > 0.74 && z < 0.76, "depth %f", z);
	close_fixture(&f);
}

Test(session, check_shader_gives_the_compiler_message)
{
	fixture f;
	open_fixture(&f);
	shader(&f, "vs", TRACE_VERTEX, VS);
	shader(&f, "fs", TRACE_FRAGMENT, FS_TEX);
	cr_assert(replay_session_check_shader(f.s, "vs", &f.d), "%s", f.d.msg);
	cr_assert(replay_session_check_shader(f.s, "fs", &f.d), "%s", f.d.msg);
	/* the PICA200 vertex unit has no texture fetch */
	shader(&f, "vstex", TRACE_VERTEX, "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\nDCL SAMP[0]\n"
	                                  "DCL SVIEW[0], 2D, FLOAT\n  0: TEX OUT[0], IN[0], SAMP[0], 2D\n  1: END\n");
	ulp_diag_clear(&f.d);
	cr_assert_not(replay_session_check_shader(f.s, "vstex", &f.d));
	cr_assert(strstr(f.d.msg, "PICA200 cannot run it"), "%s", f.d.msg);
	ulp_diag_clear(&f.d);
	cr_assert_not(replay_session_check_shader(f.s, "nope", &f.d));
	cr_assert(strstr(f.d.msg, "no shader named"), "%s", f.d.msg);
	/* replaced and removed shaders */
	shader(&f, "fs", TRACE_FRAGMENT, FS);
	cr_assert(replay_session_check_shader(f.s, "fs", &f.d), "%s", f.d.msg);
	cr_assert(replay_session_remove_shader(f.s, "vstex"));
	cr_assert_not(replay_session_remove_shader(f.s, "vstex"));
	close_fixture(&f);
}

Test(session, stats_of_the_run_so_far)
{
	fixture f;
	setup_colour(&f);
	cr_assert(cmd(&f, "{\"cmd\":\"draw\",\"mode\":\"triangle_strip\",\"start\":0,\"count\":4}"), "%s", f.d.msg);
	char *dir = test_tmpdir();
	char path[512];
	snprintf(path, sizeof path, "%s/stats.txt", dir);
	cr_assert(replay_session_write_stats(f.s, path, &f.d), "%s", f.d.msg);
	size_t n;
	char *text = ulp_read_file(path, &n, &f.d);
	cr_assert(text, "%s", f.d.msg);
	cr_assert(strstr(text, "gpu.dw.busy_cycles"), "the units' totals");
	cr_assert(strstr(text, "sim.cycles"));
	free(text);
	free(dir);
	close_fixture(&f);
}

/* Quads the early depth test rejects give their TRAM slot back: a draw of
 * many triangles wholly behind what is drawn runs to its end (it stopped on
 * the watchdog when ZS dropped them holding their slots). */
Test(session, rejected_quads_free_their_tram_slots)
{
	fixture f;
	setup_colour(&f);
	enum { TRIS = 300 };
	float (*v)[8] = calloc(3 * TRIS, sizeof *v);
	cr_assert(v);
	for (int t = 0; t < TRIS; t++) {
		static const float P[3][2] = { { -1, -1 }, { 3, -1 }, { -1, 3 } };
		for (int k = 0; k < 3; k++) {
			float row[8] = { P[k][0], P[k][1], 0.5f, 1, 0, 0, 1, 1 };
			memcpy(v[3 * t + k], row, sizeof row);
		}
	}
	cr_assert(replay_session_buffer(f.s, "far", v, 3 * TRIS * sizeof *v, &f.d), "%s", f.d.msg);
	free(v);
	const char *c[] = {
		"{\"cmd\":\"framebuffer\",\"width\":16,\"height\":8,\"cbufs\":[{\"format\":\"RGBA8888\"}],"
		"\"zsbuf\":{\"format\":\"D24S8\"}}",
		"{\"cmd\":\"depth_stencil_alpha\",\"depth\":{\"enabled\":true,\"func\":\"less\"}}",
		"{\"cmd\":\"clear\",\"depth\":1.0}",
		"{\"cmd\":\"draw\",\"mode\":\"triangle_strip\",\"start\":0,\"count\":4}",      /* red at z 0.5 */
		"{\"cmd\":\"vertex_elements\",\"elements\":["
		"{\"buffer\":\"far\",\"offset\":0,\"stride\":32,\"format\":\"R32G32B32A32_FLOAT\"},"
		"{\"buffer\":\"far\",\"offset\":16,\"stride\":32,\"format\":\"R32G32B32A32_FLOAT\"}]}",
	};
	for (size_t k = 0; k < sizeof c / sizeof c[0]; k++)
		cr_assert(cmd(&f, c[k]), "%s: %s", c[k], f.d.msg);
	char draw[128];
	snprintf(draw, sizeof draw, "{\"cmd\":\"draw\",\"mode\":\"triangles\",\"start\":0,\"count\":%d}", 3 * TRIS);
	cr_assert(cmd(&f, draw), "%s", f.d.msg);
	const uint8_t *p = pixel(&f, 8, 4);
	cr_assert(p[0] == 255 && p[2] == 0, "the red in front stays: %u %u %u", p[0], p[1], p[2]);
	cr_assert_eq(f.res.draws, 2);
	close_fixture(&f);
}

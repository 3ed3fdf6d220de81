/* The one-clock draw pipeline (units/gpu.h): clipping, culling, two-sided
 * colour, flat shading, the TRAM ring, overlap and determinism, through
 * in-memory traces replayed end to end. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/image.h"
#include "traces/replay/replay.h"
#include "tests/test_replay_pair.h"
#include "tests/test_util.h"
#include "units/geom/setup.h"
#include "units/gpu.h"
#include "units/pica/vfetch.h"

/* A trace: 64x64, clear black, pass-through VS (position, COLOR, BCOLOR),
 * FS = its COLOR input (interpolation `interp`), the given vertices (x y z w
 * r g b a, and a back colour b r g b a), `raster` as the rasterizer
 * command's extra fields, `extra` commands before the draw. */
static char *make_trace(const float *v, unsigned n, const char *mode, const char *interp,
                        const char *raster, const char *extra)
{
	size_t cap = 16384 + (size_t)n * 12 * 24;
	char *s = malloc(cap), *p = s;
	cr_assert(s);
	p += sprintf(p, "{\"format\": \"ulpsim-trace\", \"version\": 1, \"name\": \"gpu\", "
	                "\"resources\": {\"vb\": {\"type\": \"buffer\", \"f32\": [");
	for (unsigned k = 0; k < n * 12; k++)
		p += sprintf(p, "%s%.9g", k ? ", " : "", (double)v[k]);
	p += sprintf(p, "]}}, \"shaders\": {"
	    "\"vs\": {\"stage\": \"vertex\", \"tgsi\": \"VERT\\nDCL IN[0]\\nDCL IN[1]\\nDCL IN[2]\\n"
	    "DCL OUT[0], POSITION\\nDCL OUT[1], COLOR\\nDCL OUT[2], BCOLOR\\n"
	    "  0: MOV OUT[0], IN[0]\\n  1: MOV OUT[1], IN[1]\\n  2: MOV OUT[2], IN[2]\\n  3: END\\n\"},"
	    "\"fs\": {\"stage\": \"fragment\", \"tgsi\": \"FRAG\\nDCL IN[0], COLOR, %s\\n"
	    "DCL OUT[0], COLOR\\n  0: MOV OUT[0], IN[0]\\n  1: END\\n\"}}, \"commands\": ["
	    "{\"cmd\": \"framebuffer\", \"width\": 64, \"height\": 64, \"cbufs\": [{\"format\": \"RGBA8888\"}]},"
	    "{\"cmd\": \"viewport\", \"scale\": [32, 32, 0.5], \"translate\": [32, 32, 0.5]},"
	    "{\"cmd\": \"rasterizer\"%s%s},"
	    "{\"cmd\": \"bind_shaders\", \"vs\": \"vs\", \"fs\": \"fs\"},"
	    "{\"cmd\": \"vertex_elements\", \"elements\": ["
	    "{\"buffer\": \"vb\", \"offset\": 0, \"stride\": 48, \"format\": \"R32G32B32A32_FLOAT\"},"
	    "{\"buffer\": \"vb\", \"offset\": 16, \"stride\": 48, \"format\": \"R32G32B32A32_FLOAT\"},"
	    "{\"buffer\": \"vb\", \"offset\": 32, \"stride\": 48, \"format\": \"R32G32B32A32_FLOAT\"}]},"
	    "{\"cmd\": \"clear\", \"color\": [0, 0, 0, 1]},%s"
	    "{\"cmd\": \"draw\", \"mode\": \"%s\", \"start\": 0, \"count\": %u},"
	    "{\"cmd\": \"checkpoint\", \"name\": \"f\"}]}",
	    interp, raster[0] ? ", " : "", raster, extra, mode, n);
	cr_assert_lt((size_t)(p - s), cap);
	return s;
}

static ulp_image *run(const char *json, replay_result *res, const ulp_config *cfg_in)
{
	ulp_diag d;
	ulp_config cfg;
	if (cfg_in)
		cfg = *cfg_in;
	else
		ulp_config_defaults(&cfg);
	replay_opts o = { .cfg = &cfg, .keep_image = true };
	cr_assert(test_replay_json(json, "gpu.trace.json", ".", &o, res, &d), "%s", d.msg);
	cr_assert(res->image);
	return res->image;
}

static uint64_t counter(const replay_result *res, const char *unit, const char *name)
{
	for (unsigned k = 0; k < res->nunits; k++) {
		const sim_unit *u = &res->unit[k];
		if (strcmp(u->name, unit))
			continue;
		for (unsigned c = 0; c < u->ncounters; c++)
			if (!strcmp(u->counter_defs[c].name, name))
				return u->stats.counter[c];
	}
	cr_assert_fail("no counter %s.%s", unit, name);
	return 0;
}

static const sim_unit *unit(const replay_result *res, const char *name)
{
	for (unsigned k = 0; k < res->nunits; k++)
		if (!strcmp(res->unit[k].name, name))
			return &res->unit[k];
	cr_assert_fail("no unit %s", name);
	return NULL;
}

/* pixel at window (x, y), y up (the image is top row first) */
static const uint8_t *px(const ulp_image *img, uint32_t x, uint32_t y)
{
	return ulp_image_cpx(img, x, img->height - 1 - y);
}

#define V(x, y, z, w, r, g, b) x, y, z, w, r, g, b, 1, 0, 0, 1, 1

/* A counter-clockwise triangle with red front and blue back colours. */
static const float CCW[] = { V(-0.8f, -0.8f, 0, 1, 1, 0, 0), V(0.8f, -0.8f, 0, 1, 1, 0, 0),
                             V(0, 0.8f, 0, 1, 1, 0, 0) };
static const float CW[] = { V(-0.8f, -0.8f, 0, 1, 1, 0, 0), V(0, 0.8f, 0, 1, 1, 0, 0),
                            V(0.8f, -0.8f, 0, 1, 1, 0, 0) };

Test(gpu, culling_and_two_sided_colour)
{
	replay_result res;
	char *j = make_trace(CW, 3, "triangles", "COLOR", "\"cull\": \"back\"", "");
	ulp_image *img = run(j, &res, NULL);
	cr_assert_eq(res.fragments, 0, "a clockwise triangle is a back face: culled");
	cr_assert_eq(counter(&res, "setup", "culled"), 1);
	ulp_image_free(img);
	free(j);
	j = make_trace(CW, 3, "triangles", "COLOR", "\"cull\": \"front\", \"two_side\": true", "");
	img = run(j, &res, NULL);
	cr_assert_gt(res.fragments, 500);
	const uint8_t *c = px(img, 32, 20);
	cr_assert(c[0] == 0 && c[2] == 255, "back face, two-sided: BCOLOR (blue), got %u %u %u", c[0], c[1], c[2]);
	ulp_image_free(img);
	free(j);
	j = make_trace(CCW, 3, "triangles", "COLOR", "\"two_side\": true", "");
	img = run(j, &res, NULL);
	c = px(img, 32, 20);
	cr_assert(c[0] == 255 && c[2] == 0, "front face: COLOR (red), got %u %u %u", c[0], c[1], c[2]);
	ulp_image_free(img);
	free(j);
}

Test(gpu, flat_shading_takes_the_last_vertex)
{
	static const float tri[] = { V(-0.8f, -0.8f, 0, 1, 1, 0, 0), V(0.8f, -0.8f, 0, 1, 0, 1, 0),
	                             V(0, 0.8f, 0, 1, 0, 0, 1) };
	replay_result res;
	char *j = make_trace(tri, 3, "triangles", "COLOR", "\"flatshade\": true", "");
	ulp_image *img = run(j, &res, NULL);
	for (uint32_t y = 8; y < 50; y += 7) {
		const uint8_t *c = px(img, 32, y);
		cr_assert(c[0] == 0 && c[1] == 0 && c[2] == 255, "(32, %u): %u %u %u", y, c[0], c[1], c[2]);
	}
	ulp_image_free(img);
	free(j);
	j = make_trace(tri, 3, "triangles", "COLOR", "", "");
	img = run(j, &res, NULL);
	const uint8_t *c = px(img, 32, 20);
	cr_assert(c[0] > 0 && c[1] > 0, "smooth without flatshade: %u %u %u", c[0], c[1], c[2]);
	ulp_image_free(img);
	free(j);
}

Test(gpu, clipper_cuts_instead_of_dropping)
{
	/* one vertex behind the eye (w < 0): the old path dropped the triangle */
	static const float tri[] = { V(-0.8f, -0.8f, 0, 1, 1, 1, 1), V(0.8f, -0.8f, 0, 1, 1, 1, 1),
	                             V(0, 0.8f, 0, -1, 1, 1, 1) };
	replay_result res;
	char *j = make_trace(tri, 3, "triangles", "COLOR", "", "");
	ulp_image *img = run(j, &res, NULL);
	cr_assert_eq(counter(&res, "clip", "clipped"), 1);
	cr_assert_gt(res.fragments, 100, "the part in front of the eye is drawn");
	ulp_image_free(img);
	free(j);
	/* wholly beyond the far plane: culled by the clipper */
	static const float far[] = { V(-0.8f, -0.8f, 2, 1, 1, 1, 1), V(0.8f, -0.8f, 2, 1, 1, 1, 1),
	                             V(0, 0.8f, 2, 1, 1, 1, 1) };
	j = make_trace(far, 3, "triangles", "COLOR", "", "");
	img = run(j, &res, NULL);
	cr_assert_eq(counter(&res, "clip", "culled"), 1);
	cr_assert_eq(res.fragments, 0);
	ulp_image_free(img);
	free(j);
}

/* The CCW triangle with the half x < 0 cut away by trace j: one clipped
 * triangle, about half the fragments, the left side black. */
static void check_left_half_cut(const char *j)
{
	replay_result res;
	char *whole_j = make_trace(CCW, 3, "triangles", "COLOR", "", "");
	ulp_image *img = run(whole_j, &res, NULL);
	const uint64_t whole = res.fragments;
	ulp_image_free(img);
	free(whole_j);
	img = run(j, &res, NULL);
	cr_assert_eq(counter(&res, "clip", "clipped"), 1);
	cr_assert_gt(res.fragments, whole * 4 / 10);
	cr_assert_lt(res.fragments, whole * 6 / 10);
	cr_assert_eq(px(img, 20, 20)[0], 0, "left half clipped away");
	cr_assert_eq(px(img, 44, 20)[0], 255, "right half drawn");
	ulp_image_free(img);
}

Test(gpu, user_clip_plane_halves_the_triangle)
{
	/* keep x >= 0 */
	char *j = make_trace(CCW, 3, "triangles", "COLOR", "\"clip_plane_enable\": 1",
	                     "{\"cmd\": \"clip\", \"planes\": [1, 0, 0, 0]},");
	check_left_half_cut(j);
	free(j);
}

/* s with its first `from` replaced by `to` (malloc'd). */
static char *replaced(const char *s, const char *from, const char *to)
{
	const char *at = strstr(s, from);
	cr_assert(at, "no %s", from);
	char *r = malloc(strlen(s) + strlen(to) + 1);
	cr_assert(r);
	sprintf(r, "%.*s%s%s", (int)(at - s), s, to, at + strlen(from));
	return r;
}

/* A CLIPDIST output cuts without a user plane (units/geom/clip.c): the
 * vertex shader's CLIPDIST[0] is the position's x in every component, so
 * the half x < 0 goes; the same cut as the plane (1, 0, 0, 0) above. */
Test(gpu, clip_distance_output_halves_the_triangle)
{
	char *j = make_trace(CCW, 3, "triangles", "COLOR", "", "");
	char *k1 = replaced(j, "DCL OUT[2], BCOLOR\\n", "DCL OUT[2], BCOLOR\\nDCL OUT[3], CLIPDIST\\n");
	char *k = replaced(k1, "  3: END", "  3: MOV OUT[3], IN[0].xxxx\\n  4: END");
	check_left_half_cut(k);
	free(k);
	free(k1);
	free(j);
}

Test(gpu, tram_ring_slots_and_waits)
{
	cr_assert_eq(setup_tram_slots(1), 64);
	cr_assert_eq(setup_tram_slots(3), 21);
	cr_assert_eq(setup_tram_slots(16), 4);
	/* 128 small triangles (a strip over the target) with 1 TRAM row: one
	 * clock for the whole draw, no 64-triangle passes */
	enum { N = 130 };
	float *v = calloc(N * 12, sizeof *v);
	cr_assert(v);
	for (unsigned k = 0; k < N; k++) {
		float x = -0.95f + 1.9f * (float)(k / 2) / (N / 2 - 1), y = k & 1 ? 0.1f : -0.1f;
		const float one[] = { V(x, y, 0, 1, 1, 1, 1) };
		memcpy(&v[k * 12], one, sizeof one);
	}
	replay_result res;
	char *j = make_trace(v, N, "triangle_strip", "COLOR", "", "");
	ulp_image *img = run(j, &res, NULL);
	cr_assert_eq(res.triangles, N - 2);
	cr_assert_eq(counter(&res, "setup", "triangles_out"), N - 2);
	cr_assert_eq(counter(&res, "raster", "triangles"), N - 2);
	cr_assert_eq(counter(&res, "setup", "tram_waits"), 0, "64 slots: never full with a 2-deep FIFO");
	/* setup.cycles_per_triangle = 5 per visible triangle, back to back */
	uint64_t out = counter(&res, "setup", "triangles_out"), busy = unit(&res, "setup")->stats.busy;
	cr_assert(busy >= 5 * out && busy <= 5 * out + (N - 2 - out) + 2, "setup busy %llu for %llu triangles",
	          (unsigned long long)busy, (unsigned long long)out);
	uint64_t cycles = res.cycles;
	ulp_image_free(img);
	/* a wider setup -> raster FIFO lets setup run ahead until the ring is full */
	ulp_config cfg;
	ulp_config_defaults(&cfg);
	cfg.gpu_fifo_triangles = 64;
	cfg.tegra_quad_clocks = 64;       /* slow fragments: triangles pile up */
	img = run(j, &res, &cfg);
	cr_assert_gt(counter(&res, "setup", "tram_waits"), 0, "the ring of 64 slots filled");
	cr_assert_gt(unit(&res, "setup")->stats.stall[SIM_STALL_WINDOW], 0, "waiting for a slot is a window stall");
	/* PSEQ driving the computed stages (units/gr3d/chain.h) releases a
	 * finished quad's slot in the cycle's own tick, as the four units do:
	 * setup, waiting for it, sees it then */
	replay_result four;
	cfg.host_gr3d_chain = false;
	ulp_image *img4 = run(j, &four, &cfg);
	test_results_same(&four, &res, "the TRAM ring, the chain against the four units");
	ulp_image_free(img4);
	ulp_image_free(img);
	/* determinism */
	img = run(j, &res, NULL);
	cr_assert_eq(res.cycles, cycles);
	ulp_image_free(img);
	free(j);
	free(v);
}

Test(gpu, vertex_and_fragment_work_overlap)
{
	replay_result res;
	ulp_image *img = NULL;
	trace t;
	ulp_diag d;
	ulp_diag_clear(&d);
	cr_assert(trace_load(&t, "traces/samples/lit_sphere.json", &d), "%s", d.msg);
	ulp_config cfg;
	ulp_config_defaults(&cfg);
	replay_opts o = { .cfg = &cfg, .keep_image = true };
	cr_assert(replay_run(&t, &o, &res, &d), "%s", d.msg);
	trace_free(&t);
	img = res.image;
	cr_assert_lt(res.cycles, res.vertex_cycles + res.fragment_cycles,
	             "one clock: %llu cycles < vertex %llu + fragment %llu",
	             (unsigned long long)res.cycles, (unsigned long long)res.vertex_cycles,
	             (unsigned long long)res.fragment_cycles);
	ulp_image_free(img);
}

/* The watchdog sees every unit of the draw: with setup taking far longer per
 * triangle than the watchdog allows and nothing else to do, prim and clip
 * stall on full ports and the report names them and the ports. */
Test(gpu, watchdog_names_the_geometry_units)
{
	float v[8 * 12];
	for (unsigned k = 0; k < 8; k++) {
		const float one[] = { V(-0.5f + 0.1f * (float)k, k & 1 ? 0.2f : -0.2f, 0, 1, 1, 1, 1) };
		memcpy(&v[k * 12], one, sizeof one);
	}
	char *j = make_trace(v, 8, "triangle_strip", "COLOR", "", "");
	ulp_diag d;
	ulp_config cfg;
	ulp_config_defaults(&cfg);
	cfg.watchdog_cycles = 100;
	cfg.setup_tri_cycles = 1000;
	replay_opts o = { .cfg = &cfg };
	replay_result res;
	cr_assert_not(test_replay_json(j, "gpu.trace.json", ".", &o, &res, &d));
	cr_assert(strstr(d.msg, "watchdog"), "%s", d.msg);
	cr_assert(strstr(d.msg, " clip stall:output_full"), "%s", d.msg);
	cr_assert(strstr(d.msg, "port clip->setup 2/2"), "%s", d.msg);
	free(j);
}

/* rasterizer.scissor with the scissor rectangle (window coordinates, y up,
 * max exclusive): pixels outside are not drawn, a triangle wholly outside
 * never reaches the rasterizer. */
Test(gpu, scissor_rectangle)
{
	replay_result res;
	char *j = make_trace(CCW, 3, "triangles", "COLOR", "\"scissor\": true",
	                     "{\"cmd\": \"scissor\", \"minx\": 20, \"miny\": 10, \"maxx\": 41, \"maxy\": 30},");
	ulp_image *img = run(j, &res, NULL);
	unsigned n = 0;
	for (uint32_t y = 0; y < 64; y++)
		for (uint32_t x = 0; x < 64; x++) {
			bool lit = px(img, x, y)[0] == 255;
			n += lit;
			if (lit)
				cr_assert(x >= 20 && x < 41 && y >= 10 && y < 30, "(%u, %u) outside the scissor", x, y);
		}
	cr_assert_eq(n, 21 * 20, "the rectangle lies inside the triangle: all of it is drawn");
	cr_assert_eq(res.fragments, n);
	ulp_image_free(img);
	free(j);
	j = make_trace(CCW, 3, "triangles", "COLOR", "\"scissor\": true",
	               "{\"cmd\": \"scissor\", \"minx\": 0, \"miny\": 60, \"maxx\": 4, \"maxy\": 64},");
	img = run(j, &res, NULL);
	cr_assert_eq(res.fragments, 0);
	cr_assert_eq(counter(&res, "setup", "empty"), 1);
	ulp_image_free(img);
	free(j);
}

/* The one step order (GPU_STEP_ORDER): every kind once, the per-block
 * (fragment) kinds leading; gpu_clock_add_units puts one GR3D block's units
 * after the other's, consumers before producers, then the geometry and
 * vertex units, and skips the kinds a clock does not have. */
Test(gpu, step_order_consumers_first_block_by_block)
{
	bool seen[GPU_STEP_KINDS] = { false };
	bool leading = true;
	for (unsigned e = 0; e < GPU_STEP_KINDS; e++) {
		cr_assert_lt(GPU_STEP_ORDER[e].kind, GPU_STEP_KINDS);
		cr_assert_not(seen[GPU_STEP_ORDER[e].kind], "kind %u twice", GPU_STEP_ORDER[e].kind);
		seen[GPU_STEP_ORDER[e].kind] = true;
		cr_assert(leading || !GPU_STEP_ORDER[e].per_block, "per-block kinds lead the table");
		leading = GPU_STEP_ORDER[e].per_block;
	}
	static const char *const names[GPU_STEP_KINDS][2] = {
		[GPU_STEP_DW] = { "dw", "dw_b" }, [GPU_STEP_ALU] = { "alu", "alu_b" },
		[GPU_STEP_TEX] = { "tex", "tex_b" }, [GPU_STEP_MFU] = { "mfu", "mfu_b" },
		[GPU_STEP_PSEQ] = { "pseq", "pseq_b" }, [GPU_STEP_ZS] = { "zs", NULL },
		[GPU_STEP_RASTER] = { "raster", "raster_b" }, [GPU_STEP_SETUP] = { "setup", NULL },
		[GPU_STEP_CLIP] = { "clip", NULL }, [GPU_STEP_GSH] = { NULL, NULL },
		[GPU_STEP_PRIM] = { "prim", NULL }, [GPU_STEP_VSH] = { "vsh0", "vsh1" },
		[GPU_STEP_VFETCH] = { "vfetch", NULL },
	};
	static sim_unit units[GPU_STEP_KINDS][2];
	gpu_step_units su = { 0 };
	for (unsigned k = 0; k < GPU_STEP_KINDS; k++)
		for (unsigned i = 0; i < 2; i++)
			if (names[k][i]) {
				sim_unit_init(&units[k][i], names[k][i], NULL, NULL, 0);
				su.u[k][i] = &units[k][i];
			}
	sim_clock c;
	sim_clock_init(&c, 0, NULL);
	cr_assert(gpu_clock_add_units(&c, &su));
	static const char *const want[] = {
		"dw", "alu", "tex", "mfu", "pseq", "zs", "raster",
		"dw_b", "alu_b", "tex_b", "mfu_b", "pseq_b", "raster_b",
		"setup", "clip", "prim", "vsh0", "vsh1", "vfetch",
	};
	cr_assert_eq(c.nunits, sizeof want / sizeof want[0]);
	for (unsigned k = 0; k < c.nunits; k++)
		cr_assert_str_eq(c.unit[k]->name, want[k], "unit %u", k);
	/* a full clock: false, not a write past it */
	sim_clock small;
	sim_clock_init(&small, 0, NULL);
	for (unsigned k = 0; k < SIM_CLOCK_MAX_UNITS - 3; k++)
		cr_assert(sim_clock_add_unit(&small, &units[GPU_STEP_GSH][0]));
	cr_assert_not(gpu_clock_add_units(&small, &su));
}

/* sim_unit_reset puts a unit back as its init left it: the geometry and
 * vertex units, each run on (state, stats, a wake) and reset, compare equal
 * byte for byte with themselves right after init. */
static void run_on(sim_unit *u)
{
	u->stats.busy = 7;
	u->stats.stall[SIM_STALL_OUTPUT_FULL] = 3;
	u->wake = 12;
	u->wake_floor = 11;
	u->waiting = true;
	u->waiting_since = 4;
	u->lane_holds = true;
	u->has_pc = true;
	u->debug_pc = 9;
}

static void dummy_job(void *ctx, uint32_t id, pica_job *job)
{
	(void)ctx;
	(void)id;
	(void)job;
}

Test(gpu, reset_is_init_again)
{
	sim_port a, b;
	cr_assert(sim_port_init(&a, "a", sizeof(prim_tri), 2, 1, NULL));
	cr_assert(sim_port_init(&b, "b", sizeof(prim_tri), 2, 1, NULL));
	sim_port *to[1] = { &a };

	vfetch_unit vf, vf0;
	vfetch_init(&vf, to, 1, 10, dummy_job, NULL);
	memcpy(&vf0, &vf, sizeof vf);
	vf.sent = 5;
	vf.next = 1;
	run_on(&vf.u);
	sim_unit_reset(&vf.u);
	cr_assert(memcmp(&vf, &vf0, sizeof vf) == 0, "vfetch");

	clip_state cs = { 0 };
	static clip_unit cl, cl0;
	clip_init(&cl, &cs, &a, &b);
	memcpy(&cl0, &cl, sizeof cl);
	cl.n = 5;
	cl.emit = 2;
	cl.id = 3;
	cl.ready_at = 8;
	run_on(&cl.u);
	sim_unit_reset(&cl.u);
	cr_assert(memcmp(&cl, &cl0, sizeof cl) == 0, "clip");
	cr_assert(clip_idle(&cl));

	prim_unit pr, pr0;
	cr_assert(prim_init(&pr, PRIM_TRIANGLES, 6, 0xFFFFu, &a, &b));
	memcpy(&pr0, &pr, sizeof pr);
	pr.got = 4;
	pr.next_tri = 1;
	pr.vid[2] = 3;                           /* vertex 2 in its slot */
	pr.base = 3;
	pr.last_vertex = 30;
	run_on(&pr.u);
	sim_unit_reset(&pr.u);
	cr_assert(memcmp(&pr, &pr0, sizeof pr) == 0, "prim");
	cr_assert_eq(pr.vid[2], 0);
	sim_unit_fini(&pr.u);
	cr_assert_null(pr.vtx, "prim's fini hook frees its vertices");

	ulp_config cfg;
	ulp_config_defaults(&cfg);
	static pica_program prog;
	static pica_uniforms unif;
	static pica_shader_unit sh, sh0;
	pica_shader_init(&sh, "vsh1", 1, &prog, &unif, &cfg, &a, &b);
	memcpy(&sh0, &sh, sizeof sh);
	sh.running = true;
	sh.next_issue = 40;
	sh.ready[3] = 44;
	sh.writes_done = 45;
	sh.seq += 10;
	sh.t.pc = 4;
	sh.pend_n = 2;
	run_on(&sh.u);
	sim_unit_reset(&sh.u);
	cr_assert(memcmp(&sh, &sh0, sizeof sh) == 0, "vsh1");

	sim_port_fini(&a);
	sim_port_fini(&b);
}

/* ---- vertex fetch's job pool: a job stays while a port holds it ---- */

typedef struct pool_sink {
	sim_unit u;
	sim_port *in;
	bool hold;                  /* never pops: its port stays full */
	uint32_t got, bad;
} pool_sink;

static void pool_sink_tick(sim_unit *u, uint64_t now)
{
	pool_sink *k = (pool_sink *)u;
	const pica_job_ref *r;
	while (!k->hold && (r = sim_port_peek(k->in, now))) {
		if (r->job->v[0].c[0] != (float)r->job->id || r->job->v[1].c[2] != 0.5f)
			k->bad++;
		k->got++;
		sim_port_pop(k->in, now);
		sim_unit_busy(u);
	}
	if (!k->hold && !sim_port_empty(k->in))
		sim_unit_wake(u, sim_port_next_ready(k->in));
}

static void id_job(void *ctx, uint32_t id, pica_job *job)
{
	(void)ctx;
	job->v[0].c[0] = (float)id;
	job->v[1].c[2] = 0.5f;
}

Test(gpu, vfetch_pool_keeps_held_jobs)
{
	/* unit 0 never takes its jobs: the pool's other slots serve the rest
	 * (reusing a held slot would change the jobs port 0 holds) */
	sim_port ports[4];
	static pool_sink sink[4];
	static vfetch_unit vf;
	vfetch_init(&vf, (sim_port *[4]){ &ports[0], &ports[1], &ports[2], &ports[3] }, 4, 200,
	            id_job, NULL);
	sim_clock c;
	sim_clock_init(&c, 0, NULL);
	for (unsigned k = 0; k < 4; k++) {
		memset(&sink[k], 0, sizeof sink[k]);
		sim_unit_init(&sink[k].u, "sink", pool_sink_tick, NULL, 0);
		sink[k].hold = k == 0;
		cr_assert(sim_port_init(&ports[k], "p", sizeof(pica_job_ref), VFETCH_PORT_ITEMS, 1,
		                        &sink[k].u));
		sink[k].in = &ports[k];
		cr_assert(sim_clock_add_unit(&c, &sink[k].u));
	}
	cr_assert(sim_clock_add_unit(&c, &vf.u));
	sim_unit_wake(&vf.u, 0);
	ulp_diag d;
	ulp_diag_clear(&d);
	cr_assert_eq(sim_clock_run(&c, 1000, &d), SIM_RUN_DRAINED, "%s", d.msg);
	cr_assert_eq(vf.sent, 200u);
	cr_assert_eq(sink[1].got + sink[2].got + sink[3].got, 198u);
	for (unsigned k = 1; k < 4; k++)
		cr_expect_eq(sink[k].bad, 0u, "unit %u got a job overwritten", k);
	cr_assert_eq(ports[0].count, 2u);
	for (uint32_t i = 0; i < 2; i++) {       /* jobs 0 and 4, kept while the run went on */
		const pica_job_ref *r = sim_port_item(&ports[0], i);
		cr_expect_eq(r->job->id, 4 * i);
		cr_expect_eq(r->job->v[0].c[0], (float)(4 * i));
	}
	for (unsigned k = 0; k < 4; k++)
		sim_port_fini(&ports[k]);
}

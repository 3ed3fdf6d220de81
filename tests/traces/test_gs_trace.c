/* Geometry shaders in traces: bind_shaders.gs, the gsh unit between prim
 * and clip, the gs_particles sample, refusals (docs/replay.md). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fileio.h"
#include "base/image.h"
#include "frontends/pica/pica_compile.h"
#include "frontends/tgsi/tgsi.h"
#include "traces/replay/driver_pica.h"
#include "traces/replay/replay.h"
#include "traces/replay/replay_gs.h"
#include "units/pica/pica_shader.h"
#include "tests/test_util.h"

/* Four particles at ndc (±0.5, ±0.5), w = 1, expanded into quads of half
 * size 0.25: on 64 x 64 each covers window 8..24 (or 40..56) exactly, 16 x 16
 * pixel centres. */
static const char *const HEAD =
	"{\"format\": \"ulpsim-trace\", \"version\": 1, \"resources\": {\"pts\": {\"type\": \"buffer\", \"f32\": ["
	"-0.5, -0.5, 0, 1,  1, 0, 0, 1,   0.5, -0.5, 0, 1,  0, 1, 0, 1,"
	"-0.5,  0.5, 0, 1,  0, 0, 1, 1,   0.5,  0.5, 0, 1,  1, 1, 0, 1]}},"
	"\"shaders\": {\"vs\": {\"stage\": \"vertex\", \"tgsi_file\": \"triangle.vs.tgsi\"},"
	"\"gs\": {\"stage\": \"geometry\", \"tgsi_file\": \"gs_particles.gs.tgsi\"},"
	"\"fs\": {\"stage\": \"fragment\", \"tgsi_file\": \"triangle.fs.tgsi\"}%s},"
	"\"commands\": ["
	"{\"cmd\": \"framebuffer\", \"width\": 64, \"height\": 64, \"cbufs\": [{\"format\": \"RGBA8888\"}]},"
	"{\"cmd\": \"vertex_elements\", \"elements\": ["
	"{\"buffer\": \"pts\", \"offset\": 0, \"stride\": 32, \"format\": \"R32G32B32A32_FLOAT\"},"
	"{\"buffer\": \"pts\", \"offset\": 16, \"stride\": 32, \"format\": \"R32G32B32A32_FLOAT\"}]},"
	"{\"cmd\": \"clear\", \"color\": [0, 0, 0, 1]}, %s]}";

static bool run_json(const char *json, replay_result *res, ulp_diag *d, bool keep)
{
	ulp_config cfg;
	ulp_config_defaults(&cfg);
	replay_opts o = { .cfg = &cfg, .keep_image = keep };
	return test_replay_json(json, "gs.json", "traces/samples", &o, res, d);
}

static bool run_cmds(const char *shaders, const char *cmds, replay_result *res, ulp_diag *d)
{
	char json[4096];
	snprintf(json, sizeof json, HEAD, shaders, cmds);
	return run_json(json, res, d, true);
}

static const sim_unit *unit(const replay_result *res, const char *name)
{
	for (unsigned k = 0; k < res->nunits; k++)
		if (!strcmp(res->unit[k].name, name))
			return &res->unit[k];
	return NULL;
}

static const char *const QUADS =
	"{\"cmd\": \"bind_shaders\", \"vs\": \"vs\", \"gs\": \"gs\", \"fs\": \"fs\"},"
	"{\"cmd\": \"constant_buffer\", \"stage\": \"geometry\", \"index\": 0, \"f32\": [0.25, 0.25, 0, 0]},"
	"{\"cmd\": \"rasterizer\", \"cull\": \"back\"},"
	"{\"cmd\": \"draw\", \"mode\": \"points\", \"count\": 4}";

Test(gs_trace, points_become_quads)
{
	replay_result res;
	ulp_diag d;
	cr_assert(run_cmds("", QUADS, &res, &d), "%s", d.msg);
	cr_assert_eq(res.vertices, 4);
	cr_assert_eq(res.triangles, 8, "two triangles per particle");
	cr_assert_eq(res.culled, 0, "both strip triangles are counter-clockwise (the SETEMIT winding flag)");
	cr_assert_eq(res.fragments, 4 * 256, "4 quads of 16 x 16 pixel centres");
	/* the image: top row first; window (16, 16) is image (16, 47) */
	const ulp_image *img = res.image;
	static const struct { uint32_t x, y; uint8_t rgb[3]; } P[] = {
		{ 16, 47, { 255, 0, 0 } }, { 47, 47, { 0, 255, 0 } }, { 16, 16, { 0, 0, 255 } },
		{ 47, 16, { 255, 255, 0 } }, { 8, 55, { 255, 0, 0 } }, { 23, 40, { 255, 0, 0 } },
		{ 7, 47, { 0, 0, 0 } }, { 24, 47, { 0, 0, 0 } }, { 32, 32, { 0, 0, 0 } },
	};
	for (size_t k = 0; k < sizeof P / sizeof P[0]; k++) {
		const uint8_t *p = ulp_image_cpx(img, P[k].x, P[k].y);
		cr_assert(p[0] == P[k].rgb[0] && p[1] == P[k].rgb[1] && p[2] == P[k].rgb[2],
		          "(%u, %u) = %d %d %d", P[k].x, P[k].y, p[0], p[1], p[2]);
	}
	unsigned lit = 0;
	for (uint32_t y = 0; y < 64; y++)
		for (uint32_t x = 0; x < 64; x++)
			lit += ulp_image_cpx(img, x, y)[0] || ulp_image_cpx(img, x, y)[1] || ulp_image_cpx(img, x, y)[2];
	cr_assert_eq(lit, 1024, "coverage");
	/* the GS ran on the fourth unit: gsh, three vertex units */
	const sim_unit *g = unit(&res, "gsh");
	cr_assert(g, "a gsh unit in the stats");
	cr_assert_null(unit(&res, "vsh3"), "vsh3 runs the GS");
	cr_assert_eq(g->stats.counter[PICA_CTR_INVOCATIONS], 4);
	cr_assert_eq(g->stats.counter[PICA_CTR_PRIMITIVES], 8);
	cr_assert_gt(g->stats.busy, 4 * 13, "at least one issue per instruction");
	uint64_t vs = 0;
	for (int k = 0; k < 3; k++)
		vs += unit(&res, (const char *[]){ "vsh0", "vsh1", "vsh2" }[k])->stats.counter[PICA_CTR_INVOCATIONS];
	cr_assert_eq(vs, 4);
	ulp_image_free(res.image);
}

Test(gs_trace, deterministic_and_sample)
{
	replay_result a, b;
	ulp_diag d;
	cr_assert(run_cmds("", QUADS, &a, &d), "%s", d.msg);
	cr_assert(run_cmds("", QUADS, &b, &d), "%s", d.msg);
	cr_assert_eq(a.cycles, b.cycles);
	cr_assert_eq(memcmp(a.image->rgba, b.image->rgba, (size_t)64 * 64 * 4), 0, "identical images");
	ulp_image_free(a.image);
	ulp_image_free(b.image);

	/* the bundled sample: its checkpoint compares with the committed image */
	trace t;
	ulp_diag_clear(&d);
	cr_assert(trace_load(&t, "traces/samples/gs_particles.json", &d), "%s", d.msg);
	ulp_config cfg;
	ulp_config_defaults(&cfg);
	replay_opts o = { .cfg = &cfg, .keep_image = true };
	cr_assert(replay_run(&t, &o, &a, &d), "%s", d.msg);
	trace_free(&t);
	cr_assert_eq(a.checks_failed, 0, "%s", a.first_failure);
	cr_assert_eq(a.draws, 2);
	cr_assert_eq(a.triangles, 2 + 64, "the background and 32 quads");
	cr_assert_eq(a.vertices, 6 + 32);
	uint64_t quad_px = a.fragments - 128 * 128;
	cr_assert(quad_px > 32 * 30 && quad_px < 32 * 200, "particle fragments %llu", (unsigned long long)quad_px);
	/* a colour per particle: count distinct saturated colours */
	uint32_t seen[64];
	unsigned nseen = 0;
	for (uint32_t y = 0; y < 128; y++)
		for (uint32_t x = 0; x < 128; x++) {
			const uint8_t *p = ulp_image_cpx(a.image, x, y);
			int mx = p[0] > p[1] ? (p[0] > p[2] ? p[0] : p[2]) : (p[1] > p[2] ? p[1] : p[2]);
			if (mx < 250)
				continue;                 /* the background is dark */
			uint32_t c = (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
			bool have = false;
			for (unsigned k = 0; k < nseen; k++)
				have |= seen[k] == c;
			if (!have && nseen < 64)
				seen[nseen++] = c;
		}
	cr_assert_geq(nseen, 24, "%u distinct particle colours", nseen);
	cr_assert(unit(&a, "gsh") && unit(&a, "vsh3"), "the background draw has no GS: all four vertex units");
	ulp_image_free(a.image);
}

/* A pass-through GS on triangles draws what the vertex shader alone draws. */
Test(gs_trace, triangle_input_passes_through)
{
	const char *gs = ", \"gt\": {\"stage\": \"geometry\", \"tgsi\": \"GEOM\\n"
	                 "PROPERTY GS_INPUT_PRIMITIVE TRIANGLES\\nPROPERTY GS_OUTPUT_PRIMITIVE TRIANGLE_STRIP\\n"
	                 "PROPERTY GS_MAX_OUTPUT_VERTICES 3\\nDCL IN[][0], POSITION\\nDCL IN[][1], COLOR\\n"
	                 "DCL OUT[0], POSITION\\nDCL OUT[1], COLOR\\nIMM[0] UINT32 {0, 0, 0, 0}\\n"
	                 "MOV OUT[0], IN[0][0]\\nMOV OUT[1], IN[0][1]\\nEMIT IMM[0].xxxx\\n"
	                 "MOV OUT[0], IN[1][0]\\nMOV OUT[1], IN[1][1]\\nEMIT IMM[0].xxxx\\n"
	                 "MOV OUT[0], IN[2][0]\\nMOV OUT[1], IN[2][1]\\nEMIT IMM[0].xxxx\\n"
	                 "ENDPRIM IMM[0].xxxx\\nEND\\n\"}";
	replay_result a, b;
	ulp_diag d;
	cr_assert(run_cmds(gs, "{\"cmd\": \"bind_shaders\", \"vs\": \"vs\", \"gs\": \"gt\", \"fs\": \"fs\"},"
	                       "{\"cmd\": \"draw\", \"mode\": \"triangles\", \"count\": 3}", &a, &d), "%s", d.msg);
	cr_assert(run_cmds(gs, "{\"cmd\": \"bind_shaders\", \"vs\": \"vs\", \"fs\": \"fs\"},"
	                       "{\"cmd\": \"draw\", \"mode\": \"triangles\", \"count\": 3}", &b, &d), "%s", d.msg);
	cr_assert_eq(a.triangles, 1);
	cr_assert_gt(a.fragments, 400, "(-0.5,-0.5) (0.5,-0.5) (-0.5,0.5): half of 32 x 32");
	cr_assert_eq(a.fragments, b.fragments);
	cr_assert_eq(memcmp(a.image->rgba, b.image->rgba, (size_t)64 * 64 * 4), 0, "same image with and without");
	cr_assert_eq(unit(&a, "gsh")->stats.counter[PICA_CTR_INVOCATIONS], 1);
	ulp_image_free(a.image);
	ulp_image_free(b.image);
}

static void refused(const char *shaders, const char *cmds, const char *msg)
{
	replay_result res;
	ulp_diag d;
	cr_assert_not(run_cmds(shaders, cmds, &res, &d), "replayed: %s", cmds);
	char buf[ULP_DIAG_MSG_MAX + 64];
	ulp_diag_format(&d, buf, sizeof buf);
	cr_assert(strstr(buf, msg), "'%s' lacks '%s'", buf, msg);
	ulp_image_free(res.image);
}

Test(gs_trace, refusals)
{
	/* a GS without a VS: the loader's JSON path */
	char json[4096];
	snprintf(json, sizeof json, HEAD, "", "{\"cmd\": \"bind_shaders\", \"gs\": \"gs\", \"fs\": \"fs\"}");
	trace t;
	ulp_diag d;
	ulp_diag_clear(&d);
	cr_assert_not(trace_parse(&t, json, "gs.json", "traces/samples", &d));
	cr_assert(strstr(d.msg, "$.commands[3].vs"), "%s", d.msg);
	trace_free(&t);
	/* wrong stage */
	refused("", "{\"cmd\": \"bind_shaders\", \"vs\": \"vs\", \"gs\": \"vs\", \"fs\": \"fs\"}",
	        "$.commands[3].gs: shader 'vs' is a vertex shader, not a geometry shader");
	refused(", \"gv\": {\"stage\": \"geometry\", \"tgsi_file\": \"triangle.vs.tgsi\"}",
	        "{\"cmd\": \"bind_shaders\", \"vs\": \"vs\", \"gs\": \"gv\", \"fs\": \"fs\"}",
	        "$.commands[3].gs: shader 'gv' is a VERT shader in TGSI, not GEOM");
	/* the GS's inputs are not the VS's outputs */
	refused(", \"gg\": {\"stage\": \"geometry\", \"tgsi\": \"GEOM\\nPROPERTY GS_INPUT_PRIMITIVE POINTS\\n"
	        "PROPERTY GS_OUTPUT_PRIMITIVE TRIANGLE_STRIP\\nPROPERTY GS_MAX_OUTPUT_VERTICES 1\\n"
	        "DCL IN[][0], POSITION\\nDCL IN[][1], GENERIC[0]\\nDCL OUT[0], POSITION\\n"
	        "IMM[0] UINT32 {0, 0, 0, 0}\\nMOV OUT[0], IN[0][0]\\nEMIT IMM[0].xxxx\\nEND\\n\"}",
	        "{\"cmd\": \"bind_shaders\", \"vs\": \"vs\", \"gs\": \"gg\", \"fs\": \"fs\"}",
	        "$.commands[3].gs: geometry input IN[][1] is GENERIC[0], but the vertex shader's output register");
	/* draws that do not fit the GS */
	refused("", "{\"cmd\": \"bind_shaders\", \"vs\": \"vs\", \"gs\": \"gs\", \"fs\": \"fs\"},"
	        "{\"cmd\": \"draw\", \"mode\": \"triangles\", \"count\": 3}",
	        "$.commands[4].mode: triangles, but the geometry shader's GS_INPUT_PRIMITIVE is POINTS");
	refused("", "{\"cmd\": \"bind_shaders\", \"vs\": \"vs\", \"gs\": \"gs\", \"fs\": \"fs\"},"
	        "{\"cmd\": \"draw\", \"mode\": \"triangle_strip\", \"count\": 4}",
	        "$.commands[4].mode: with a geometry shader a draw is points or triangles");
	refused("", "{\"cmd\": \"bind_shaders\", \"vs\": \"vs\", \"fs\": \"fs\"},"
	        "{\"cmd\": \"draw\", \"mode\": \"points\", \"count\": 4}",
	        "$.commands[4]: points and lines are not in this build yet (points: with a geometry shader)");
	/* an SHBIN whose DVLE is a vertex shader */
	char *dir = test_tmpdir();
	char args[1024], *out = NULL, *err = NULL;
	snprintf(args, sizeof args, "pica asm -o %s/v.shbin traces/samples/lit_vertex.v.pica", dir);
	cr_assert_eq(test_run_cli(args, &out, &err), 0, "%s", err);
	free(out);
	free(err);
	char shaders[1024];
	snprintf(shaders, sizeof shaders, ", \"gb\": {\"stage\": \"geometry\", \"shbin\": \"%s/v.shbin\", \"dvle\": 0}",
	         dir);
	refused(shaders, "{\"cmd\": \"bind_shaders\", \"vs\": \"vs\", \"gs\": \"gb\", \"fs\": \"fs\"}",
	        "$.commands[3].gs: DVLE 0 of shader 'gb' is not a geometry shader");
	snprintf(shaders, sizeof shaders, ", \"gb\": {\"stage\": \"geometry\", \"shbin\": \"%s/v.shbin\", \"dvle\": 7}",
	         dir);
	refused(shaders, "{\"cmd\": \"bind_shaders\", \"vs\": \"vs\", \"gs\": \"gb\", \"fs\": \"fs\"}",
	        "$.commands[3].gs: DVLE 7 of shader 'gb' is not a geometry shader");
	snprintf(args, sizeof args, "rm -rf %s", dir);
	cr_assert_eq(system(args), 0);
	free(dir);
}

/* The CLI's stats and timeline show the GS unit. */
Test(gs_trace, stats_and_timeline_show_gsh)
{
	char *dir = test_tmpdir();
	char args[1024], *out = NULL, *err = NULL;
	snprintf(args, sizeof args, "replay traces/samples/gs_particles.json --stats %s/s.txt --timeline %s/t.json",
	         dir, dir);
	cr_assert_eq(test_run_cli(args, &out, &err), 0, "%s", err);
	free(out);
	free(err);
	snprintf(args, sizeof args, "%s/s.txt", dir);
	size_t n;
	ulp_diag d;
	ulp_diag_clear(&d);
	char *s = ulp_read_file(args, &n, &d);
	cr_assert(s, "%s", d.msg);
	cr_assert(strstr(s, "draw1.gpu.gsh.invocations"), "per-draw GS stats");
	const char *p = strstr(s, "\ngpu.gsh.primitives");
	cr_assert(p, "the run's GS primitives");
	cr_assert_eq(strtoull(p + strlen("\ngpu.gsh.primitives"), NULL, 10), 64);
	free(s);
	snprintf(args, sizeof args, "%s/t.json", dir);
	s = ulp_read_file(args, &n, &d);
	cr_assert(s && strstr(s, "\"gsh\""), "a gsh lane in the timeline");
	free(s);
	snprintf(args, sizeof args, "rm -rf %s", dir);
	cr_assert_eq(system(args), 0);
	free(dir);
}

/* The watchdog names the GS unit: setup far slower than the watchdog
 * allows, the GS stalls on its full output port. */
Test(gs_trace, watchdog_names_gsh)
{
	char json[4096];
	snprintf(json, sizeof json, HEAD, "", QUADS);
	ulp_diag d;
	ulp_config cfg;
	ulp_config_defaults(&cfg);
	cfg.watchdog_cycles = 100;
	cfg.setup_tri_cycles = 1000;
	replay_opts o = { .cfg = &cfg };
	replay_result res;
	cr_assert_not(test_replay_json(json, "gs.json", "traces/samples", &o, &res, &d));
	cr_assert(strstr(d.msg, "watchdog"), "%s", d.msg);
	cr_assert(strstr(d.msg, " gsh stall:output_full"), "%s", d.msg);
	cr_assert(strstr(d.msg, "port gsh->clip"), "%s", d.msg);
}

static void apply(const reg_stream *s, pica_regs *r)
{
	for (size_t i = 0; i < s->n; i++) {
		ulp_diag d;
		ulp_diag_clear(&d);
		cr_assert(pica_regs_write(r, s->w[i].reg, s->w[i].mask, s->w[i].value, &d), "%s", d.msg);
	}
}

static void compile_file(const char *path, pica_compile_result *res)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	size_t len;
	char *text = ulp_read_file(path, &len, &d);
	cr_assert(text, "%s", d.msg);
	tgsi_shader *sh = tgsi_parse(text, len, path, NULL, &d);
	cr_assert(sh, "%s", d.msg);
	cr_assert(pica_compile(sh, path, NULL, res), "%s", res->d.msg);
	tgsi_shader_free(sh);
	free(text);
}

/* The GS goes through the registers alone: the unit's program, mode, input
 * buffer and VS output stride are read back from them. */
Test(gs_trace, registers_describe_the_geometry_stage)
{
	static pica_compile_result vs, gs;
	compile_file("traces/samples/triangle.vs.tgsi", &vs);
	compile_file("traces/samples/gs_particles.gs.tgsi", &gs);
	ulp_config cfg;
	ulp_config_defaults(&cfg);
	static pica_regs r;
	pica_regs_init(&r, &cfg);
	reg_stream s;
	reg_stream_init(&s);
	ulp_diag d;
	ulp_diag_clear(&d);
	cr_assert(drv_pica_load_shader(&s, &vs.shbin, 0, &d), "%s", d.msg);
	cr_assert(drv_pica_load_shader(&s, &gs.shbin, 0, &d), "%s", d.msg);
	drv_pica_geostage(&s, true, 2);
	const uint8_t perm[16] = { 0, 1 };
	drv_pica_attributes(&s, true, 2, perm);
	apply(&s, &r);
	cr_assert(pica_regs_gs_on(&r));
	gsh_config c;
	pica_program p, ref;
	cr_assert(replay_gs_config(&r, &cfg, &c, &p, &d), "%s", d.msg);
	cr_assert_eq(c.per, 1, "points: one vertex of two registers");
	cr_assert_eq(c.vs_out_mask, 0x3);
	cr_assert(p.is_gs && p.gs_mode == SHBIN_GS_POINT);
	cr_assert(pica_program_build(&ref, &gs.shbin, 0, &cfg, &d), "%s", d.msg);
	cr_assert_eq(p.out_regs, ref.out_regs, "the GS's outputs from SH_OUTMAP");
	cr_assert_eq(p.ncode, ref.ncode);
	cr_assert_eq(p.entry, ref.entry);
	pica_program_free(&p);
	pica_program_free(&ref);
	/* the VS feeds the GS input buffer: no output component is required */
	cr_assert(pica_regs_program(&r, false, &cfg, &p, &d), "%s", d.msg);
	for (int o = 0; o < 16; o++)
		cr_assert_eq(p.out_need[o], 0);
	pica_program_free(&p);
	/* triangles: 3 vertices; a stride that disagrees with the VS, another mode */
	reg_stream_free(&s);
	reg_stream_init(&s);
	drv_pica_attributes(&s, true, 6, perm);
	apply(&s, &r);
	cr_assert(replay_gs_config(&r, &cfg, &c, &p, &d), "%s", d.msg);
	cr_assert_eq(c.per, 3);
	pica_program_free(&p);
	cr_assert(pica_regs_write(&r, PICA_REG_VSH_OUTMAP_TOTAL1, 0xF, 2, &d));
	cr_assert_not(replay_gs_config(&r, &cfg, &c, &p, &d));
	cr_assert(strstr(d.msg, "VSH_OUTMAP_TOTAL1 gives 3 output registers"), "%s", d.msg);
	cr_assert(pica_regs_write(&r, PICA_REG_VSH_OUTMAP_TOTAL1, 0xF, 1, &d));
	cr_assert(pica_regs_write(&r, PICA_REG_GSH_MISC0, 0xF, 0x01004302, &d));
	ulp_diag_clear(&d);
	cr_assert_not(replay_gs_config(&r, &cfg, &c, &p, &d));
	cr_assert(strstr(d.msg, "only the point mode"), "%s", d.msg);
	reg_stream_free(&s);
	pica_compile_result_free(&vs);
	pica_compile_result_free(&gs);
}

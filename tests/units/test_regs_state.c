/* The draw state by register writes (issue 6): the GR3D viewport, scissor,
 * texture and linker registers, the PICA200 attribute-buffer and draw
 * registers, and a trace whose state is given only as raw register blocks
 * (written from --dump-commands) replaying to the same image and cycles. */
#include <criterion/criterion.h>
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/image.h"
#include "traces/replay/driver_pica.h"
#include "units/geom/gr3d_state.h"
#include "units/geom/pica_vtx.h"
#include "traces/replay/replay.h"
#include "tests/test_util.h"

static bool apply(gr3d_regs *g, pica_regs *p, const reg_stream *s)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	for (size_t k = 0; k < s->n; k++) {
		const reg_write *w = &s->w[k];
		bool ok = w->space == REG_GR3D ? gr3d_regs_write(g, w->reg, w->value, &d)
		                               : pica_regs_write(p, w->reg, w->mask, w->value, &d);
		if (!ok)
			return false;
	}
	return true;
}

Test(regs_state, linker_viewport_scissor_round_trip)
{
	gr3d_regs *g = calloc(1, sizeof *g);
	pica_regs *p = calloc(1, sizeof *p);
	cr_assert(g && p);
	ulp_config cfg;
	ulp_config_defaults(&cfg);
	gr3d_regs_init(g);
	pica_regs_init(p, &cfg);
	reg_stream s;
	reg_stream_init(&s);
	const gr3d_link_row rows[3] = { { 2, 0xFF, false }, { 1, 3, true }, { 0xFF, 0xFF, false } };
	drv_gr3d_linker(&s, rows, 3, SETUP_CULL_BACK, false, true);
	const double sc[3] = { 40, -20.5, 0.25 }, tr[3] = { 40, 20.5, 0.75 };
	drv_gr3d_viewport(&s, sc, tr);
	const int rect[4] = { 3, 4, 50, 60 };
	drv_gr3d_scissor(&s, true, rect);
	cr_assert(apply(g, p, &s));
	cr_expect_eq(GR3D_GET(g->raw[GR3D_REG_TRAM_SETUP], TRAM_SETUP, NUM_TRIS), 21u, "TRAM_SETUP: 64 / 3 slots");
	cr_expect_eq(GR3D_GET(g->raw[GR3D_REG_TRAM_SETUP], TRAM_SETUP, TRI_ROWS), 3u, "3 rows");
	cr_expect_eq(GR3D_GET(g->raw[GR3D_REG_CULL_FACE_LINKER_SETUP], CULL_FACE_LINKER_SETUP, COUNT_M1), 2u,
	             "linker count - 1");
	setup_state su;
	memset(&su, 0, sizeof su);
	uint16_t flat = 0;
	ulp_diag d;
	ulp_diag_clear(&d);
	cr_assert(gr3d_regs_setup(g, &su, &flat, &d), "%s", d.msg);
	cr_expect_eq(su.ntram, 3u);
	cr_expect_eq(su.tram_reg[0], 2);
	cr_expect_eq(su.tram_reg[1], 1);
	cr_expect_eq(su.tram_reg_back[1], 3);
	cr_expect_eq(su.tram_reg[2], 0xFF, "unlinked row");
	cr_expect_eq(su.tram_reg_back[0], 0xFF);
	cr_expect_eq(flat, (1u << 1) | (1u << 3), "the flat row's front and back registers");
	cr_expect_eq(su.cull, SETUP_CULL_BACK);
	cr_expect_not(su.front_ccw);
	cr_expect(su.two_side);
	for (int k = 0; k < 3; k++) {
		cr_expect_eq(su.vp_scale[k], sc[k]);
		cr_expect_eq(su.vp_translate[k], tr[k]);
	}
	cr_expect(su.scissor);
	cr_expect(su.sx0 == 3 && su.sy0 == 4 && su.sx1 == 50 && su.sy1 == 60);
	/* a TRAM format ulpsim does not link is refused, not ignored */
	cr_assert(gr3d_regs_write(g, GR3D_REG_AT(LINKER_INSTRUCTION_FMT, 1), 5, &d));
	cr_expect_not(gr3d_regs_setup(g, &su, &flat, &d));
	cr_expect(strstr(d.msg, "0x303"), "%s", d.msg);
	reg_stream_free(&s);
	free(g);
	free(p);
}

Test(regs_state, texture_descriptor_round_trip)
{
	gr3d_regs *g = calloc(1, sizeof *g);
	cr_assert(g);
	gr3d_regs_init(g);
	reg_stream s;
	reg_stream_init(&s);
	gr3d_sampler sm;
	memset(&sm, 0, sizeof sm);
	sm.format = GR3D_TEX_RGB565;
	sm.bilinear = true;
	sm.min_filter = GR3D_MIN_NEAREST;
	sm.mip_linear = true;
	sm.wrap = GR3D_WRAP_MIRROR;
	sm.wrap_t = GR3D_WRAP_CLAMP;
	sm.wrap_t_own = true;
	sm.lod_bias = -1.25f;
	sm.nlevels = 7;
	drv_gr3d_texture(&s, 3, 0x12340, &sm, 100, 64);
	ulp_diag d;
	ulp_diag_clear(&d);
	for (size_t k = 0; k < s.n; k++)
		cr_assert(gr3d_regs_write(g, s.w[k].reg, s.w[k].value, &d));
	cr_expect_eq(s.w[0].reg, GR3D_REG_AT(TEXTURE_POINTER, 3));
	cr_expect_eq(s.w[1].reg, GR3D_REG_AT(TEXTURE_DESC1, 3));
	cr_expect_eq(s.w[2].reg, GR3D_REG_AT(TEXTURE_DESC2, 3));
	cr_expect_eq(s.w[2].reg, 0x727, "tegra-fp.md §4: 0x721 + 2i");
	gr3d_sampler back;
	uint32_t ptr, w, h;
	gr3d_regs_texture(g, 3, &back, &ptr, &w, &h);
	cr_expect_eq(ptr, 0x12340u);
	cr_expect(w == 100 && h == 64);
	cr_expect_eq(back.format, GR3D_TEX_RGB565);
	cr_expect(back.bilinear && back.mip_linear && !back.mip_none && back.wrap_t_own);
	cr_expect_eq(back.min_filter, GR3D_MIN_NEAREST);
	cr_expect_eq(back.wrap, GR3D_WRAP_MIRROR);
	cr_expect_eq(back.wrap_t, GR3D_WRAP_CLAMP);
	cr_expect_eq(back.lod_bias, -1.25f);
	cr_expect_eq(back.nlevels, 7);
	reg_stream_free(&s);
	free(g);
}

static const uint8_t MEM[64] = { 1, 2, 3, 4, 0, 0, 0x80, 0x3f, 0, 0, 0, 0x40, 2, 1, 0 };

static const uint8_t *mem_read(const void *mem, uint32_t addr, uint32_t len)
{
	(void)mem;
	return addr >= 0x1000 && addr - 0x1000 + len <= sizeof MEM ? MEM + (addr - 0x1000) : NULL;
}

Test(regs_state, attribute_buffers_and_draw_registers)
{
	pica_regs *p = calloc(1, sizeof *p);
	cr_assert(p);
	ulp_config cfg;
	ulp_config_defaults(&cfg);
	pica_regs_init(p, &cfg);
	reg_stream s;
	reg_stream_init(&s);
	const drv_pica_attr a[2] = { { 0x1000, 4, VFETCH_U8, 4, true }, { 0x1004, 0, VFETCH_F32, 2, false } };
	ulp_diag d;
	ulp_diag_clear(&d);
	cr_assert(drv_pica_vertex_buffers(&s, a, 2, &d));
	const uint8_t perm[2] = { 5, 2 };
	drv_pica_attributes(&s, false, 2, perm);
	drv_pica_draw(&s, PRIM_TRIANGLE_FAN, 3, 0, 0x100C, 1);
	for (size_t k = 0; k < s.n; k++)
		cr_assert(pica_regs_write(p, s.w[k].reg, s.w[k].mask, s.w[k].value, &d), "%s", d.msg);
	cr_expect(pica_reg_is_draw(s.w[s.n - 1].reg), "the trigger comes last");
	cr_expect_eq(s.w[s.n - 1].reg, PICA_REG_DRAWELEMENTS);
	vfetch_setup f;
	memset(&f, 0, sizeof f);
	enum prim_mode mode;
	uint32_t count;
	cr_assert(pica_regs_draw(p, true, &f, &mode, &count, &d), "%s", d.msg);
	cr_expect_eq(mode, PRIM_TRIANGLE_FAN);
	cr_expect_eq(count, 3u);
	cr_expect_eq(f.nattr, 2u);
	cr_expect_eq(f.index_size, 1);
	cr_expect_eq(f.index_addr, 0x100Cu);
	cr_expect(f.attr[0].addr == 0x1000 && f.attr[0].stride == 4 && f.attr[0].reg == 5 && f.attr[0].normalize);
	cr_expect(f.attr[1].addr == 0x1004 && f.attr[1].ncomp == 2 && f.attr[1].reg == 2);
	f.read = mem_read;
	f.round = cfg.f24_uniform_round;
	pica_job job;
	memset(&job, 0, sizeof job);
	vfetch_setup_job(&f, 1, &job);           /* vertex 1 = index 1 (byte at 0x100D) */
	cr_expect_eq(job.v[5].c[0], 0.0f, "vertex 1's ubyte attribute: bytes 4..7 = 0, 0, 0x80, 0x3f");
	cr_expect_float_eq(job.v[5].c[2], 128.0f / 255.0f, 1e-5, "normalized, then float24");
	cr_expect_eq(job.v[2].c[0], 1.0f);
	cr_expect_eq(job.v[2].c[1], 2.0f);
	cr_expect_eq(job.v[2].c[3], 1.0f, "missing components read w = 1");
	/* an array draw: VERTEX_OFFSET is the first vertex */
	reg_stream_free(&s);
	reg_stream_init(&s);
	drv_pica_draw(&s, PRIM_TRIANGLES, 6, 9, 0, 0);
	for (size_t k = 0; k < s.n; k++)
		cr_assert(pica_regs_write(p, s.w[k].reg, s.w[k].mask, s.w[k].value, &d));
	cr_assert(pica_regs_draw(p, false, &f, &mode, &count, &d));
	cr_expect(mode == PRIM_TRIANGLES && count == 6 && f.first == 9 && f.index_size == 0);
	/* a stride the PICA200 cannot express is refused */
	const drv_pica_attr wide = { 0x1000, 256, VFETCH_F32, 4, false };
	cr_expect_not(drv_pica_vertex_buffers(&s, &wide, 1, &d));
	reg_stream_free(&s);
	free(p);
}

/* ---- raw register blocks ---- */

static void replay_trace(trace *t, replay_result *res, FILE *dump)
{
	static ulp_config cfg;
	ulp_config_defaults(&cfg);
	replay_opts o = { .cfg = &cfg, .keep_image = true, .dump_commands = dump };
	ulp_diag d;
	ulp_diag_clear(&d);
	cr_assert(replay_run(t, &o, res, &d), "%s", d.msg);
	cr_assert(res->image);
}

/* Appends one registers block per run of writes of one space (a block
 * applies its pica writes before its gr3d writes). */
static cJSON *block(cJSON *cmds, cJSON *blk, bool gr3d)
{
	if (blk && cJSON_GetObjectItem(blk, gr3d ? "gr3d" : "pica"))
		return blk;
	if (blk && !cJSON_GetObjectItem(blk, gr3d ? "pica" : "gr3d"))
		return blk;
	blk = cJSON_CreateObject();
	cJSON_AddStringToObject(blk, "cmd", "registers");
	cJSON_AddItemToObject(blk, gr3d ? "gr3d" : "pica", cJSON_CreateArray());
	cJSON_AddItemToArray(cmds, blk);
	return blk;
}

/* The trace with its state commands replaced by the register writes the
 * dump gave for them; framebuffer, clear, clip and checkpoint are kept. */
static char *raw_trace(const char *path, const char *dump)
{
	size_t len;
	FILE *f = fopen(path, "rb");
	cr_assert(f);
	fseek(f, 0, SEEK_END);
	len = (size_t)ftell(f);
	rewind(f);
	char *text = malloc(len + 1);
	cr_assert(text && fread(text, 1, len, f) == len);
	text[len] = 0;
	fclose(f);
	cJSON *root = cJSON_Parse(text);
	free(text);
	cr_assert(root);
	cJSON *old = cJSON_DetachItemFromObject(root, "commands");
	cJSON *cmds = cJSON_AddArrayToObject(root, "commands");
	size_t ncmd = (size_t)cJSON_GetArraySize(old);
	cJSON *blk = NULL;
	const char *line = dump;
	size_t next = 0;                        /* the next command to copy or replace */
	while (next < ncmd || *line) {
		size_t at = SIZE_MAX;
		if (*line == '#')
			cr_assert_eq(sscanf(line, "# $.commands[%zu]", &at), 1);
		if (at != SIZE_MAX || !*line) {
			for (; next < ncmd && next <= (at == SIZE_MAX ? ncmd - 1 : at); next++) {
				cJSON *c = cJSON_GetArrayItem(old, (int)next);
				const char *cmd = cJSON_GetObjectItem(c, "cmd")->valuestring;
				if (!strcmp(cmd, "framebuffer") || !strcmp(cmd, "clear") || !strcmp(cmd, "clip") ||
				    !strcmp(cmd, "checkpoint"))
					cJSON_AddItemToArray(cmds, cJSON_Duplicate(c, true));
			}
			blk = NULL;
		} else {
			unsigned reg, mask = 0xF, value;
			bool gr3d = !strncmp(line, "gr3d", 4);
			if (gr3d)
				cr_assert_eq(sscanf(line, "gr3d 0x%x %x", &reg, &value), 2, "%.40s", line);
			else
				cr_assert_eq(sscanf(line, "pica 0x%x %x %x", &reg, &mask, &value), 3, "%.40s", line);
			blk = block(cmds, blk, gr3d);
			cJSON *arr = cJSON_GetObjectItem(blk, gr3d ? "gr3d" : "pica");
			cJSON *w = cJSON_CreateArray();
			cJSON_AddItemToArray(w, cJSON_CreateNumber(reg));
			if (!gr3d)
				cJSON_AddItemToArray(w, cJSON_CreateNumber(mask));
			cJSON_AddItemToArray(w, cJSON_CreateNumber(value));
			cJSON_AddItemToArray(arr, w);
		}
		const char *nl = strchr(line, '\n');
		line = nl ? nl + 1 : line + strlen(line);
	}
	cJSON_Delete(old);
	char *out = cJSON_PrintUnformatted(root);
	cJSON_Delete(root);
	return out;
}

static void raw_equals_high_level(const char *path)
{
	trace t;
	ulp_diag d;
	ulp_diag_clear(&d);
	cr_assert(trace_load(&t, path, &d), "%s", d.msg);
	char *dump = NULL;
	size_t dlen = 0;
	FILE *df = open_memstream(&dump, &dlen);
	cr_assert(df);
	replay_result a, b;
	replay_trace(&t, &a, df);
	fclose(df);
	cr_assert(strstr(dump, "DRAW"), "the draw's trigger is in the dump");
	char *raw = raw_trace(path, dump);
	trace r;
	cr_assert(trace_parse(&r, raw, "raw.trace.json", t.dir, &d), "%s", d.msg);
	cr_assert(!strstr(raw, "\"bind_shaders\"") && !strstr(raw, "\"draw\"") &&
	          !strstr(raw, "\"vertex_elements\"") && !strstr(raw, "\"sampler"), "only raw state");
	replay_trace(&r, &b, NULL);
	cr_expect_eq(a.draws, b.draws, "%s", path);
	cr_expect_gt(b.draws, 0);
	cr_expect_eq(a.cycles, b.cycles, "%s: the same cycles", path);
	cr_expect_eq(a.fragments, b.fragments, "%s", path);
	cr_expect_eq(a.image->width, b.image->width);
	cr_expect(!memcmp(a.image->rgba, b.image->rgba, (size_t)a.image->width * a.image->height * 4),
	          "%s: the same image", path);
	ulp_image_free(a.image);
	ulp_image_free(b.image);
	free(a.depth);
	free(b.depth);
	trace_free(&r);
	trace_free(&t);
	free(raw);
	free(dump);
}

Test(regs_state, raw_blocks_replay_like_the_high_level_trace)
{
	raw_equals_high_level("traces/samples/triangle.json");
	raw_equals_high_level("traces/samples/textured_cube.json");   /* texture units, depth */
	raw_equals_high_level("traces/samples/lit_sphere.json");      /* indexed: DRAWELEMENTS */
}

/* Scissor, two-sided colour, flat shading and culling: state that reaches
 * setup only through the linker, 0x343 and the scissor registers. */
Test(regs_state, raw_blocks_carry_the_face_scissor_and_flat_state)
{
	static const char *const TRACE =
	    "{\"format\": \"ulpsim-trace\", \"version\": 1, \"name\": \"faces\", \"resources\": {"
	    "\"vb\": {\"type\": \"buffer\", \"f32\": ["
	    "-0.9, -0.9, 0, 1, 1, 0, 0, 1, 0, 0, 1, 1,  0.9, -0.9, 0, 1, 0, 1, 0, 1, 1, 1, 0, 1,"
	    "0, 0.9, 0, 1, 0, 0, 1, 1, 0, 1, 1, 1,  -0.9, 0.9, 0, 1, 1, 1, 1, 1, 1, 0, 1, 1]}},"
	    "\"shaders\": {\"vs\": {\"stage\": \"vertex\", \"tgsi\": \"VERT\\nDCL IN[0]\\nDCL IN[1]\\nDCL IN[2]\\n"
	    "DCL OUT[0], POSITION\\nDCL OUT[1], COLOR\\nDCL OUT[2], BCOLOR\\n"
	    "  0: MOV OUT[0], IN[0]\\n  1: MOV OUT[1], IN[1]\\n  2: MOV OUT[2], IN[2]\\n  3: END\\n\"},"
	    "\"fs\": {\"stage\": \"fragment\", \"tgsi\": \"FRAG\\nDCL IN[0], COLOR, COLOR\\n"
	    "DCL OUT[0], COLOR\\n  0: MOV OUT[0], IN[0]\\n  1: END\\n\"}}, \"commands\": ["
	    "{\"cmd\": \"framebuffer\", \"width\": 48, \"height\": 40, \"cbufs\": [{\"format\": \"RGBA8888\"}]},"
	    "{\"cmd\": \"viewport\", \"scale\": [24, 20, 0.5], \"translate\": [24, 20, 0.5]},"
	    "{\"cmd\": \"rasterizer\", \"scissor\": true, \"two_side\": true, \"flatshade\": true,"
	    " \"cull\": \"front\", \"front_ccw\": false},"
	    "{\"cmd\": \"scissor\", \"minx\": 5, \"miny\": 3, \"maxx\": 41, \"maxy\": 30},"
	    "{\"cmd\": \"bind_shaders\", \"vs\": \"vs\", \"fs\": \"fs\"},"
	    "{\"cmd\": \"vertex_elements\", \"elements\": ["
	    "{\"buffer\": \"vb\", \"offset\": 0, \"stride\": 48, \"format\": \"R32G32B32A32_FLOAT\"},"
	    "{\"buffer\": \"vb\", \"offset\": 16, \"stride\": 48, \"format\": \"R32G32B32A32_FLOAT\"},"
	    "{\"buffer\": \"vb\", \"offset\": 32, \"stride\": 48, \"format\": \"R32G32B32A32_FLOAT\"}]},"
	    "{\"cmd\": \"clear\", \"color\": [0, 0, 0, 1]},"
	    "{\"cmd\": \"draw\", \"mode\": \"triangle_fan\", \"start\": 0, \"count\": 4},"
	    "{\"cmd\": \"checkpoint\", \"name\": \"f\"}]}";
	char *dir = test_tmpdir();
	char *path = test_write_file(dir, "faces.json", TRACE);
	raw_equals_high_level(path);
	/* and the state matters: without the scissor the image differs */
	trace t;
	ulp_diag d;
	ulp_diag_clear(&d);
	cr_assert(trace_load(&t, path, &d), "%s", d.msg);
	replay_result a;
	replay_trace(&t, &a, NULL);
	const uint8_t *px = ulp_image_cpx(a.image, 2, 20);         /* left of the scissor: the clear */
	cr_expect(px[0] == 0 && px[1] == 0 && px[2] == 0, "scissored away");
	px = ulp_image_cpx(a.image, 24, 20);
	cr_expect(px[0] || px[1] || px[2], "inside: drawn (a back face, flat, its back colour)");
	ulp_image_free(a.image);
	free(a.depth);
	trace_free(&t);
	free(path);
	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	cr_assert_eq(system(cmd), 0);
	free(dir);
}

/* A raw stream that triggers a draw the registers cannot describe is
 * refused with the command's JSON path, never run half-set-up. */
static void refused(const char *commands, const char *want)
{
	char json[4096];
	snprintf(json, sizeof json,
	         "{\"format\": \"ulpsim-trace\", \"version\": 1, \"name\": \"raw\", \"resources\": {"
	         "\"vb\": {\"type\": \"buffer\", \"f32\": [0, 0, 0, 1]}}, \"commands\": ["
	         "{\"cmd\": \"framebuffer\", \"width\": 8, \"height\": 8, \"cbufs\": [{\"format\": \"RGBA8888\"}]},"
	         "%s]}", commands);
	trace t;
	ulp_diag d;
	ulp_diag_clear(&d);
	cr_assert(trace_parse(&t, json, "raw.trace.json", ".", &d), "%s", d.msg);
	ulp_config cfg;
	ulp_config_defaults(&cfg);
	replay_opts o = { .cfg = &cfg };
	replay_result res;
	cr_expect_not(replay_run(&t, &o, &res, &d), "%s", commands);
	cr_expect(strstr(d.msg, "$.commands["), "the JSON path: %s", d.msg);
	cr_expect(strstr(d.msg, want), "want '%s': %s", want, d.msg);
	trace_free(&t);
}

Test(regs_state, raw_draws_that_cannot_run_are_refused)
{
	refused("{\"cmd\": \"registers\", \"pica\": [[558, 15, 1]]}", "position");
	/* PRIMITIVE_CONFIG = geometry primitives */
	refused("{\"cmd\": \"registers\", \"pica\": [[606, 2, 768], [558, 15, 1]]}", "geometry");
	/* an index buffer outside memory */
	refused("{\"cmd\": \"registers\", \"pica\": [[552, 15, 3], [551, 15, 16], [559, 15, 1]]}",
	        "index buffer");
	/* a buffer named as a texture */
	refused("{\"cmd\": \"registers\", \"pica\": [[592, 15, 0], [80, 15, 50462976], [701, 15, 1]],"
	        " \"gr3d\": [[1808, 65536], [1825, 16385]]}, {\"cmd\": \"registers\", \"pica\": [[558, 15, 1]]}",
	        "0x10000");
}

Test(regs_state, more_attributes_than_the_pica200_loads_are_refused)
{
	/* FORMAT_HIGH says 16 attributes */
	refused("{\"cmd\": \"registers\", \"pica\": [[514, 15, 4026531840], [558, 15, 1]]}", "at most 12");
}

/* Points and lines expanded into quads by the PICA200 geometry shader
 * (traces/gl/gl_prims.h), run through a replay session as the Gallium
 * driver runs them: the pixels a point of size s or a line of width w
 * covers. */
#include <criterion/criterion.h>
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/image.h"
#include "frontends/tgsi/tgsi.h"
#include "sim/core/config.h"
#include "traces/gl/gl_prims.h"
#include "traces/replay/session.h"

static const char VS[] = "VERT\nDCL IN[0]\nDCL IN[1]\nDCL OUT[0], POSITION\nDCL OUT[1], COLOR\n"
                         "  0: MOV OUT[0], IN[0]\n  1: MOV OUT[1], IN[1]\n  2: END\n";
static const char FS[] = "FRAG\nDCL IN[0], COLOR, COLOR\nDCL OUT[0], COLOR\n  0: MOV OUT[0], IN[0]\n  1: END\n";

enum { W = 32, H = 16 };

typedef struct fx {
	ulp_config cfg;
	replay_opts o;
	replay_result res;
	replay_session *s;
	ulp_diag d;
} fx;

static void cmd(fx *f, const char *json)
{
	cJSON *j = cJSON_Parse(json);
	cr_assert(j, "test JSON: %s", json);
	ulp_diag_clear(&f->d);
	bool ok = replay_session_command(f->s, j, &f->d);
	cJSON_Delete(j);
	cr_assert(ok, "%s: %s", json, f->d.msg);
}

static void add_shader(fx *f, const char *id, enum trace_stage st, const char *text)
{
	trace_shader sh;
	memset(&sh, 0, sizeof sh);
	snprintf(sh.id, sizeof sh.id, "%s", id);
	sh.stage = st;
	sh.code = TRACE_TGSI;
	sh.text = (char *)text;
	cr_assert(replay_session_shader(f->s, &sh, &f->d), "%s", f->d.msg);
}

/* A session with the VS, the FS and the expanding GS for `what` bound,
 * of size (point size or line width) in pixels, vertices v (x y z w r g b a). */
static void setup(fx *f, enum ulp_gl_wide what, float size, const float *v, size_t nv)
{
	memset(f, 0, sizeof *f);
	ulp_config_defaults(&f->cfg);
	f->o.cfg = &f->cfg;
	replay_session_units u = { .lazy = true };
	f->s = replay_session_open(&f->o, &u, "prims", "", &f->res, &f->d);
	cr_assert(f->s);
	add_shader(f, "vs", TRACE_VERTEX, VS);
	add_shader(f, "fs", TRACE_FRAGMENT, FS);
	uint16_t mask, mapped;
	int16_t sem[16];
	uint32_t index[16];
	cr_assert(replay_session_vs_outputs(f->s, "vs", &mask, &mapped, sem, index, &f->d), "%s", f->d.msg);
	cr_assert_eq(__builtin_popcount(mask), 2);
	cr_assert_eq(mapped, mask, "position and colour have output-map semantics");
	char *gs = ulp_gl_expand_gs(what, mask, sem, index, &f->d);
	cr_assert(gs, "%s", f->d.msg);
	add_shader(f, "gs", TRACE_GEOMETRY, gs);
	free(gs);
	cr_assert(replay_session_buffer(f->s, "vb", v, nv * 8 * sizeof(float), &f->d), "%s", f->d.msg);
	char fb[128];
	snprintf(fb, sizeof fb, "{\"cmd\":\"framebuffer\",\"width\":%d,\"height\":%d,\"cbufs\":[{\"format\":\"RGBA8888\"}]}",
	         W, H);
	cmd(f, fb);
	cmd(f, "{\"cmd\":\"clear\",\"color\":[0,0,0,0]}");
	cmd(f, "{\"cmd\":\"bind_shaders\",\"vs\":\"vs\",\"gs\":\"gs\",\"fs\":\"fs\"}");
	cmd(f, "{\"cmd\":\"vertex_elements\",\"elements\":["
	       "{\"buffer\":\"vb\",\"offset\":0,\"stride\":32,\"format\":\"R32G32B32A32_FLOAT\"},"
	       "{\"buffer\":\"vb\",\"offset\":16,\"stride\":32,\"format\":\"R32G32B32A32_FLOAT\"}]}");
	float c[8];
	const float scale[2] = { W / 2.0f, H / 2.0f };
	ulp_gl_expand_consts(size, scale, c);
	char cb[256];
	snprintf(cb, sizeof cb, "{\"cmd\":\"constant_buffer\",\"stage\":\"geometry\",\"index\":0,\"f32\":"
	         "[%g,%g,%g,%g,%g,%g,%g,%g]}", c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]);
	cmd(f, cb);
}

/* Pixels of the frame lit (red over 128), and their bounding box. */
static unsigned lit(fx *f, unsigned box[4])
{
	ulp_image *img = replay_session_cbuf(f->s, 0, NULL);
	cr_assert(img);
	unsigned n = 0;
	box[0] = box[1] = 1000, box[2] = box[3] = 0;
	for (unsigned y = 0; y < H; y++)
		for (unsigned x = 0; x < W; x++)
			if (ulp_image_cpx(img, x, y)[0] > 128) {
				n++;
				box[0] = x < box[0] ? x : box[0], box[1] = y < box[1] ? y : box[1];
				box[2] = x > box[2] ? x : box[2], box[3] = y > box[3] ? y : box[3];
			}
	return n;
}

static void done(fx *f)
{
	replay_session_finish(f->s, &f->d);
	replay_session_close(f->s);
	ulp_image_free(f->res.image);
	free(f->res.depth);
}

Test(gl_prims, a_point_of_size_4_covers_4x4_pixels)
{
	/* the centre on a pixel corner: (16, 8) in window coordinates */
	static const float V[] = { 0, 0, 0, 1, 1, 0, 0, 1 };
	fx f;
	setup(&f, ULP_GL_POINTS, 4, V, 1);
	cmd(&f, "{\"cmd\":\"draw\",\"mode\":\"points\",\"start\":0,\"count\":1}");
	unsigned b[4];
	cr_assert_eq(lit(&f, b), 16, "a 4x4 square");
	cr_assert(b[0] == 14 && b[2] == 17 && b[1] == 6 && b[3] == 9, "at (14..17, 6..9): %u..%u, %u..%u", b[0], b[2],
	          b[1], b[3]);
	done(&f);
}

Test(gl_prims, points_scale_with_w)
{
	/* the same point in clip space with w = 2: the same pixels */
	static const float V[] = { 0, 0, 0, 2, 1, 0, 0, 1 };
	fx f;
	setup(&f, ULP_GL_POINTS, 2, V, 1);
	cmd(&f, "{\"cmd\":\"draw\",\"mode\":\"points\",\"start\":0,\"count\":1}");
	unsigned b[4];
	cr_assert_eq(lit(&f, b), 4);
	done(&f);
}

Test(gl_prims, an_x_major_line_of_width_1_is_one_row)
{
	/* from x = 4 to x = 28 at y = 8.5 (pixel row 8's centre), w = 1 */
	static const float V[] = { -0.75f, 0.0625f, 0, 1, 1, 0, 0, 1, 0.75f, 0.0625f, 0, 1, 1, 0, 0, 1,
		0.75f, 0.0625f, 0, 1, 1, 0, 0, 1 };
	fx f;
	setup(&f, ULP_GL_LINES, 1, V, 3);
	cmd(&f, "{\"cmd\":\"draw\",\"mode\":\"triangles\",\"start\":0,\"count\":3}");
	unsigned b[4];
	cr_assert_eq(lit(&f, b), 24, "24 pixels: x 4..27");
	cr_assert(b[1] == 8 && b[3] == 8 && b[0] == 4 && b[2] == 27, "%u..%u, %u..%u", b[0], b[2], b[1], b[3]);
	done(&f);
}

Test(gl_prims, a_y_major_line_of_width_3_is_three_columns)
{
	/* from y = 2 to y = 14 at x = 16.5, width 3 */
	static const float V[] = { 0.03125f, -0.75f, 0, 1, 1, 0, 0, 1, 0.03125f, 0.75f, 0, 1, 1, 0, 0, 1,
		0.03125f, 0.75f, 0, 1, 1, 0, 0, 1 };
	fx f;
	setup(&f, ULP_GL_LINES, 3, V, 3);
	cmd(&f, "{\"cmd\":\"draw\",\"mode\":\"triangles\",\"start\":0,\"count\":3}");
	unsigned b[4];
	cr_assert_eq(lit(&f, b), 36, "3 columns of 12");
	cr_assert(b[0] == 15 && b[2] == 17, "%u..%u", b[0], b[2]);
	done(&f);
}

Test(gl_prims, refusals_and_segments)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	int16_t sem[16];
	uint32_t index[16] = { 0 };
	for (int k = 0; k < 16; k++)
		sem[k] = TGSI_SEMANTIC_GENERIC;
	cr_assert_null(ulp_gl_expand_gs(ULP_GL_POINTS, 0x3, sem, index, &d));
	cr_assert(strstr(d.msg, "no position"), "%s", d.msg);
	sem[0] = TGSI_SEMANTIC_POSITION;
	ulp_diag_clear(&d);
	cr_assert_null(ulp_gl_expand_gs(ULP_GL_LINES, 0x3F, sem, index, &d), "6 outputs x 3 vertices > 16");
	char *t = ulp_gl_expand_gs(ULP_GL_POINTS, 0xFFFF, sem, index, &d);
	cr_assert(t, "16 outputs of one point fit");
	free(t);
	unsigned a, b;
	cr_assert(ulp_gl_line_segment(ULP_GL_LINE_LIST, 5, 1, &a, &b) && a == 2 && b == 3);
	cr_assert(!ulp_gl_line_segment(ULP_GL_LINE_LIST, 5, 2, &a, &b), "the odd vertex is dropped");
	cr_assert(ulp_gl_line_segment(ULP_GL_LINE_STRIP, 3, 1, &a, &b) && a == 1 && b == 2);
	cr_assert(!ulp_gl_line_segment(ULP_GL_LINE_STRIP, 3, 2, &a, &b));
	cr_assert(ulp_gl_line_segment(ULP_GL_LINE_LOOP, 3, 2, &a, &b) && a == 2 && b == 0, "the loop closes");
	cr_assert(!ulp_gl_line_segment(ULP_GL_LINE_LOOP, 1, 0, &a, &b));
}


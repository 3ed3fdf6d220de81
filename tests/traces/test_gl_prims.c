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
#include "tests/test_session_fx.h"
#include "traces/gl/gl_prims.h"
#include "traces/replay/session.h"

static const char VS[] = "VERT\nDCL IN[0]\nDCL IN[1]\nDCL OUT[0], POSITION\nDCL OUT[1], COLOR\n"
                         "  0: MOV OUT[0], IN[0]\n  1: MOV OUT[1], IN[1]\n  2: END\n";
static const char FS[] = "FRAG\nDCL IN[0], COLOR, COLOR\nDCL OUT[0], COLOR\n  0: MOV OUT[0], IN[0]\n  1: END\n";

enum { W = 32, H = 16 };

typedef test_session fx;

static void cmd(fx *f, const char *json)
{
	cr_assert(test_session_cmd(f, json), "%s: %s", json, f->d.msg);
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

/* The constants of the expanding GS into the session. */
static void consts(fx *f, float size, bool upper_left)
{
	float c[4 * ULP_GL_EXPAND_CONSTS];
	const ulp_gl_expand_state st = { .size = size, .vp_scale = { W / 2.0f, H / 2.0f }, .size_min = 1,
		                         .size_max = 64, .sprite_upper_left = upper_left };
	ulp_gl_expand_consts(&st, c);
	char cb[512];
	int n = snprintf(cb, sizeof cb, "{\"cmd\":\"constant_buffer\",\"stage\":\"geometry\",\"index\":0,\"f32\":[");
	for (int k = 0; k < 4 * ULP_GL_EXPAND_CONSTS; k++)
		n += snprintf(cb + n, sizeof cb - (size_t)n, "%s%g", k ? "," : "", c[k]);
	snprintf(cb + n, sizeof cb - (size_t)n, "]}");
	cmd(f, cb);
}

/* A session with vs, fs and the expanding GS for e (its what; the VS's
 * outputs filled in, e->fs from fs when fs_io) bound, vertices v of
 * `stride` floats (attributes of 4), size in pixels. */
static void setup_with(fx *f, const char *vs, const char *fs, ulp_gl_expand *e, bool fs_io, float size,
                       const float *v, size_t nv, unsigned nattr)
{
	test_session_open(f, "prims");
	add_shader(f, "vs", TRACE_VERTEX, vs);
	add_shader(f, "fs", TRACE_FRAGMENT, fs);
	uint16_t mapped;
	cr_assert(replay_session_vs_outputs(f->s, "vs", &e->mask, &mapped, e->sem, e->index, &f->d), "%s", f->d.msg);
	static ulp_gl_io in;
	if (fs_io) {
		cr_assert(ulp_gl_shader_inputs(fs, &in));
		e->fs = &in;
	}
	char *gs = ulp_gl_expand_gs(e, &f->d);
	cr_assert(gs, "%s", f->d.msg);
	add_shader(f, "gs", TRACE_GEOMETRY, gs);
	free(gs);
	cr_assert(replay_session_buffer(f->s, "vb", v, nv * nattr * 4 * sizeof(float), &f->d), "%s", f->d.msg);
	char fb[128];
	snprintf(fb, sizeof fb, "{\"cmd\":\"framebuffer\",\"width\":%d,\"height\":%d,\"cbufs\":[{\"format\":\"RGBA8888\"}]}",
	         W, H);
	cmd(f, fb);
	cmd(f, "{\"cmd\":\"clear\",\"color\":[0,0,0,0]}");
	cmd(f, "{\"cmd\":\"bind_shaders\",\"vs\":\"vs\",\"gs\":\"gs\",\"fs\":\"fs\"}");
	char ve[512];
	int n = snprintf(ve, sizeof ve, "{\"cmd\":\"vertex_elements\",\"elements\":[");
	for (unsigned k = 0; k < nattr; k++)
		n += snprintf(ve + n, sizeof ve - (size_t)n, "%s{\"buffer\":\"vb\",\"offset\":%u,\"stride\":%u,"
		              "\"format\":\"R32G32B32A32_FLOAT\"}", k ? "," : "", 16 * k, 16 * nattr);
	snprintf(ve + n, sizeof ve - (size_t)n, "]}");
	cmd(f, ve);
	consts(f, size, true);
}

/* The plain VS and FS (position, colour) for `what`. */
static void setup(fx *f, enum ulp_gl_wide what, float size, const float *v, size_t nv)
{
	ulp_gl_expand e = { .what = what };
	setup_with(f, VS, FS, &e, false, size, v, nv, 2);
	cr_assert_eq(__builtin_popcount(e.mask), 2);
	cr_assert_eq(ulp_gl_expand_keep(&e), e.mask, "no FS given: every output passes on");
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
	test_session_close(f, false);
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
	ulp_gl_expand e = { .what = ULP_GL_POINTS, .mask = 0x3 };
	for (int k = 0; k < 16; k++)
		e.sem[k] = TGSI_SEMANTIC_GENERIC, e.index[k] = (uint32_t)k;
	cr_assert_null(ulp_gl_expand_gs(&e, &d));
	cr_assert(strstr(d.msg, "no position"), "%s", d.msg);
	e.sem[0] = TGSI_SEMANTIC_POSITION;
	ulp_diag_clear(&d);
	e.what = ULP_GL_LINES, e.mask = 0x3F;
	cr_assert_null(ulp_gl_expand_gs(&e, &d), "6 outputs x 3 vertices > 16");
	e.what = ULP_GL_POINTS, e.mask = 0xFFFF;
	ulp_diag_clear(&d);
	cr_assert_null(ulp_gl_expand_gs(&e, &d), "16 outputs of one point fit the inputs, not the GS's o0-o6");
	cr_assert(strstr(d.msg, "7 output registers"), "%s", d.msg);
	ulp_gl_io fs = { .n = 2, .sem = { TGSI_SEMANTIC_GENERIC, TGSI_SEMANTIC_GENERIC }, .index = { 9, 15 } };
	e.fs = &fs;
	cr_assert_eq(ulp_gl_expand_keep(&e), 1u << 0 | 1u << 9 | 1u << 15, "the position and what the FS reads");
	char *t = ulp_gl_expand_gs(&e, &d);
	cr_assert(t, "%s", d.msg);
	cr_assert(strstr(t, "DCL IN[][15], GENERIC[15]") && strstr(t, "DCL OUT[2], GENERIC[15]") &&
	          !strstr(t, "DCL OUT[3]"), "%s", t);
	free(t);
	char k1[40], k2[40];
	ulp_gl_expand_key(&e, k1, sizeof k1);
	e.sprite = 1u << 9;
	ulp_gl_expand_key(&e, k2, sizeof k2);
	cr_assert_str_eq(k1, "p8201");
	cr_assert_str_eq(k2, "p8001t200", "GENERIC[9] is the sprite coordinate now");
	unsigned a, b;
	cr_assert(ulp_gl_line_segment(ULP_GL_LINE_LIST, 5, 1, &a, &b) && a == 2 && b == 3);
	cr_assert(!ulp_gl_line_segment(ULP_GL_LINE_LIST, 5, 2, &a, &b), "the odd vertex is dropped");
	cr_assert(ulp_gl_line_segment(ULP_GL_LINE_STRIP, 3, 1, &a, &b) && a == 1 && b == 2);
	cr_assert(!ulp_gl_line_segment(ULP_GL_LINE_STRIP, 3, 2, &a, &b));
	cr_assert(ulp_gl_line_segment(ULP_GL_LINE_LOOP, 3, 2, &a, &b) && a == 2 && b == 0, "the loop closes");
	cr_assert(!ulp_gl_line_segment(ULP_GL_LINE_LOOP, 1, 0, &a, &b));
}



/* A VS of 9 outputs: more than the GS's o0-o6; GENERIC[3] is (0, 0.5, 1),
 * the clip vertex IN[1] (its x: the clip distance of plane x >= 0), the
 * point size IN[1].y. */
static const char VS9[] = "VERT\nDCL IN[0]\nDCL IN[1]\nDCL OUT[0], POSITION\nDCL OUT[1], COLOR\n"
                          "DCL OUT[2], GENERIC[0]\nDCL OUT[3], GENERIC[1]\nDCL OUT[4], GENERIC[2]\n"
                          "DCL OUT[5], GENERIC[3]\nDCL OUT[6], BCOLOR\nDCL OUT[7], CLIPVERTEX\nDCL OUT[8], PSIZE\n"
                          "IMM[0] FLT32 {0.0, 0.5, 1.0, 0.25}\n"
                          "  0: MOV OUT[0], IN[0]\n  1: MOV OUT[1], IMM[0].xxxx\n  2: MOV OUT[2], IMM[0].xxxx\n"
                          "  3: MOV OUT[3], IMM[0].xxxx\n  4: MOV OUT[4], IMM[0].xxxx\n  5: MOV OUT[5], IMM[0].xyzz\n"
                          "  6: MOV OUT[6], IMM[0].wwww\n  7: MOV OUT[7], IN[1]\n  8: MOV OUT[8], IN[1].yyyy\n  9: END\n";
static const char FS_G3[] = "FRAG\nDCL IN[0], GENERIC[3], PERSPECTIVE\nDCL OUT[0], COLOR\n  0: MOV OUT[0], IN[0]\n"
                            "  1: END\n";

static const uint8_t *px(fx *f, unsigned x, unsigned y)
{
	ulp_image *img = replay_session_cbuf(f->s, 0, NULL);
	cr_assert(img);
	return ulp_image_cpx(img, x, y);
}

Test(gl_prims, a_varying_past_the_output_map_reaches_the_fragment_shader)
{
	/* GENERIC[3] of a VS with 9 outputs: points and lines (was lost, or the GS refused) */
	static const float V[] = { 0, 0, 0, 1, 1, 4, 0, 0 };
	for (int what = 0; what < 2; what++) {
		fx f;
		ulp_gl_expand e = { .what = what ? ULP_GL_LINES : ULP_GL_POINTS };
		if (what) {
			static const float L[] = { -0.75f, 0.0625f, 0, 1, 1, 4, 0, 0, 0.75f, 0.0625f, 0, 1, 1, 4, 0, 0,
				0.75f, 0.0625f, 0, 1, 1, 4, 0, 0 };
			/* 9 outputs of 3 vertices do not fit the GS inputs: 5 outputs do */
			static const char VS5[] = "VERT\nDCL IN[0]\nDCL IN[1]\nDCL OUT[0], POSITION\nDCL OUT[1], COLOR\n"
			                          "DCL OUT[2], GENERIC[0]\nDCL OUT[3], GENERIC[3]\nDCL OUT[4], BCOLOR\n"
			                          "IMM[0] FLT32 {0.0, 0.5, 1.0, 0.25}\n"
			                          "  0: MOV OUT[0], IN[0]\n  1: MOV OUT[1], IMM[0].xxxx\n"
			                          "  2: MOV OUT[2], IMM[0].xxxx\n  3: MOV OUT[3], IMM[0].xyzz\n"
			                          "  4: MOV OUT[4], IMM[0].wwww\n  5: END\n";
			setup_with(&f, VS5, FS_G3, &e, true, 1, L, 3, 2);
			cmd(&f, "{\"cmd\":\"draw\",\"mode\":\"triangles\",\"start\":0,\"count\":3}");
		} else {
			setup_with(&f, VS9, FS_G3, &e, true, 4, V, 1, 2);
			cr_assert_eq(__builtin_popcount(e.mask), 9);
			cmd(&f, "{\"cmd\":\"draw\",\"mode\":\"points\",\"start\":0,\"count\":1}");
		}
		const uint8_t *p = px(&f, 16, 8);
		cr_assert(p[0] == 0 && p[1] >= 126 && p[1] <= 129 && p[2] == 255 && p[3] == 255, "%s: %d %d %d %d",
		          what ? "line" : "point", p[0], p[1], p[2], p[3]);
		done(&f);
	}
}

Test(gl_prims, the_clip_vertex_clips_whole_points)
{
	/* plane x >= 0 against the clip vertex IN[1]: -1 clips the point, 0 keeps it */
	for (int keep = 0; keep < 2; keep++) {
		const float V[] = { 0, 0, 0, 1, keep ? 0.0f : -1.0f, 4, 0, 0 };
		fx f;
		ulp_gl_expand e = { .what = ULP_GL_POINTS, .clip = true };
		setup_with(&f, VS9, FS_G3, &e, true, 4, V, 1, 2);
		cmd(&f, "{\"cmd\":\"clip\",\"planes\":[1,0,0,0, 0,0,0,0, 0,0,0,0, 0,0,0,0, 0,0,0,0, 0,0,0,0, 0,0,0,0,"
		        " 0,0,0,0]}");
		cmd(&f, "{\"cmd\":\"rasterizer\",\"cull\":\"none\",\"clip_plane_enable\":1}");
		cmd(&f, "{\"cmd\":\"draw\",\"mode\":\"points\",\"start\":0,\"count\":1}");
		unsigned b[4];
		(void)b;
		const uint8_t *p = px(&f, 16, 8);
		cr_assert_eq(p[2], keep ? 255 : 0, "clip distance %d: blue %d", keep ? 0 : -1, p[2]);
		done(&f);
	}
}

Test(gl_prims, per_vertex_point_sizes_are_read_and_clamped)
{
	/* PSIZE = IN[1].y: 6 pixels, and 100 clamped to the range's 64 (the frame: 32 x 16) */
	const float sizes[2] = { 6, 100 };
	const unsigned want[2] = { 36, W * H };
	for (int k = 0; k < 2; k++) {
		const float V[] = { 0, 0, 0, 1, 1, sizes[k], 0, 0 };
		fx f;
		ulp_gl_expand e = { .what = ULP_GL_POINTS, .psize = true };
		setup_with(&f, VS9, FS_G3, &e, true, 1, V, 1, 2);
		cmd(&f, "{\"cmd\":\"draw\",\"mode\":\"points\",\"start\":0,\"count\":1}");
		unsigned n = 0;
		for (unsigned y = 0; y < H; y++)
			for (unsigned x = 0; x < W; x++)
				n += px(&f, x, y)[2] > 128;
		cr_assert_eq(n, want[k], "size %g: %u pixels", sizes[k], n);
		done(&f);
	}
}

Test(gl_prims, point_sprite_coordinates_run_0_to_1_across_the_point)
{
	/* an 8-pixel point, GENERIC[0] its sprite coordinate: s along x, t from
	 * the top row (upper left, the viewport's y scale positive: row 0 is
	 * NDC -1) or from the bottom one */
	static const char FS0[] = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\n"
	                          "  0: MOV OUT[0], IN[0]\n  1: END\n";
	static const float V[] = { 0, 0, 0, 1, 1, 8, 0, 0 };
	for (int upper = 0; upper < 2; upper++) {
		fx f;
		ulp_gl_expand e = { .what = ULP_GL_POINTS, .sprite = 1 };
		setup_with(&f, VS9, FS0, &e, true, 8, V, 1, 2);
		consts(&f, 8, upper);
		cmd(&f, "{\"cmd\":\"draw\",\"mode\":\"points\",\"start\":0,\"count\":1}");
		/* the point covers x 12..19, y 4..11: pixel centres at 1/16, 3/16 .. 15/16 */
		const uint8_t *tl = px(&f, 12, 4), *br = px(&f, 19, 11);
		cr_assert(tl[0] <= 20 && br[0] >= 235, "s: %d at the left, %d at the right", tl[0], br[0]);
		const uint8_t t_top = tl[1], t_bottom = br[1];
		if (upper)
			cr_assert(t_top <= 20 && t_bottom >= 235, "upper left: t %d at the top row, %d at the bottom", t_top,
			          t_bottom);
		else
			cr_assert(t_top >= 235 && t_bottom <= 20, "lower left: t %d at the top row, %d at the bottom", t_top,
			          t_bottom);
		cr_assert(tl[2] == 0 && tl[3] == 255, "z 0, w 1: %d %d", tl[2], tl[3]);
		done(&f);
	}
}

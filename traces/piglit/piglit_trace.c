/* The simulator path: a piglit test as a ulpsim trace (docs/trace-format.md),
 * replayed by traces/replay/replay.h.  The trace holds the VS and FS TGSI inline, a
 * 250x250 RGBA8888 framebuffer, viewport (0, 0, 250, 250), and per draw one
 * vertex buffer (every VS input as R32G32B32A32_FLOAT, interleaved), the
 * VS and FS constant buffers (nir_vars placement, ints as floats), the bound
 * 2-D textures and a draw.  The framebuffer has a D24S8 depth/stencil
 * buffer; GL_DEPTH_TEST becomes a depth_stencil_alpha command (GL_LESS,
 * writes on), `clear` clears depth too, and `probe depth` reads the replayed
 * depth buffer.  What the trace format or the replay cannot express is
 * refused with the reason. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "traces/piglit/piglit.h"
#include "sim/core/config.h"
#include "traces/replay/replay.h"
#include "traces/trace.h"
#include "traces/trace_data.h"

#define REFUSE(...) (snprintf(reason, n, __VA_ARGS__), false)

struct pg_trace {
	cJSON *root, *res, *cmds;
	unsigned nbuf, ntex;
	int depth_test;                 /* the last depth state emitted (-1: none) */
	float *depth;                   /* the last render's depth buffer */
	const char *fs_tgsi;
	bool exact;                     /* replay with arith=exact */
	char name[256];
};

static cJSON *floats(const float *v, size_t count)
{
	cJSON *a = cJSON_CreateArray();
	for (size_t i = 0; a && i < count; i++) {
		cJSON *x = cJSON_CreateNumber((double)v[i]);
		if (!x) {
			cJSON_Delete(a);
			return NULL;
		}
		cJSON_AddItemToArray(a, x);
	}
	return a;
}

static cJSON *cmd(pg_trace *tr, const char *name)
{
	cJSON *c = cJSON_CreateObject();
	if (c) {
		cJSON_AddStringToObject(c, "cmd", name);
		cJSON_AddItemToArray(tr->cmds, c);
	}
	return c;
}

pg_trace *pg_trace_new(const pg_test *t, bool exact, ulp_diag *d)
{
	pg_trace *tr = calloc(1, sizeof *tr);
	if (!tr) {
		ulp_diag_at(d, t->name, 0, 0, "out of memory");
		return NULL;
	}
	tr->exact = exact;
	snprintf(tr->name, sizeof tr->name, "%s", t->name);
	tr->fs_tgsi = t->fs.tgsi;
	tr->root = cJSON_CreateObject();
	cJSON *sh = cJSON_CreateObject(), *vs = cJSON_CreateObject(), *fs = cJSON_CreateObject();
	tr->res = cJSON_CreateObject();
	tr->cmds = cJSON_CreateArray();
	if (!tr->root || !sh || !vs || !fs || !tr->res || !tr->cmds) {
		cJSON_Delete(sh);
		cJSON_Delete(vs);
		cJSON_Delete(fs);
		cJSON_Delete(tr->res);
		cJSON_Delete(tr->cmds);
		cJSON_Delete(tr->root);
		free(tr);
		ulp_diag_at(d, t->name, 0, 0, "out of memory");
		return NULL;
	}
	cJSON_AddStringToObject(tr->root, "format", "ulpsim-trace");
	cJSON_AddNumberToObject(tr->root, "version", 2);       /* textures in base64 */
	char nm[64];
	snprintf(nm, sizeof nm, "piglit");
	cJSON_AddStringToObject(tr->root, "name", nm);
	cJSON_AddItemToObject(tr->root, "resources", tr->res);
	cJSON_AddStringToObject(vs, "stage", "vertex");
	cJSON_AddStringToObject(vs, "tgsi", t->vs.tgsi ? t->vs.tgsi : "");
	cJSON_AddStringToObject(fs, "stage", "fragment");
	cJSON_AddStringToObject(fs, "tgsi", t->fs.tgsi ? t->fs.tgsi : "");
	cJSON_AddItemToObject(sh, "vs", vs);
	cJSON_AddItemToObject(sh, "fs", fs);
	cJSON_AddItemToObject(tr->root, "shaders", sh);
	cJSON_AddItemToObject(tr->root, "commands", tr->cmds);
	cJSON *fb = cmd(tr, "framebuffer");
	cJSON_AddNumberToObject(fb, "width", PG_FB_W);
	cJSON_AddNumberToObject(fb, "height", PG_FB_H);
	cJSON *cb = cJSON_AddArrayToObject(fb, "cbufs");
	cJSON *f0 = cJSON_CreateObject();
	cJSON_AddStringToObject(f0, "format", "RGBA8888");
	cJSON_AddItemToArray(cb, f0);
	cJSON *zs = cJSON_CreateObject();
	cJSON_AddStringToObject(zs, "format", "D24S8");
	cJSON_AddItemToObject(fb, "zsbuf", zs);
	tr->depth_test = -1;
	cJSON *vp = cmd(tr, "viewport");
	const float sc[3] = { PG_FB_W / 2.0f, PG_FB_H / 2.0f, 0.5f };
	cJSON_AddItemToObject(vp, "scale", floats(sc, 3));
	cJSON_AddItemToObject(vp, "translate", floats(sc, 3));
	cJSON *bs = cmd(tr, "bind_shaders");
	cJSON_AddStringToObject(bs, "vs", "vs");
	cJSON_AddStringToObject(bs, "fs", "fs");
	return tr;
}

void pg_trace_free(pg_trace *tr)
{
	if (!tr)
		return;
	cJSON_Delete(tr->root);
	free(tr->depth);
	free(tr);
}

const float *pg_trace_depth(const pg_trace *tr)
{
	return tr->depth;
}

bool pg_trace_clear(pg_trace *tr, const float color[4], float depth, char *reason, size_t n)
{
	cJSON *c = cmd(tr, "clear");
	if (!c)
		return REFUSE("out of memory");
	float col[4];
	for (int k = 0; k < 4; k++)
		col[k] = color[k] < 0 ? 0 : color[k] > 1 ? 1 : color[k];
	cJSON_AddItemToObject(c, "color", floats(col, 4));
	cJSON_AddNumberToObject(c, "depth", depth < 0 ? 0 : depth > 1 ? 1 : (double)depth);
	cJSON_AddNumberToObject(c, "stencil", 0);
	return true;
}

/* Does the fragment TGSI declare a POSITION output (gl_FragDepth)? */
static bool writes_depth(const char *tgsi)
{
	for (const char *l = tgsi; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		const char *e = strchr(l, '\n');
		size_t len = e ? (size_t)(e - l) : strlen(l);
		char line[256];
		snprintf(line, sizeof line, "%.*s", (int)(len < 255 ? len : 255), l);
		if (strstr(line, "DCL OUT[") && strstr(line, "POSITION"))
			return true;
	}
	return false;
}

/* n bytes as a base64 string (the compact data form, traces/trace_data.h). */
static cJSON *b64_bytes(const uint8_t *p, size_t n)
{
	char *s = trace_b64_encode(p, n);
	cJSON *v = s ? cJSON_CreateString(s) : NULL;
	free(s);
	return v;
}

/* A level's RGBA texels in 0..1 as RGBA8888 bytes, base64. */
static cJSON *u8_level(const float *p, unsigned w, unsigned h)
{
	const size_t n = (size_t)w * h * 4;
	uint8_t *b = malloc(n ? n : 1);
	if (!b)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		float v = p[i];
		b[i] = (uint8_t)(v <= 0 ? 0 : v >= 1 ? 255 : (int)(v * 255.0f + 0.5f));
	}
	cJSON *s = b64_bytes(b, n);
	free(b);
	return s;
}

/* A harness texture as a trace texture: colour textures RGBA8888 with their
 * mip levels, depth (shadow) textures D16 with the compare function on the
 * sampler and the depth texture mode as the view's swizzle, 1-D textures as 1D (an N x 1 texture: exact, t never leaves row
 * 0).  3-D textures are refused (docs/piglit.md). */
static bool texture(pg_trace *tr, const pg_texture *tx, unsigned unit, char *reason, size_t n)
{
	if (tx->dims == 3)
		return REFUSE("3-D textures: not modelled (the Tegra 2 texture descriptor has a width and "
		              "a height, no public depth field)");
	char id[32];
	snprintf(id, sizeof id, "tex%u", tr->ntex++);
	cJSON *t = cJSON_CreateObject();
	if (!t)
		return REFUSE("out of memory");
	cJSON_AddStringToObject(t, "type", "texture");
	cJSON_AddStringToObject(t, "format", tx->shadow ? "D16" : "RGBA8888");
	cJSON_AddStringToObject(t, "target", tx->dims == 1 ? "1D" : "2D");
	cJSON_AddNumberToObject(t, "width", tx->w);
	cJSON_AddNumberToObject(t, "height", tx->h);
	cJSON_AddItemToObject(tr->res, id, t);
	/* texel rows in upload order (glTexImage2D's and Gallium's): row 0 is
	 * t = 0, which is what the replay samples at t = 0 */
	if (tx->shadow) {
		const size_t texels = (size_t)tx->w * tx->h;
		uint8_t *b = malloc(2 * texels);
		if (!b)
			return REFUSE("out of memory");
		for (size_t i = 0; i < texels; i++) {     /* D16: little-endian */
			float v = tx->texels[i * 4];
			long d = (long)(v <= 0 ? 0 : v >= 1 ? 65535 : v * 65535.0f + 0.5f);
			b[2 * i] = (uint8_t)d, b[2 * i + 1] = (uint8_t)(d >> 8);
		}
		cJSON_AddItemToObject(t, "b64", b64_bytes(b, 2 * texels));
		free(b);
	} else {
		cJSON_AddItemToObject(t, "b64", u8_level(tx->texels, tx->w, tx->h));
	}
	if (!tx->shadow && tx->levels > 1) {
		cJSON *lv = cJSON_AddArrayToObject(t, "levels");
		for (unsigned l = 1; lv && l < tx->levels && l < 16; l++) {
			unsigned w = tx->w >> l ? tx->w >> l : 1, h = tx->h >> l ? tx->h >> l : 1;
			cJSON *o = cJSON_CreateObject();
			if (!o)
				return REFUSE("out of memory");
			cJSON_AddItemToObject(o, "b64", u8_level(tx->level[l], w, h));
			cJSON_AddItemToArray(lv, o);
		}
	}
	cJSON *sv = cmd(tr, "sampler_view");
	cJSON_AddNumberToObject(sv, "index", unit);
	cJSON_AddStringToObject(sv, "resource", id);
	if (tx->shadow) {          /* GL's depth texture mode as the view's swizzle, as Mesa's state tracker does */
		static const char *const MODE_SWIZZLE[] = { "rrr1", "rrrr", "000r", "r001" };
		cJSON_AddStringToObject(sv, "swizzle", MODE_SWIZZLE[tx->depth_mode & 3]);
	}
	/* the harness reference samples nearest, clamp to edge, nearest level */
	cJSON *sm = cmd(tr, "sampler");
	cJSON_AddNumberToObject(sm, "index", unit);
	cJSON_AddStringToObject(sm, "filter", "nearest");
	cJSON_AddStringToObject(sm, "mip_filter", tx->levels > 1 ? "nearest" : "none");
	cJSON_AddStringToObject(sm, "wrap", "clamp");
	if (tx->shadow) {
		static const char *const FUNC[] = { "lequal", "never", "less", "equal", "lequal", "greater",
			"notequal", "gequal", "always" };   /* ORDER: PG_CMP_*; NONE reads as GL's default */
		cJSON_AddStringToObject(sm, "compare_mode", tx->compare_func ? "ref_to_texture" : "none");
		cJSON_AddStringToObject(sm, "compare_func", FUNC[tx->compare_func >= 0 && tx->compare_func < 9
		                                                  ? tx->compare_func : 0]);
	}
	return true;
}

bool pg_trace_draw(pg_trace *tr, const pg_draw *dr, char *reason, size_t n)
{
	if (dr->depth_test && writes_depth(tr->fs_tgsi))
		return REFUSE("a fragment shader that writes depth: the Tegra program cannot");
	if ((int)dr->depth_test != tr->depth_test) {
		cJSON *z = cmd(tr, "depth_stencil_alpha");
		cJSON *dep = cJSON_CreateObject();
		if (!z || !dep)
			return REFUSE("out of memory");
		cJSON_AddBoolToObject(dep, "enabled", dr->depth_test);
		cJSON_AddBoolToObject(dep, "writemask", true);
		cJSON_AddStringToObject(dep, "func", "less");      /* piglit's default, GL_LESS */
		cJSON_AddItemToObject(z, "depth", dep);
		tr->depth_test = dr->depth_test;
	}
	for (unsigned u = 0; u < PG_MAX_UNITS; u++)
		if (dr->units[u] && !texture(tr, dr->units[u], u, reason, n))
			return false;
	char id[32];
	snprintf(id, sizeof id, "vb%u", tr->nbuf++);
	cJSON *b = cJSON_CreateObject();
	if (!b)
		return REFUSE("out of memory");
	cJSON_AddStringToObject(b, "type", "buffer");
	cJSON_AddItemToObject(b, "f32", floats(&dr->in[0][0], (size_t)dr->nverts * dr->nin * 4));
	cJSON_AddItemToObject(tr->res, id, b);
	cJSON *ve = cmd(tr, "vertex_elements");
	cJSON *el = cJSON_AddArrayToObject(ve, "elements");
	for (unsigned i = 0; i < dr->nin; i++) {
		cJSON *e = cJSON_CreateObject();
		cJSON_AddStringToObject(e, "buffer", id);
		cJSON_AddNumberToObject(e, "offset", i * 16);
		cJSON_AddNumberToObject(e, "stride", dr->nin * 16);
		cJSON_AddStringToObject(e, "format", "R32G32B32A32_FLOAT");
		cJSON_AddItemToArray(el, e);
	}
	cJSON *cv = cmd(tr, "constant_buffer");
	cJSON_AddStringToObject(cv, "stage", "vertex");
	cJSON_AddNumberToObject(cv, "index", 0);
	cJSON_AddItemToObject(cv, "f32", floats(&dr->vs_const[0][0], (size_t)dr->nvs_const * 4));
	cJSON *cf = cmd(tr, "constant_buffer");
	cJSON_AddStringToObject(cf, "stage", "fragment");
	cJSON_AddNumberToObject(cf, "index", 0);
	cJSON_AddItemToObject(cf, "f32", floats(&dr->fs_const[0][0], (size_t)dr->nfs_const * 4));
	/* flat shading, two-sided colour, user clip planes (the clipper takes
	 * them against CLIPVERTEX, else the position: piglit's planes are in eye
	 * space and its modelview is the identity) */
	cJSON *rs = cmd(tr, "rasterizer");
	unsigned enable = 0;
	float planes[8][4];
	unsigned nplanes = 0;
	for (unsigned k = 0; k < 8; k++) {
		memcpy(planes[k], dr->clip_plane[k], sizeof planes[k]);
		if (dr->clip_enabled[k]) {
			enable |= 1u << k;
			nplanes = k + 1;
		}
	}
	cJSON_AddStringToObject(rs, "cull", "none");
	cJSON_AddBoolToObject(rs, "flatshade", dr->flat);
	cJSON_AddBoolToObject(rs, "two_side", dr->two_side);
	cJSON_AddNumberToObject(rs, "clip_plane_enable", enable);
	if (nplanes) {
		cJSON *cp = cmd(tr, "clip");
		cJSON_AddItemToObject(cp, "planes", floats(&planes[0][0], (size_t)nplanes * 4));
	}
	cJSON *dw = cmd(tr, "draw");
	static const char *modes[] = { "triangles", "triangle_strip", "triangle_fan" };
	cJSON_AddStringToObject(dw, "mode", modes[dr->prim]);
	cJSON_AddNumberToObject(dw, "start", 0);
	cJSON_AddNumberToObject(dw, "count", dr->nverts);
	return true;
}

ulp_image *pg_trace_render(pg_trace *tr, char *reason, size_t n)
{
	char *json = cJSON_PrintUnformatted(tr->root);
	if (!json)
		return snprintf(reason, n, "out of memory"), (ulp_image *)NULL;
	trace t;
	ulp_diag d;
	ulp_diag_clear(&d);
	char path[300];
	snprintf(path, sizeof path, "%s.trace.json", tr->name);
	bool ok = trace_parse(&t, json, path, ".", &d);
	free(json);
	if (!ok) {
		trace_free(&t);
		char msg[400];
		ulp_diag_format(&d, msg, sizeof msg);
		snprintf(reason, n, "trace: %s", msg);
		return NULL;
	}
	ulp_config cfg;
	ulp_config_defaults(&cfg);
	cfg.arith = tr->exact ? ULP_ARITH_EXACT : ULP_ARITH_HW;
	replay_opts o = { .cfg = &cfg, .keep_image = true, .keep_depth = true };
	replay_result res;
	memset(&res, 0, sizeof res);
	ok = replay_run(&t, &o, &res, &d);
	trace_free(&t);
	if (!ok) {
		ulp_image_free(res.image);
		/* the message without the in-memory trace's name */
		snprintf(reason, n, "replay: %s", d.msg);
		return NULL;
	}
	free(tr->depth);
	tr->depth = res.depth;
	if (!res.image)
		return snprintf(reason, n, "replay returned no image"), (ulp_image *)NULL;
	return res.image;
}

/* GL state of a piglit [test] section: matrices, uniforms placed by
 * nir_vars, built-in state uniforms, ARB parameters, textures, and the
 * vertices of each draw. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "traces/piglit/piglit_int.h"

#define REFUSE(...) (snprintf(reason, n, __VA_ARGS__), false)

/* ---- matrices (column-major, m[col * 4 + row]) ---- */

static void identity(float m[16])
{
	memset(m, 0, 16 * sizeof *m);
	m[0] = m[5] = m[10] = m[15] = 1.0f;
}

void pg_mat_ortho(float m[16], float l, float r, float b, float t, float n, float f)
{
	identity(m);
	m[0] = 2.0f / (r - l);
	m[5] = 2.0f / (t - b);
	m[10] = -2.0f / (f - n);
	m[12] = -(r + l) / (r - l);
	m[13] = -(t + b) / (t - b);
	m[14] = -(f + n) / (f - n);
}

void pg_mat_frustum(float m[16], float l, float r, float b, float t, float n, float f)
{
	memset(m, 0, 16 * sizeof *m);
	m[0] = 2.0f * n / (r - l);
	m[5] = 2.0f * n / (t - b);
	m[8] = (r + l) / (r - l);
	m[9] = (t + b) / (t - b);
	m[10] = -(f + n) / (f - n);
	m[11] = -1.0f;
	m[14] = -2.0f * f * n / (f - n);
}

void pg_mat_mul(float out[16], const float a[16], const float b[16])
{
	float r[16];
	for (int c = 0; c < 4; c++)
		for (int i = 0; i < 4; i++) {
			float s = 0;
			for (int k = 0; k < 4; k++)
				s += a[k * 4 + i] * b[c * 4 + k];
			r[c * 4 + i] = s;
		}
	memcpy(out, r, sizeof r);
}

/* ---- types ---- */

/* cols x rows of a GLSL type name; false when not a float/int scalar,
 * vector or matrix. */
static bool type_shape(const char *t, unsigned *cols, unsigned *rows, bool *is_int)
{
	*is_int = false;
	if (!strcmp(t, "float") || !strcmp(t, "int") || !strcmp(t, "uint") || !strcmp(t, "bool")) {
		*cols = *rows = 1;
		*is_int = t[0] != 'f';
		return true;
	}
	const char *v = t;
	if (t[0] == 'i' || t[0] == 'u' || t[0] == 'b') {
		*is_int = true;
		v = t + 1;
	}
	if (!strncmp(v, "vec", 3) && v[3] >= '2' && v[3] <= '4' && !v[4]) {
		*cols = 1;
		*rows = (unsigned)(v[3] - '0');
		return true;
	}
	if (v == t && !strncmp(t, "mat", 3) && t[3] >= '2' && t[3] <= '4') {
		*cols = (unsigned)(t[3] - '0');
		*rows = *cols;
		if (!t[4])
			return true;
		if (t[4] == 'x' && t[5] >= '2' && t[5] <= '4' && !t[6]) {
			*rows = (unsigned)(t[5] - '0');
			return true;
		}
	}
	return false;
}

static unsigned var_slots(const pg_var *v)
{
	unsigned c, r;
	bool i;
	if (!type_shape(v->type, &c, &r, &i))
		return 1;
	return c;
}

/* ---- init ---- */

bool pg_state_init(pg_state *s, const pg_test *t, ulp_diag *d)
{
	(void)d;
	memset(s, 0, sizeof *s);
	identity(s->proj);
	identity(s->modelview);
	s->clear_depth = 1.0f;
	s->bound_unit = -1;
	for (int k = 0; k < 8; k++)
		s->texcoord[k][3] = 1.0f;
	for (int k = 0; k < 4; k++)
		s->color[k] = 1.0f;
	/* GL's light defaults: ambient (0, 0, 0, 1); diffuse and specular
	 * (1, 1, 1, 1) for light 0, else (0, 0, 0, 1); position (0, 0, 1, 0) */
	for (int i = 0; i < 8; i++) {
		for (int q = 0; q < 3; q++)
			for (int k = 0; k < 4; k++)
				s->light[i][q][k] = k == 3 || (i == 0 && q > 0) ? 1.0f : 0.0f;
		s->light[i][3][2] = 1.0f;
	}
	for (int k = 0; k < PG_MAX_UNITS; k++)
		s->samp_unit[k] = !strcmp(t->fs.source, "glsl") ? 0 : k;
	/* initializers of uniforms */
	for (int st = 0; st < 2; st++) {
		const pg_stage *sg = st ? &t->fs : &t->vs;
		for (size_t i = 0; i < sg->nvars; i++) {
			const pg_var *v = &sg->vars[i];
			unsigned c, r;
			bool isint;
			if (v->kind != PG_VAR_UNIFORM || !v->init || !type_shape(v->type, &c, &r, &isint))
				continue;
			unsigned k = 0, elems = v->array ? v->array : 1;
			for (unsigned e = 0; e < elems; e++)
				for (unsigned cc = 0; cc < c; cc++)
					for (unsigned rr = 0; rr < r && k < v->ninit; rr++, k++) {
						int slot = v->driver_location + (int)(e * c + cc);
						if (slot >= 0 && slot < PG_MAX_CONST)
							s->user[st][slot][rr] = v->init[k];
					}
		}
	}
	return true;
}

void pg_state_free(pg_state *s)
{
	for (int u = 0; u < PG_MAX_UNITS; u++) {
		for (unsigned l = 1; l < s->tex[u].levels && l < 16; l++)
			free(s->tex[u].level[l]);
		free(s->tex[u].texels);
	}
	for (int k = 0; k < 2; k++) {
		pg_arb_list *l = s->arb[k];
		if (l)
			free(l->v);
		free(l);
	}
	memset(s, 0, sizeof *s);
}

/* ---- textures ---- */

static float *texels(unsigned w, unsigned h, unsigned dd)
{
	return calloc((size_t)w * h * dd * 4, sizeof(float));
}

/* 1-D: four segments red, green, blue, white; 2-D: quadrants red, green
 * (right), blue (top), white; 3-D: the 2-D pattern in the lower half of
 * the slices, then yellow, magenta, cyan, black (octant order). */
static void rgbw(float *p, unsigned w, unsigned h, unsigned dd)
{
	static const float col[8][4] = { { 1, 0, 0, 1 }, { 0, 1, 0, 1 }, { 0, 0, 1, 1 },
		{ 1, 1, 1, 1 }, { 1, 1, 0, 1 }, { 1, 0, 1, 1 }, { 0, 1, 1, 1 }, { 0, 0, 0, 1 } };
	for (unsigned z = 0; z < dd; z++)
		for (unsigned y = 0; y < h; y++)
			for (unsigned x = 0; x < w; x++) {
				unsigned q = (y >= h / 2 && h > 1 ? 2u : 0u) + (x >= w / 2 && w > 1 ? 1u : 0u) +
				             (z >= dd / 2 && dd > 1 ? 4u : 0u);
				if (h == 1 && dd == 1)
					q = x * 4 / w;
				memcpy(p + (((size_t)z * h + y) * w + x) * 4, col[q], sizeof col[q]);
			}
}

/* A texture size as written in the test (a float): 1..max, checked before
 * the conversion to unsigned so that -1e30 or NaN is refused, not converted
 * out of range.  A fraction is dropped, as before. */
static bool size_arg(float v, unsigned max, unsigned *out)
{
	if (!(v >= 1.0f && v < (float)max + 1.0f))
		return false;
	*out = (unsigned)v;
	return true;
}

static bool texture_cmd(pg_state *s, const pg_cmd *c, char *reason, size_t n)
{
	pg_texture *tx = &s->tex[c->unit];
	s->bound_unit = c->unit;
	for (unsigned l = 1; l < tx->levels && l < 16; l++)
		free(tx->level[l]);
	free(tx->texels);
	memset(tx, 0, sizeof *tx);
	unsigned w = 0, h = 1, dd = 1;
	tx->dims = c->arg[0] == '1' ? 1 : c->arg[0] == '3' ? 3 : 2;
	if (!strcmp(c->name, "rgbw")) {
		if (c->nv == 0) {
			w = 8;
			h = tx->dims >= 2 ? 8 : 1;
			dd = tx->dims == 3 ? 8 : 1;
		} else if (c->nv == tx->dims) {
			if (!size_arg(c->v[0], 4096, &w) || (tx->dims >= 2 && !size_arg(c->v[1], 4096, &h)) ||
			    (tx->dims == 3 && !size_arg(c->v[2], 64, &dd)))
				return REFUSE("texture rgbw: bad size (each 1..4096, depth 1..64)");
		} else {
			return REFUSE("texture rgbw: expected %u sizes", tx->dims);
		}
		if (!w || !h || !dd || w > 4096 || h > 4096 || dd > 64)
			return REFUSE("texture rgbw: bad size");
		if (!(tx->texels = texels(w, h, dd)))
			return REFUSE("out of memory");
		rgbw(tx->texels, w, h, dd);
	} else if (!strcmp(c->name, "checkerboard")) {
		/* LEVEL (w, h) (colour0) (colour1) */
		if (c->nv != 11 || c->v[0] != 0)
			return REFUSE("texture checkerboard: expected level 0, (w, h) and two colours");
		if (!size_arg(c->v[1], 4096, &w) || !size_arg(c->v[2], 4096, &h))
			return REFUSE("texture checkerboard: bad size (each 1..4096)");
		if (!(tx->texels = texels(w, h, 1)))
			return REFUSE("out of memory");
		unsigned sw = w / 2 ? w / 2 : 1, sh = h / 2 ? h / 2 : 1;
		for (unsigned y = 0; y < h; y++)
			for (unsigned x = 0; x < w; x++) {
				unsigned which = ((x / sw) + (y / sh)) & 1u;
				memcpy(tx->texels + ((size_t)y * w + x) * 4, c->v + 3 + 4 * which,
				       4 * sizeof(float));
			}
	} else if (!strcmp(c->name, "miptree")) {
		/* 8x8, levels red, green, blue, white */
		static const float col[4][4] = { { 1, 0, 0, 1 }, { 0, 1, 0, 1 }, { 0, 0, 1, 1 }, { 1, 1, 1, 1 } };
		w = h = 8;
		tx->levels = 4;
		for (unsigned l = 0; l < 4; l++) {
			unsigned lw = 8u >> l;
			float *p = texels(lw, lw, 1);
			if (!p)
				return REFUSE("out of memory");
			for (size_t i = 0; i < (size_t)lw * lw; i++)
				memcpy(p + i * 4, col[l], sizeof col[l]);
			tx->level[l] = p;
		}
		tx->texels = tx->level[0];
	} else if (!strcmp(c->name, "shadow1D") || !strcmp(c->name, "shadow2D")) {
		tx->dims = c->name[6] == '1' ? 1 : 2;
		if (c->nv != tx->dims)
			return REFUSE("texture %s: expected %u sizes", c->name, tx->dims);
		if (!size_arg(c->v[0], 4096, &w) || (tx->dims == 2 && !size_arg(c->v[1], 4096, &h)))
			return REFUSE("texture %s: bad size (each 1..4096)", c->name);
		if (!(tx->texels = texels(w, h, 1)))
			return REFUSE("out of memory");
		/* depth = x / (w - 1) across each row: a left-to-right ramp from 0 to 1
		 * (reproduces softpipe.png of every shadow test exactly) */
		for (unsigned y = 0; y < h; y++)
			for (unsigned x = 0; x < w; x++)
				tx->texels[((size_t)y * w + x) * 4] = (float)x / (float)(w > 1 ? w - 1 : 1);
		tx->shadow = true;
		tx->compare_func = PG_CMP_GREATER;  /* what the corpus' default-compare test expects */
	} else {
		return REFUSE("texture %s: not interpreted by the harness", c->name);
	}
	tx->w = w;
	tx->h = h;
	tx->d = dd;
	/* colour textures are RGBA8: quantize the texels as the upload does
	 * (round to nearest even, as the colour buffer) */
	for (unsigned l = 0; !tx->shadow && l < (tx->levels ? tx->levels : 1); l++) {
		float *p = l ? tx->level[l] : tx->texels;
		size_t cnt = (size_t)(w >> l ? w >> l : 1) * (h >> l ? h >> l : 1) * dd * 4;
		for (size_t i = 0; i < cnt; i++)
			p[i] = rintf(fminf(fmaxf(p[i], 0.0f), 1.0f) * 255.0f) / 255.0f;
	}
	if (!tx->levels) {
		tx->levels = 1;
		tx->level[0] = tx->texels;
	}
	tx->present = true;
	return true;
}

static bool texparam(pg_state *s, const pg_cmd *c, char *reason, size_t n)
{
	/* texparameter applies to the texture bound last: the last `texture` command's */
	pg_texture *tx = s->bound_unit >= 0 ? &s->tex[s->bound_unit] : NULL;
	if (!tx || !tx->present)
		return REFUSE("texparameter without a texture");
	static const char *funcs[] = { "", "never", "less", "equal", "lequal", "greater",
		"notequal", "gequal", "always" };
	static const char *modes[] = { "luminance", "intensity", "alpha", "red" };
	if (!strcmp(c->name, "compare_func")) {
		for (int k = 1; k < 9; k++)
			if (!strcmp(c->value, funcs[k])) {
				tx->compare_func = k;
				return true;
			}
	} else if (!strcmp(c->name, "depth_mode")) {
		for (int k = 0; k < 4; k++)
			if (!strcmp(c->value, modes[k])) {
				tx->depth_mode = k;
				return true;
			}
	}
	return REFUSE("texparameter %s %s: not interpreted by the harness", c->name, c->value);
}

/* ---- uniforms ---- */

/* The declaration body of GLSL struct `type` in src ("struct T {" .. "}"),
 * or NULL. */
static const char *struct_body(const char *src, const char *type, const char **end)
{
	char key[PG_NAME_MAX + 8];
	int kl = snprintf(key, sizeof key, "struct %s", type);
	for (const char *p = src ? strstr(src, key) : NULL; p; p = strstr(p + 1, key)) {
		const char c = p[kl];
		if (c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
			continue;   /* struct Sx when looking for S */
		const char *b = strchr(p, '{');
		*end = b ? strchr(b, '}') : NULL;
		return *end ? b + 1 : NULL;
	}
	return NULL;
}

/* The slot offset of member path `path` ("f", "tex[1]", "s.f": nested
 * members and member arrays) in GLSL struct `type` as declared in the
 * test's shaders (each member one vec4 per element or matrix column, in
 * declaration order; a sampler member takes none: Mesa splits samplers out
 * of structs), and the struct's size in slots.  An empty path gives only
 * the size.  False when the struct or the member is not found or a member's
 * type is neither basic, a sampler nor a struct declared there. */
static bool struct_member(const char *src, const char *type, const char *path, unsigned *off,
                          unsigned *size, unsigned depth)
{
	*size = 0;
	const char *end = NULL, *p = depth < 8 ? struct_body(src, type, &end) : NULL;
	if (!p)
		return false;
	/* the path's first segment: name and index */
	char seg[PG_NAME_MAX];
	size_t sl = strcspn(path, ".");
	snprintf(seg, sizeof seg, "%.*s", (int)sl, path);
	const char *rest = path[sl] == '.' ? path + sl + 1 : NULL;
	unsigned sidx = 0;
	char *sb = strchr(seg, '[');
	if (sb) {
		sidx = (unsigned)strtoul(sb + 1, NULL, 10);
		*sb = '\0';
	}
	unsigned slot = 0;
	bool found = !seg[0];
	while (p < end) {
		char decl[256];
		const char *semi = memchr(p, ';', (size_t)(end - p));
		if (!semi)
			break;
		size_t l = (size_t)(semi - p) < sizeof decl - 1 ? (size_t)(semi - p) : sizeof decl - 1;
		memcpy(decl, p, l);
		decl[l] = '\0';
		p = semi + 1;
		char ty[64];
		int used = 0;
		if (sscanf(decl, " %63s %n", ty, &used) != 1)
			continue;
		unsigned cols, rows, inner = 0, ioff = 0;
		bool isint, nested = false;
		if (!strncmp(ty, "sampler", 7)) {
			cols = 0;
		} else if (!type_shape(ty, &cols, &rows, &isint)) {
			if (!struct_member(src, ty, "", &ioff, &inner, depth + 1))
				return false;
			cols = inner;
			nested = true;
		}
		/* names: "a", "a, b", "a[2]" */
		char *save = NULL;
		for (char *nm = strtok_r(decl + used, ", \t\n", &save); nm;
		     nm = strtok_r(NULL, ", \t\n", &save)) {
			unsigned count = 1;
			char *br = strchr(nm, '[');
			if (br) {
				count = (unsigned)strtoul(br + 1, NULL, 10);
				*br = '\0';
			}
			if (seg[0] && !found && !strcmp(nm, seg) && sidx < (count ? count : 1)) {
				*off = slot + sidx * cols;
				if (rest && !nested)
					return false;   /* a.b on a basic member */
				if (rest) {
					if (!struct_member(src, ty, rest, &ioff, &inner, depth + 1))
						return false;
					*off += ioff;
				} else if (nested) {
					return false;   /* a whole struct member: set its members */
				}
				found = true;
			}
			slot += cols * (count ? count : 1);
		}
	}
	*size = slot;
	return found;
}

bool pg_struct_slots(const pg_test *t, const char *type, unsigned *slots)
{
	unsigned off, size;
	struct_member(t->orig, type, "", &off, &size, 0);
	if (!size)
		return false;
	*slots = size;
	return true;
}

static bool set_uniform(pg_state *s, const pg_test *t, const pg_cmd *c, char *reason, size_t n)
{
	unsigned cols, rows;
	bool isint;
	if (!type_shape(c->arg, &cols, &rows, &isint))
		return REFUSE("uniform type '%s' is not float-only (the hardware has no such type)", c->arg);
	/* fewer values than the type has: shader_runner leaves the rest 0 */
	if (c->nv > cols * rows || c->nv == 0)
		return REFUSE("uniform %s %s: %u values, expected %u", c->arg, c->name, c->nv, cols * rows);
	float vals[16] = { 0 };
	memcpy(vals, c->v, c->nv * sizeof *vals);
	char base[PG_NAME_MAX];
	snprintf(base, sizeof base, "%s", c->name);
	unsigned elem = 0;
	char *member = strchr(base, '.');
	if (member)
		*member++ = '\0';
	char *br = strchr(base, '[');
	if (br) {
		elem = (unsigned)strtoul(br + 1, NULL, 10);
		*br = '\0';
	}
	/* a sampler inside a struct: Mesa splits it out into a uniform of its
	 * own, named by its path (s.tex, s.s.tex, s[0].tex; a trailing index
	 * of a sampler array member is the element) */
	char path[PG_NAME_MAX];
	snprintf(path, sizeof path, "%s", c->name);
	unsigned pidx = 0;
	char *pb = strrchr(path, '[');
	if (member && pb && !strchr(pb, '.')) {
		pidx = (unsigned)strtoul(pb + 1, NULL, 10);
		*pb = '\0';
	}
	bool found = false;
	for (int st = 0; st < 2; st++) {
		const pg_stage *sg = st ? &t->fs : &t->vs;
		const pg_var *sv = member ? pg_find_var(sg, PG_VAR_UNIFORM, path) : NULL;
		if (sv && !strncmp(sv->type, "sampler", 7)) {
			if (!(c->v[0] >= 0 && c->v[0] < PG_MAX_UNITS))
				return REFUSE("uniform %s: texture unit out of range", c->name);
			int sl = sv->driver_location + (int)pidx;
			if (sl >= 0 && sl < PG_MAX_UNITS && st == 1)
				s->samp_unit[sl] = (int)c->v[0];
			continue;
		}
		const pg_var *v = pg_find_var(sg, PG_VAR_UNIFORM, base);
		if (!v)
			continue;
		found = true;
		if (!strncmp(v->type, "sampler", 7)) {
			/* checked before the conversion: 1e30 or NaN is no unit */
			if (!(c->v[0] >= 0 && c->v[0] < PG_MAX_UNITS))
				return REFUSE("uniform %s: texture unit out of range", c->name);
			int sl = v->driver_location + (int)elem;
			if (sl >= 0 && sl < PG_MAX_UNITS && st == 1)
				s->samp_unit[sl] = (int)c->v[0];
			continue;
		}
		unsigned vc, vr, moff = 0, per = var_slots(v);
		bool vi;
		if (member) {
			if (!struct_member(t->orig, v->type, member, &moff, &per, 0))
				return REFUSE("uniform %s: struct %s: layout not known to the harness",
				              c->name, v->type);
		} else if (!type_shape(v->type, &vc, &vr, &vi)) {
			return REFUSE("uniform %s: type %s: layout not known to the harness", c->name, v->type);
		}
		if (br && elem >= (v->array ? v->array : 1))
			return REFUSE("uniform %s: index out of range", c->name);
		int slot = v->driver_location + (int)(elem * per + moff);
		for (unsigned cc = 0; cc < cols; cc++)
			for (unsigned rr = 0; rr < rows; rr++) {
				int sl = slot + (int)cc;
				if (sl < 0 || sl >= PG_MAX_CONST)
					return REFUSE("uniform %s: slot out of range", c->name);
				if (isint && !t->int_uniform_as_float) {
					/* native-integer dialect: the bits of the integer */
					int32_t iv = (int32_t)vals[cc * rows + rr];
					memcpy(&s->user[st][sl][rr], &iv, sizeof iv);
				} else {
					s->user[st][sl][rr] = vals[cc * rows + rr];
				}
			}
	}
	(void)found;    /* inactive uniforms (eliminated by the compiler) are ignored */
	return true;
}

bool pg_state_apply(pg_state *s, const pg_test *t, const pg_cmd *c, char *reason, size_t n)
{
	switch (c->kind) {
	case PG_CLEAR_COLOR:
		memcpy(s->clear_color, c->v, sizeof s->clear_color);
		return true;
	case PG_CLEAR_DEPTH:
		s->clear_depth = c->v[0];
		return true;
	case PG_ORTHO:
		if (c->nv == 0)
			pg_mat_ortho(s->proj, 0, PG_FB_W, 0, PG_FB_H, -1, 1);
		else if (c->nv == 4)
			pg_mat_ortho(s->proj, c->v[0], c->v[1], c->v[2], c->v[3], -1, 1);
		else
			pg_mat_ortho(s->proj, c->v[0], c->v[1], c->v[2], c->v[3], c->v[4], c->v[5]);
		identity(s->modelview);
		return true;
	case PG_FRUSTUM:
		pg_mat_frustum(s->proj, c->v[0], c->v[1], c->v[2], c->v[3], c->v[4], c->v[5]);
		identity(s->modelview);
		return true;
	case PG_UNIFORM:
		return set_uniform(s, t, c, reason, n);
	case PG_PARAMETER: {
		float (*p)[4] = !strcmp(c->name, "env_vp") ? s->env_vp : !strcmp(c->name, "local_vp")
		                ? s->local_vp : !strcmp(c->name, "env_fp") ? s->env_fp : s->local_fp;
		if (c->name[strlen(c->name) - 2] == 'f' && c->unit >= 32)
			return REFUSE("parameter index out of range");
		memcpy(p[c->unit], c->v, 4 * sizeof(float));
		return true;
	}
	case PG_TEXTURE:
		return texture_cmd(s, c, reason, n);
	case PG_TEXPARAM:
		return texparam(s, c, reason, n);
	case PG_ENABLE:
	case PG_DISABLE: {
		bool on = c->kind == PG_ENABLE;
		if (!strncmp(c->name, "GL_CLIP_PLANE", 13) && c->name[13] >= '0' && c->name[13] <= '7' &&
		    !c->name[14])
			s->clip_enabled[c->name[13] - '0'] = on;
		else if (!strcmp(c->name, "GL_DEPTH_TEST"))
			s->depth_test = on;
		else if (!strcmp(c->name, "GL_VERTEX_PROGRAM_TWO_SIDE"))
			s->two_side = on;
		else
			return REFUSE("%s %s: not interpreted by the harness", on ? "enable" : "disable",
			              c->name);
		return true;
	}
	case PG_SHADE_MODEL:
		s->flat = !strcmp(c->name, "flat");
		return true;
	case PG_CLIP_PLANE: {
		/* glClipPlane transforms by the inverse modelview: identity here */
		memcpy(s->clip_plane[c->unit], c->v, 4 * sizeof(float));
		return true;
	}
	case PG_TEXCOORD:
		memcpy(s->texcoord[c->unit], c->v, 4 * sizeof(float));
		return true;
	case PG_COLOR:
		memcpy(s->color, c->v, 4 * sizeof(float));
		return true;
	case PG_LIGHT: {
		/* glLightfv; GL_POSITION goes through the modelview, the identity here */
		int q = !strcmp(c->name, "GL_AMBIENT") ? 0 : !strcmp(c->name, "GL_DIFFUSE") ? 1
		        : !strcmp(c->name, "GL_SPECULAR") ? 2 : 3;
		memcpy(s->light[c->unit][q], c->v, 4 * sizeof(float));
		return true;
	}
	case PG_NOP:
		return true;
	case PG_LINK_ERROR:
		return REFUSE("link error: the test expects the GLSL linker to reject the program, which is "
		              "Mesa's compiler's business, not the GPU's; a corpus folder holds a program Mesa "
		              "linked");
	default:
		return REFUSE("command not interpreted by the harness");
	}
}

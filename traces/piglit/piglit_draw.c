/* The draw of a piglit draw command: per-stage constant buffers (user
 * uniforms, built-in state, ARB parameters) and the VS input vertices. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "traces/piglit/piglit_int.h"

#define REFUSE(...) (snprintf(reason, n, __VA_ARGS__), false)

/* matrix by name (piglit_state.c's logic, repeated small) */
static bool matrix(const pg_state *s, const char *what, float m[16]);

static void identity(float m[16])
{
	memset(m, 0, 16 * sizeof *m);
	m[0] = m[5] = m[10] = m[15] = 1.0f;
}

static void transpose(float m[16])
{
	for (int i = 0; i < 4; i++)
		for (int j = i + 1; j < 4; j++) {
			float x = m[i * 4 + j];
			m[i * 4 + j] = m[j * 4 + i];
			m[j * 4 + i] = x;
		}
}

static void inverse(float m[16])
{
	double a[4][8];
	for (int i = 0; i < 4; i++)
		for (int j = 0; j < 4; j++) {
			a[i][j] = m[j * 4 + i];
			a[i][j + 4] = i == j;
		}
	for (int c = 0; c < 4; c++) {
		int p = c;
		for (int r = c + 1; r < 4; r++)
			if (fabs(a[r][c]) > fabs(a[p][c]))
				p = r;
		if (fabs(a[p][c]) < 1e-30) {
			identity(m);
			return;
		}
		for (int j = 0; j < 8; j++) {
			double x = a[c][j];
			a[c][j] = a[p][j];
			a[p][j] = x;
		}
		double dv = a[c][c];
		for (int j = 0; j < 8; j++)
			a[c][j] /= dv;
		for (int r = 0; r < 4; r++)
			if (r != c) {
				double f = a[r][c];
				for (int j = 0; j < 8; j++)
					a[r][j] -= f * a[c][j];
			}
	}
	for (int i = 0; i < 4; i++)
		for (int j = 0; j < 4; j++)
			m[j * 4 + i] = (float)a[i][j + 4];
}

static bool matrix(const pg_state *s, const char *what, float m[16])
{
	const char *rest;
	if (!strncmp(what, "mvp", 3) || !strncmp(what, "ModelViewProjection", 19)) {
		pg_mat_mul(m, s->proj, s->modelview);
		rest = what + (what[0] == 'm' ? 3 : 19);
	} else if (!strncmp(what, "modelview", 9) || !strncmp(what, "ModelView", 9)) {
		memcpy(m, s->modelview, 16 * sizeof *m);
		rest = what + 9;
		if (!strncmp(rest, "[0]", 3))
			rest += 3;
	} else if (!strncmp(what, "projection", 10) || !strncmp(what, "Projection", 10)) {
		memcpy(m, s->proj, 16 * sizeof *m);
		rest = what + 10;
	} else {
		return false;
	}
	if (!strncmp(rest, "Matrix", 6))
		rest += 6;
	if (!*rest)
		return true;
	if (!strcmp(rest, ".inverse") || !strcmp(rest, "Inverse")) {
		inverse(m);
	} else if (!strcmp(rest, ".transpose") || !strcmp(rest, "Transpose")) {
		transpose(m);
	} else if (!strcmp(rest, ".invtrans") || !strcmp(rest, "InverseTranspose")) {
		inverse(m);
		transpose(m);
	} else {
		return false;
	}
	return true;
}

/* ---- constants ---- */

static bool is_arb_array(const pg_stage *st, const pg_var *v)
{
	return !strcmp(st->source, "arb") && v->kind == PG_VAR_UNIFORM && v->array &&
	       !strcmp(v->type, "vec4") && (!v->name[0] || !strncmp(v->name, "state.", 6));
}

/* Slots of a uniform; structs: counted from the shader text when found. */
static unsigned var_size(const pg_test *t, const pg_var *v)
{
	unsigned per = 1;
	if (!strncmp(v->type, "mat", 3) && v->type[3] >= '2' && v->type[3] <= '4')
		per = (unsigned)(v->type[3] - '0');
	else if (!pg_struct_slots(t, v->type, &per))
		per = 1;
	return per * (v->array ? v->array : 1);
}

/* The index of the entry the array is named after ("state.local[1]"), or 0. */
static size_t named_first(const pg_arb_list *l, const char *name)
{
	int idx;
	bool local = !strncmp(name, "state.local[", 12), env = !strncmp(name, "state.env[", 10);
	if ((!local && !env) || !l->n || l->v[0].kind == PG_ARB_CONST)
		return 0;
	idx = atoi(name + (local ? 12 : 10));
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].kind == (local ? PG_ARB_LOCAL : PG_ARB_ENV) && l->v[i].index == idx)
			return i;
	return 0;
}

static bool arb_fill(const pg_state *s, const pg_arb_list *l, bool fragment, float (*c)[4],
                     int base, unsigned count, const char *name, char *reason, size_t n)
{
	if (l->n != count)
		return REFUSE("ARB parameter layout: the harness found %zu parameters, meta.json "
		              "declares %u", l->n, count);
	/* The array is named after its first parameter: when that is not the
	 * first referenced one, it moves to the front (Mesa's order). */
	size_t first = named_first(l, name);
	for (size_t i = 0; i < l->n; i++) {
		size_t j = i == 0 ? first : i <= first ? i - 1 : i;
		const pg_arb_param *p = &l->v[j];
		float *dst = c[base + (int)i];
		float m[16];
		switch (p->kind) {
		case PG_ARB_CONST:
			memcpy(dst, p->v, 4 * sizeof *dst);
			break;
		case PG_ARB_LOCAL:
		case PG_ARB_ENV: {
			int lim = fragment ? 32 : 96;
			if (p->index < 0 || p->index >= lim)
				return REFUSE("ARB program parameter index %d out of range", p->index);
			const float (*src)[4] = p->kind == PG_ARB_LOCAL
			        ? (fragment ? s->local_fp : s->local_vp) : (fragment ? s->env_fp : s->env_vp);
			memcpy(dst, src[p->index], 4 * sizeof *dst);
			break;
		}
		case PG_ARB_MATRIX:
			if (!matrix(s, p->what, m) || p->row < 0 || p->row > 3)
				return REFUSE("ARB state.matrix.%s: not computed by the harness", p->what);
			for (int k = 0; k < 4; k++)
				dst[k] = m[k * 4 + p->row];     /* row p->row of m */
			break;
		}
	}
	return true;
}

/* Built-in uniform by name into c[slot..]; false (reason) when unknown. */
static bool builtin(const pg_state *s, const pg_var *v, float (*c)[4], char *reason, size_t n)
{
	int base = v->driver_location;
	float m[16];
	if (!strcmp(v->name, "gl_FbWposYTransform")) {
		/* user FBO: no y flip (Mesa: 1, 0, -1, height) */
		c[base][0] = 1.0f;
		c[base][1] = 0.0f;
		c[base][2] = -1.0f;
		c[base][3] = (float)PG_FB_H;
		return true;
	}
	if (!strncmp(v->name, "gl_", 3) && strstr(v->name, "Matrix")) {
		const char *w = v->name + 3;
		if (!strcmp(w, "NormalMatrix")) {
			if (!matrix(s, "modelview.invtrans", m))
				return false;
			for (int col = 0; col < 3; col++)
				for (int r = 0; r < 3; r++)
					c[base + col][r] = m[col * 4 + r];
			return true;
		}
		if (!matrix(s, w, m))
			return REFUSE("built-in uniform %s is not computed by the harness", v->name);
		for (int col = 0; col < 4; col++)
			memcpy(c[base + col], m + col * 4, 4 * sizeof(float));
		return true;
	}
	if (!strncmp(v->name, "state.matrix.", 13)) {
		/* state.matrix.X[.mod].row[0] with vec4[4]: rows of X */
		char what[64];
		snprintf(what, sizeof what, "%s", v->name + 13);
		char *row = strstr(what, ".row[");
		if (!row)
			return REFUSE("built-in uniform %s is not computed by the harness", v->name);
		int r0 = atoi(row + 5);
		*row = '\0';
		if (!matrix(s, what, m))
			return REFUSE("built-in uniform %s is not computed by the harness", v->name);
		unsigned rows = v->array ? v->array : 1;
		for (unsigned k = 0; k < rows && r0 + (int)k < 4; k++)
			for (int j = 0; j < 4; j++)
				c[base + (int)k][j] = m[j * 4 + r0 + (int)k];
		return true;
	}
	if (!strncmp(v->name, "state.light[", 12)) {
		const char *f = strchr(v->name, ']');
		const int li = atoi(v->name + 12);
		static const char *const q[4] = { "].ambient", "].diffuse", "].specular", "].position" };
		for (int k = 0; f && li >= 0 && li < 8 && k < 4; k++)
			if (!strcmp(f, q[k])) {   /* GL defaults or the test's `light` commands */
				memcpy(c[base], s->light[li][k], 4 * sizeof(float));
				return true;
			}
		if (f && !strcmp(f, "].attenuation")) {
			c[base][0] = 1.0f;           /* constant, linear, quadratic, spot exponent */
			c[base][1] = c[base][2] = c[base][3] = 0.0f;
			return true;
		}
	}
	return REFUSE("built-in uniform %s is not computed by the harness", v->name);
}

static bool stage_consts(const pg_state *s, const pg_test *t, int st, float (**out)[4],
                         unsigned *count, char *reason, size_t n)
{
	const pg_stage *sg = st ? &t->fs : &t->vs;
	unsigned size = 1;
	for (size_t i = 0; i < sg->nvars; i++) {
		const pg_var *v = &sg->vars[i];
		if (v->kind == PG_VAR_UNIFORM && strncmp(v->type, "sampler", 7)) {
			unsigned end = (unsigned)v->driver_location + var_size(t, v);
			if (v->driver_location < 0 || end > PG_MAX_CONST)
				return REFUSE("uniform %s: slot out of range", v->name);
			if (end > size)
				size = end;
		}
	}
	float (*c)[4] = calloc(size, sizeof *c);
	if (!c)
		return REFUSE("out of memory");
	memcpy(c, s->user[st], size * sizeof *c);
	for (size_t i = 0; i < sg->nvars; i++) {
		const pg_var *v = &sg->vars[i];
		if (v->kind != PG_VAR_UNIFORM || !strncmp(v->type, "sampler", 7))
			continue;
		bool ok = true;
		if (is_arb_array(sg, v)) {
			const pg_arb_list *l = s->arb[st];
			if (!l)
				ok = REFUSE("ARB program text not found in the test file");
			else
				ok = arb_fill(s, l, st == 1, c, v->driver_location, v->array, v->name, reason, n);
		} else if (!strncmp(v->name, "gl_", 3) || !strncmp(v->name, "state.", 6)) {
			ok = builtin(s, v, c, reason, n);
		} else if (!v->name[0]) {
			ok = REFUSE("unnamed uniform array in a %s stage", sg->source);
		}
		if (!ok) {
			free(c);
			return false;
		}
	}
	*out = c;
	*count = size;
	return true;
}

bool pg_state_prepare(pg_state *s, const pg_test *t, char *reason, size_t n)
{
	for (int st = 0; st < 2; st++) {
		const pg_stage *sg = st ? &t->fs : &t->vs;
		if (strcmp(sg->source, "arb") || s->arb[st])
			continue;
		if (!sg->arb)
			continue;
		pg_arb_list *l = calloc(1, sizeof *l);
		if (!l)
			return REFUSE("out of memory");
		if (!pg_arb_params(sg->arb, l, reason, n)) {
			free(l);
			return false;
		}
		s->arb[st] = l;
	}
	return true;
}

/* ---- vertices ---- */

static int vdata_col(const pg_vdata *vd, const char *name)
{
	for (unsigned k = 0; k < vd->ncols; k++)
		if (!strcmp(vd->names[k], name))
			return (int)k;
	return -1;
}

bool pg_state_draw(const pg_state *s, const pg_test *t, const pg_cmd *c, pg_draw *dr,
                   char *reason, size_t n)
{
	memset(dr, 0, sizeof *dr);
	dr->line = c->line;
	float pos[4][4], tc[4][4];
	unsigned nv;
	if (c->kind == PG_DRAW_RECT) {
		float x = c->v[0], y = c->v[1], w = c->v[2], h = c->v[3];
		if (c->ortho) {
			x = -1.0f + 2.0f * x / PG_FB_W;
			y = -1.0f + 2.0f * y / PG_FB_H;
			w = 2.0f * w / PG_FB_W;
			h = 2.0f * h / PG_FB_H;
		}
		nv = 4;
		dr->prim = 1;
		for (unsigned k = 0; k < 4; k++) {
			pos[k][0] = x + (k & 1 ? w : 0);
			pos[k][1] = y + (k & 2 ? h : 0);
			pos[k][2] = 0;
			pos[k][3] = 1;
			if (c->tex) {
				tc[k][0] = c->v[4] + (k & 1 ? c->v[6] : 0);
				tc[k][1] = c->v[5] + (k & 2 ? c->v[7] : 0);
				tc[k][2] = 0;
				tc[k][3] = 1;
			}
		}
	} else {
		if (c->prim >= 3)   /* the replay refuses them too (replay_state.c) */
			return REFUSE("draw arrays %s: points and lines are not in this build (the replay and the "
			              "reference rasterise triangles only)", c->prim == 3 ? "GL_POINTS" : "GL_LINES*");
		dr->prim = c->prim;
		/* first and count, clamped before the conversion (a fuzzed
		 * "draw arrays GL_TRIANGLES inf 3" reached it out of range) */
		unsigned first = (unsigned)pg_trunc(c->v[0], 0, PG_MAX_DRAW_ROWS + 1);
		nv = (unsigned)pg_trunc(c->v[1], 0, PG_MAX_DRAW_ROWS + 1);
		if (first + nv > t->vdata.nrows || nv > PG_MAX_DRAW_ROWS)
			return REFUSE("draw arrays: rows %u..%u past the [vertex data] (%u rows)",
			              first, first + nv, t->vdata.nrows);
	}
	unsigned nin = 0;
	for (size_t i = 0; i < t->vs.nvars; i++)
		if (t->vs.vars[i].kind == PG_VAR_IN && t->vs.vars[i].driver_location >= 0 &&
		    (unsigned)t->vs.vars[i].driver_location + 1 > nin)
			nin = (unsigned)t->vs.vars[i].driver_location + 1;
	if (nin > 32)
		return REFUSE("too many vertex inputs");
	dr->nverts = nv;
	dr->nin = nin ? nin : 1;
	dr->in = calloc((size_t)nv * dr->nin, sizeof *dr->in);
	if (!dr->in)
		return REFUSE("out of memory");
	for (size_t i = 0; i < t->vs.nvars; i++) {
		const pg_var *v = &t->vs.vars[i];
		if (v->kind != PG_VAR_IN || v->driver_location < 0)
			continue;
		int col = c->kind == PG_DRAW_ARRAYS ? vdata_col(&t->vdata, v->name) : -1;
		bool is_pos = !strcmp(v->location, "VERT_ATTRIB_POS") || !strcmp(v->name, "piglit_vertex");
		bool is_tc = !strncmp(v->location, "VERT_ATTRIB_TEX", 15) ||
		             !strcmp(v->name, "piglit_texcoord");
		for (unsigned k = 0; k < nv; k++) {
			float *dst = dr->in[(size_t)k * dr->nin + (unsigned)v->driver_location];
			dst[0] = dst[1] = dst[2] = 0.0f;
			dst[3] = 1.0f;
			if (col >= 0) {
				const float *row = t->vdata.rows + ((size_t)c->v[0] + k) * t->vdata.stride;
				for (unsigned j = 0; j < t->vdata.comps[col]; j++)
					dst[j] = row[t->vdata.first[col] + j];
			} else if (c->kind == PG_DRAW_ARRAYS) {
				pg_draw_free(dr);
				return REFUSE("draw arrays: attribute %s has no [vertex data] column", v->name);
			} else if (is_pos) {
				memcpy(dst, pos[k], sizeof pos[k]);
			} else if (is_tc) {
				int unit = !strncmp(v->location, "VERT_ATTRIB_TEX", 15) ? atoi(v->location + 15) : 0;
				if (c->tex && unit == 0)
					memcpy(dst, tc[k], sizeof tc[k]);
				else if (unit >= 0 && unit < 8)
					memcpy(dst, s->texcoord[unit], 4 * sizeof(float));
			} else if (!strcmp(v->location, "VERT_ATTRIB_COLOR0")) {
				memcpy(dst, s->color, 4 * sizeof(float));
			} else if (!strcmp(v->location, "VERT_ATTRIB_NORMAL")) {
				dst[2] = 1.0f;
				dst[3] = 1.0f;
			}
		}
	}
	if (!stage_consts(s, t, 0, &dr->vs_const, &dr->nvs_const, reason, n) ||
	    !stage_consts(s, t, 1, &dr->fs_const, &dr->nfs_const, reason, n)) {
		pg_draw_free(dr);
		return false;
	}
	for (int k = 0; k < PG_MAX_UNITS; k++) {
		int u = s->samp_unit[k];
		if (u >= 0 && u < PG_MAX_UNITS && s->tex[u].present)
			dr->units[k] = &s->tex[u];
	}
	memcpy(dr->clip_enabled, s->clip_enabled, sizeof dr->clip_enabled);
	memcpy(dr->clip_plane, s->clip_plane, sizeof dr->clip_plane);
	dr->depth_test = s->depth_test;
	dr->two_side = s->two_side;
	dr->flat = s->flat;
	return true;
}

void pg_draw_free(pg_draw *dr)
{
	free(dr->in);
	free(dr->vs_const);
	free(dr->fs_const);
	memset(dr, 0, sizeof *dr);
}

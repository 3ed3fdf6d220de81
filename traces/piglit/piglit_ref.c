/* The float reference renderer: the test's TGSI run by the reference
 * interpreter (vertex shader: tgsi_exec_run; fragment shader: 2x2 quads of
 * interpreter machines, piglit_exec.c) on a simple rasterizer:
 * clip-space polygon clipping (near/far and user planes), viewport
 * (0, 0, 250, 250), depth range 0..1, pixel-centre coverage with a
 * tie rule matching softpipe's, perspective-correct varyings linked by semantic, flat
 * shading from the last vertex, two-sided colour, KILL, GL_LESS depth. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "traces/piglit/piglit_exec.h"
#include "frontends/tgsi/tgsi_exec_ops.h"

enum { MAXREG = 32, MAXPOLY = 24 };

typedef struct io {
	int sem, idx, interp;           /* semantic name and index; FS: interpolation */
	bool used;
} io;

struct pg_ref {
	tgsi_shader *vs, *fs;
	ulp_image *img;
	float *depth;                   /* bottom row first */
	io vout[MAXREG], fin[MAXREG];
	int pos_out, clipvert_out, clipdist_out[2];
	int color_out, depth_out;
	int face_sv;                    /* SV index of FACE, -1 none */
	bool lower_left, integer_center;
	char name[300];
};

typedef struct vtx {
	float clip[4];
	float a[MAXREG][4];             /* VS outputs by register */
	float dist[8];
	float win[3], iw;
} vtx;

static void decls(const tgsi_shader *sh, unsigned file, io *out)
{
	for (size_t i = 0; i < sh->num_decls; i++) {
		const tgsi_declaration *dc = &sh->decls[i];
		if (dc->file != file)
			continue;
		for (uint32_t r = dc->first; r <= dc->last && r < MAXREG; r++) {
			out[r].used = true;
			out[r].sem = dc->semantic ? dc->semantic_name : -1;
			out[r].idx = (int)dc->semantic_index + (int)(r - dc->first);
			out[r].interp = dc->interpolate ? dc->interp : TGSI_INTERPOLATE_PERSPECTIVE;
		}
	}
}

pg_ref *pg_ref_new(const pg_test *t, ulp_diag *d)
{
	pg_ref *r = calloc(1, sizeof *r);
	if (!r) {
		ulp_diag_at(d, t->name, 0, 0, "out of memory");
		return NULL;
	}
	snprintf(r->name, sizeof r->name, "%s", t->name);
	char f[320];
	snprintf(f, sizeof f, "%s/vs.tgsi", t->name);
	r->vs = t->vs.tgsi ? tgsi_parse(t->vs.tgsi, strlen(t->vs.tgsi), f, NULL, d) : NULL;
	snprintf(f, sizeof f, "%s/fs.tgsi", t->name);
	r->fs = r->vs && t->fs.tgsi ? tgsi_parse(t->fs.tgsi, strlen(t->fs.tgsi), f, NULL, d) : NULL;
	r->img = r->fs ? ulp_image_create(PG_FB_W, PG_FB_H, d) : NULL;
	r->depth = r->img ? malloc(sizeof(float) * PG_FB_W * PG_FB_H) : NULL;
	if (!r->depth) {
		if (r->img)
			ulp_diag_at(d, t->name, 0, 0, "out of memory");
		else if (!d->set)
			ulp_diag_at(d, t->name, 0, 0, "no vs.tgsi or fs.tgsi");
		pg_ref_free(r);
		return NULL;
	}
	for (size_t i = 0; i < (size_t)PG_FB_W * PG_FB_H; i++)
		r->depth[i] = 1.0f;
	decls(r->vs, TGSI_FILE_OUTPUT, r->vout);
	decls(r->fs, TGSI_FILE_INPUT, r->fin);
	io fout[MAXREG], sv[MAXREG];
	memset(fout, 0, sizeof fout);
	memset(sv, 0, sizeof sv);
	decls(r->fs, TGSI_FILE_OUTPUT, fout);
	decls(r->fs, TGSI_FILE_SYSTEM_VALUE, sv);
	r->pos_out = r->clipvert_out = r->color_out = r->depth_out = r->face_sv = -1;
	r->clipdist_out[0] = r->clipdist_out[1] = -1;
	for (int i = 0; i < MAXREG; i++) {
		if (r->vout[i].used && r->vout[i].sem == TGSI_SEMANTIC_POSITION)
			r->pos_out = i;
		if (r->vout[i].used && r->vout[i].sem == TGSI_SEMANTIC_CLIPVERTEX)
			r->clipvert_out = i;
		if (r->vout[i].used && r->vout[i].sem == TGSI_SEMANTIC_CLIPDIST && r->vout[i].idx < 2)
			r->clipdist_out[r->vout[i].idx] = i;
		if (fout[i].used && fout[i].sem == TGSI_SEMANTIC_COLOR && fout[i].idx == 0)
			r->color_out = i;
		if (fout[i].used && fout[i].sem == TGSI_SEMANTIC_POSITION)
			r->depth_out = i;
		if (sv[i].used && sv[i].sem == TGSI_SEMANTIC_FACE)
			r->face_sv = i;
	}
	for (size_t i = 0; i < r->fs->num_props; i++) {
		if (r->fs->props[i].name == TGSI_PROPERTY_FS_COORD_ORIGIN)
			r->lower_left = r->fs->props[i].value == 1;
		if (r->fs->props[i].name == TGSI_PROPERTY_FS_COORD_PIXEL_CENTER)
			r->integer_center = r->fs->props[i].value == 1;
	}
	return r;
}

void pg_ref_free(pg_ref *r)
{
	if (!r)
		return;
	tgsi_shader_free(r->vs);
	tgsi_shader_free(r->fs);
	ulp_image_free(r->img);
	free(r->depth);
	free(r);
}

const ulp_image *pg_ref_image(const pg_ref *r)
{
	return r->img;
}

const float *pg_ref_depth(const pg_ref *r)
{
	return r->depth;
}

static uint8_t unorm8(float x)
{
	if (!(x > 0.0f))
		return 0;
	if (x >= 1.0f)
		return 255;
	return (uint8_t)rintf(x * 255.0f);
}

void pg_ref_clear(pg_ref *r, const float color[4], bool colour, float depth, bool do_depth)
{
	if (colour)
		ulp_image_fill(r->img, unorm8(color[0]), unorm8(color[1]), unorm8(color[2]),
		               unorm8(color[3]));
	if (do_depth)
		for (size_t i = 0; i < (size_t)PG_FB_W * PG_FB_H; i++)
			r->depth[i] = fminf(fmaxf(depth, 0.0f), 1.0f);
}

/* ---- vertex shading ---- */

static bool load_consts(tgsi_exec_machine *m, float (*c)[4], unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		uint32_t *p = tgsi_exec_reg(m, TGSI_FILE_CONSTANT, 0, i);
		if (!p)
			return false;
		for (int k = 0; k < 4; k++)
			p[k] = tx_f2u(c[i][k]);
	}
	return true;
}

static bool shade_vertices(pg_ref *r, const pg_draw *dr, vtx *v, char *reason, size_t n)
{
	for (unsigned k = 0; k < dr->nverts; k++) {
		tgsi_exec_machine m;
		ulp_diag d;
		ulp_diag_clear(&d);
		bool ok = tgsi_exec_init(&m, r->vs, "vs.tgsi", &d) &&
		          load_consts(&m, dr->vs_const, dr->nvs_const);
		for (unsigned i = 0; ok && i < dr->nin; i++) {
			uint32_t *p = tgsi_exec_reg(&m, TGSI_FILE_INPUT, 0, i);
			ok = p != NULL;
			for (int c = 0; ok && c < 4; c++)
				p[c] = tx_f2u(dr->in[(size_t)k * dr->nin + i][c]);
		}
		ok = ok && tgsi_exec_run(&m, &d);
		memset(&v[k], 0, sizeof v[k]);
		for (int o = 0; ok && o < MAXREG; o++) {
			const uint32_t *p = o < (int)(m.files[TGSI_FILE_OUTPUT].nbanks ?
			                    m.files[TGSI_FILE_OUTPUT].banks[0].n : 0)
			                    ? m.files[TGSI_FILE_OUTPUT].banks[0].v[o] : NULL;
			for (int c = 0; c < 4; c++)
				v[k].a[o][c] = p ? tx_u2f(p[c]) : 0.0f;
		}
		tgsi_exec_fini(&m);
		if (!ok) {
			char msg[400];
			ulp_diag_format(&d, msg, sizeof msg);
			snprintf(reason, n, "reference vertex shader: %s", msg[0] ? msg : "out of memory");
			return false;
		}
		if (r->pos_out >= 0)
			memcpy(v[k].clip, v[k].a[r->pos_out], sizeof v[k].clip);
		/* user clip planes: against gl_ClipVertex, else the eye-space vertex
		 * (modelview is the identity: the position input) */
		const float *cv = r->clipvert_out >= 0 ? v[k].a[r->clipvert_out]
		                                       : dr->in[(size_t)k * dr->nin];
		for (int pl = 0; pl < 8; pl++) {
			v[k].dist[pl] = 1.0f;
			if (dr->clip_enabled[pl])
				v[k].dist[pl] = dr->clip_plane[pl][0] * cv[0] + dr->clip_plane[pl][1] * cv[1] +
				                dr->clip_plane[pl][2] * cv[2] + dr->clip_plane[pl][3] * cv[3];
			if (r->clipdist_out[pl / 4] >= 0)
				v[k].dist[pl] = fminf(v[k].dist[pl], v[k].a[r->clipdist_out[pl / 4]][pl % 4]);
		}
	}
	return true;
}

/* ---- clipping ---- */

static float plane_dist(const vtx *v, int p)
{
	switch (p) {
	case 0: return v->clip[3] + v->clip[2];     /* near: z >= -w */
	case 1: return v->clip[3] - v->clip[2];     /* far: z <= w */
	case 2: return v->clip[3] - 1e-7f;          /* w > 0 */
	default: return v->dist[p - 3];
	}
}

static void lerp_vtx(vtx *o, const vtx *a, const vtx *b, float t)
{
	for (int c = 0; c < 4; c++)
		o->clip[c] = a->clip[c] + (b->clip[c] - a->clip[c]) * t;
	for (int i = 0; i < MAXREG; i++)
		for (int c = 0; c < 4; c++)
			o->a[i][c] = a->a[i][c] + (b->a[i][c] - a->a[i][c]) * t;
	for (int i = 0; i < 8; i++)
		o->dist[i] = a->dist[i] + (b->dist[i] - a->dist[i]) * t;
}

static int clip_poly(vtx *poly, int n, vtx *tmp)
{
	for (int p = 0; p < 11 && n > 0; p++) {
		int m = 0;
		for (int i = 0; i < n && m < MAXPOLY - 1; i++) {
			const vtx *a = &poly[i], *b = &poly[(i + 1) % n];
			float da = plane_dist(a, p), db = plane_dist(b, p);
			if (da >= 0)
				tmp[m++] = *a;
			if ((da >= 0) != (db >= 0) && m < MAXPOLY)
				lerp_vtx(&tmp[m++], a, b, da / (da - db));
		}
		memcpy(poly, tmp, (size_t)m * sizeof *poly);
		n = m;
	}
	return n;
}

/* ---- rasterization ---- */

typedef struct tri_ctx {
	pg_ref *r;
	const pg_draw *dr;
	pg_quad *q;
	const vtx *prov;                /* provoking vertex (flat) */
	bool front;
	int fin_src[MAXREG];            /* FS input -> VS output register (-1 none) */
} tri_ctx;

/* Which edges own the pixel centres lying exactly on them: with the
 * triangle counter-clockwise (y up), the right (dy > 0) and bottom
 * (dy == 0, dx > 0) edges.  Chosen because it reproduces softpipe.png
 * (softpipe renders the FBO with row 0 at the bottom). */
static bool top_left(const float *a, const float *b)
{
	float dy = b[1] - a[1], dx = b[0] - a[0];
	return dy > 0 || (dy == 0 && dx > 0);
}

static bool raster(tri_ctx *tc, const vtx *v0, const vtx *v1, const vtx *v2, char *reason, size_t n)
{
	const vtx *v[3] = { v0, v1, v2 };
	float area = (v1->win[0] - v0->win[0]) * (v2->win[1] - v0->win[1]) -
	             (v2->win[0] - v0->win[0]) * (v1->win[1] - v0->win[1]);
	if (!(fabsf(area) > 0.0f) || !isfinite(area))
		return true;
	if (area < 0) {
		v[1] = v2;
		v[2] = v1;
		area = -area;
	}
	float minx = PG_FB_W, miny = PG_FB_H, maxx = 0, maxy = 0;
	for (int k = 0; k < 3; k++) {
		minx = fminf(minx, v[k]->win[0]);
		maxx = fmaxf(maxx, v[k]->win[0]);
		miny = fminf(miny, v[k]->win[1]);
		maxy = fmaxf(maxy, v[k]->win[1]);
	}
	int x0 = (int)fmaxf(floorf(minx), 0) & ~1, y0 = (int)fmaxf(floorf(miny), 0) & ~1;
	int x1 = (int)fminf(ceilf(maxx), PG_FB_W - 1), y1 = (int)fminf(ceilf(maxy), PG_FB_H - 1);
	bool tl[3];
	for (int e = 0; e < 3; e++)
		tl[e] = top_left(v[(e + 1) % 3]->win, v[(e + 2) % 3]->win);
	pg_ref *r = tc->r;
	for (int qy = y0; qy <= y1; qy += 2)
		for (int qx = x0; qx <= x1; qx += 2) {
			float bary[4][3];
			bool cov[4], any = false;
			for (int l = 0; l < 4; l++) {
				int px = qx + (l & 1), py = qy + (l >> 1);
				float cx = (float)px + 0.5f, cy = (float)py + 0.5f;
				bool in = px < PG_FB_W && py < PG_FB_H;
				for (int e = 0; e < 3; e++) {
					const float *a = v[(e + 1) % 3]->win, *b = v[(e + 2) % 3]->win;
					float ef = (b[0] - a[0]) * (cy - a[1]) - (b[1] - a[1]) * (cx - a[0]);
					bary[l][e] = ef / area;
					if (ef < 0 || (ef == 0 && !tl[e]))
						in = false;
				}
				cov[l] = in;
				any |= in;
			}
			if (!any)
				continue;
			pg_quad_reset(tc->q);
			for (int l = 0; l < 4; l++) {
				tgsi_exec_machine *m = &tc->q->m[l];
				float w = v[0]->iw + (v[1]->iw - v[0]->iw) * bary[l][1] +
				          (v[2]->iw - v[0]->iw) * bary[l][2];
				float z = v[0]->win[2] + (v[1]->win[2] - v[0]->win[2]) * bary[l][1] +
				          (v[2]->win[2] - v[0]->win[2]) * bary[l][2];
				for (int i = 0; i < MAXREG; i++) {
					if (!r->fin[i].used)
						continue;
					uint32_t *p = tgsi_exec_reg(m, TGSI_FILE_INPUT, 0, (size_t)i);
					if (!p)
						return snprintf(reason, n, "out of memory"), false;
					float val[4] = { 0, 0, 0, 1 };
					const io *f = &r->fin[i];
					int src = tc->fin_src[i];
					if (f->sem == TGSI_SEMANTIC_POSITION) {
						int px = qx + (l & 1), py = qy + (l >> 1);
						float off = r->integer_center ? 0.0f : 0.5f;
						val[0] = (float)px + off;
						val[1] = r->lower_left ? (float)(PG_FB_H - 1 - py) + off : (float)py + off;
						val[2] = z;
						val[3] = w;
					} else if (f->sem == TGSI_SEMANTIC_FACE) {
						val[0] = tc->front ? 1.0f : -1.0f;
					} else if (src >= 0) {
						bool flat = f->interp == TGSI_INTERPOLATE_CONSTANT ||
						            (f->interp == TGSI_INTERPOLATE_COLOR && tc->dr->flat);
						for (int c = 0; c < 4; c++) {
							float a0 = v[0]->a[src][c];
							if (flat) {
								val[c] = tc->prov->a[src][c];
							} else if (a0 == v[1]->a[src][c] && a0 == v[2]->a[src][c]) {
								val[c] = a0;    /* constant over the triangle: exact, also inf */
							} else if (f->interp == TGSI_INTERPOLATE_LINEAR) {
								/* plane form */
								val[c] = a0 + (v[1]->a[src][c] - a0) * bary[l][1] +
								         (v[2]->a[src][c] - a0) * bary[l][2];
							} else {
								float p0 = a0 * v[0]->iw;
								float num = p0 + (v[1]->a[src][c] * v[1]->iw - p0) * bary[l][1] +
								            (v[2]->a[src][c] * v[2]->iw - p0) * bary[l][2];
								val[c] = num / w;
							}
						}
					}
					for (int c = 0; c < 4; c++)
						p[c] = tx_f2u(val[c]);
				}
				if (r->face_sv >= 0) {
					uint32_t *p = tgsi_exec_reg(m, TGSI_FILE_SYSTEM_VALUE, 0, (size_t)r->face_sv);
					if (!p)
						return snprintf(reason, n, "out of memory"), false;
					for (int c = 0; c < 4; c++)
						p[c] = tx_f2u(tc->front ? 1.0f : -1.0f);
				}
				m->killed = false;
				bary[l][0] = z;     /* keep the fragment depth */
			}
			if (!pg_quad_run(tc->q, reason, n))
				return false;
			for (int l = 0; l < 4; l++) {
				if (!cov[l] || tc->q->m[l].killed)
					continue;
				int px = qx + (l & 1), py = qy + (l >> 1);
				const tgsi_exec_machine *m = &tc->q->m[l];
				const tgsi_exec_bank *ob = m->files[TGSI_FILE_OUTPUT].nbanks
				                           ? &m->files[TGSI_FILE_OUTPUT].banks[0] : NULL;
				float z = bary[l][0];
				if (r->depth_out >= 0 && ob && (size_t)r->depth_out < ob->n)
					z = tx_u2f(ob->v[r->depth_out][2]);
				float *dp = &r->depth[(size_t)py * PG_FB_W + (size_t)px];
				if (tc->dr->depth_test) {
					if (!(z < *dp))
						continue;
					*dp = fminf(fmaxf(z, 0.0f), 1.0f);
				}
				if (r->color_out >= 0 && ob && (size_t)r->color_out < ob->n) {
					uint8_t *o = ulp_image_px(r->img, (uint32_t)px, (uint32_t)(PG_FB_H - 1 - py));
					for (int c = 0; c < 4; c++)
						o[c] = unorm8(tx_u2f(ob->v[r->color_out][c]));
				}
			}
		}
	return true;
}

/* Links FS inputs to VS outputs by semantic (two-sided colour on back faces). */
static void link(tri_ctx *tc)
{
	pg_ref *r = tc->r;
	for (int i = 0; i < MAXREG; i++) {
		tc->fin_src[i] = -1;
		if (!r->fin[i].used)
			continue;
		int sem = r->fin[i].sem, idx = r->fin[i].idx;
		if (sem == TGSI_SEMANTIC_COLOR && tc->dr->two_side && !tc->front) {
			for (int o = 0; o < MAXREG; o++)
				if (r->vout[o].used && r->vout[o].sem == TGSI_SEMANTIC_BCOLOR &&
				    r->vout[o].idx == idx)
					tc->fin_src[i] = o;
			if (tc->fin_src[i] >= 0)
				continue;
		}
		for (int o = 0; o < MAXREG; o++)
			if (r->vout[o].used && r->vout[o].sem == sem && r->vout[o].idx == idx)
				tc->fin_src[i] = o;
	}
}

static bool triangle(tri_ctx *tc, const vtx *a, const vtx *b, const vtx *c, char *reason, size_t n)
{
	vtx *poly = malloc(2 * MAXPOLY * sizeof *poly);
	if (!poly)
		return snprintf(reason, n, "out of memory"), false;
	poly[0] = *a;
	poly[1] = *b;
	poly[2] = *c;
	tc->prov = c;
	int np = clip_poly(poly, 3, poly + MAXPOLY);
	float area2 = 0;
	for (int i = 0; i < np; i++) {
		vtx *v = &poly[i];
		v->iw = 1.0f / v->clip[3];
		v->win[0] = (v->clip[0] * v->iw + 1.0f) * 0.5f * PG_FB_W;
		v->win[1] = (v->clip[1] * v->iw + 1.0f) * 0.5f * PG_FB_H;
		v->win[2] = (v->clip[2] * v->iw + 1.0f) * 0.5f;
	}
	for (int i = 0; i < np; i++) {
		const vtx *p = &poly[i], *q = &poly[(i + 1) % np];
		area2 += p->win[0] * q->win[1] - q->win[0] * p->win[1];
	}
	tc->front = area2 > 0;
	link(tc);
	bool ok = true;
	for (int i = 1; ok && i + 1 < np; i++)
		ok = raster(tc, &poly[0], &poly[i], &poly[i + 1], reason, n);
	free(poly);
	return ok;
}

bool pg_ref_draw(pg_ref *r, const pg_draw *dr, char *reason, size_t n)
{
	if (r->pos_out < 0)
		return snprintf(reason, n, "reference: the vertex shader writes no POSITION"), false;
	vtx *v = calloc(dr->nverts ? dr->nverts : 1, sizeof *v);
	pg_quad *q = calloc(1, sizeof *q);
	bool ok = v && q;
	if (!ok)
		snprintf(reason, n, "out of memory");
	int inited = 0;
	for (int l = 0; ok && l < 4; l++) {
		ulp_diag d;
		ulp_diag_clear(&d);
		ok = tgsi_exec_init(&q->m[l], r->fs, "fs.tgsi", &d);
		if (ok)
			inited++;
		ok = ok && load_consts(&q->m[l], dr->fs_const, dr->nfs_const);
		if (!ok) {
			char msg[400];
			ulp_diag_format(&d, msg, sizeof msg);
			snprintf(reason, n, "reference fragment shader: %s", msg[0] ? msg : "out of memory");
		}
	}
	if (ok)
		memcpy(q->units, dr->units, sizeof q->units);
	ok = ok && shade_vertices(r, dr, v, reason, n);
	tri_ctx tc = { .r = r, .dr = dr, .q = q };
	for (unsigned k = 0; ok && k + 2 < dr->nverts; k += dr->prim == 0 ? 3 : 1) {
		if (dr->prim == 0)
			ok = triangle(&tc, &v[k], &v[k + 1], &v[k + 2], reason, n);
		else if (dr->prim == 1)
			ok = k & 1 ? triangle(&tc, &v[k + 1], &v[k], &v[k + 2], reason, n)
			           : triangle(&tc, &v[k], &v[k + 1], &v[k + 2], reason, n);
		else
			ok = triangle(&tc, &v[0], &v[k + 1], &v[k + 2], reason, n);
	}
	for (int l = 0; l < inited; l++)
		tgsi_exec_fini(&q->m[l]);
	free(q);
	free(v);
	return ok;
}

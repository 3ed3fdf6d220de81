/* TEX: texture fetch (tex.h). */
#include "units/tex.h"

#include <math.h>

const sim_counter_def TEX_COUNTERS[TEX_CTR_COUNT] = {
	[TEX_CTR_FETCHES] = { "fetches", "TEX instructions run (per quad)" },
	[TEX_CTR_TEXELS] = { "texels", "texels read" },
};

GR3D_HOT int wrap_coord(int i, int n, unsigned mode)
{
	switch (mode) {
	case GR3D_WRAP_CLAMP:
		return i < 0 ? 0 : i >= n ? n - 1 : i;
	case GR3D_WRAP_MIRROR: {
		int p = 2 * n;
		int m = ((i % p) + p) % p;
		return m < n ? m : p - 1 - m;
	}
	default:
		return ((i % n) + n) % n;
	}
}

/* A 16-bit depth as an FX10 code: d / 65535 at the FX10 step of 1/256,
 * rounded to nearest (docs/ASSUMPTIONS.md: TEX depth texels). */
static uint32_t depth_fx10(const gr3d_sampler *sm, unsigned d)
{
	return sm->depth_truncate ? d >> 8 : (d * 256u + 32767u) / 65535u;
}

static unsigned texel_depth(const uint8_t *p) { return (unsigned)p[0] | (unsigned)p[1] << 8; }

/* One texel as four FX10 codes in channel order 0..3 (the register order). */
GR3D_HOT void texel(const gr3d_sampler *sm, const ulp_image *img, int x, int y, uint32_t out[4])
{
	x = wrap_coord(x, (int)img->width, sm->wrap);
	y = wrap_coord(y, (int)img->height, sm->wrap_t_own ? sm->wrap_t : sm->wrap);
	const uint8_t *p = ulp_image_cpx(img, (uint32_t)x, (uint32_t)y);
	uint8_t b[4];
	switch (sm->format) {
	case GR3D_TEX_BGRA8888: b[0] = p[2]; b[1] = p[1]; b[2] = p[0]; b[3] = p[3]; break;
	case GR3D_TEX_A8: b[0] = b[1] = b[2] = 0; b[3] = p[3]; break;
	case GR3D_TEX_L8: b[0] = b[1] = b[2] = p[0]; b[3] = 255; break;
	case GR3D_TEX_RGB565:
		b[0] = (uint8_t)(((p[0] >> 3) * 527 + 23) >> 6);
		b[1] = (uint8_t)(((p[1] >> 2) * 259 + 33) >> 6);
		b[2] = (uint8_t)(((p[2] >> 3) * 527 + 23) >> 6);
		b[3] = 255;
		break;
	case GR3D_TEX_D16:
		out[0] = out[1] = out[2] = depth_fx10(sm, texel_depth(p));
		out[3] = unorm8_to_fx10(255);
		return;
	default: memcpy(b, p, 4); break;
	}
	for (unsigned k = 0; k < 4; k++)
		out[k] = unorm8_to_fx10(b[k]);
}

static const ulp_image *level_img(const gr3d_sampler *sm, unsigned lvl)
{
	return lvl && lvl < sm->nlevels ? sm->level[lvl] : sm->img;
}

unsigned tex_fetch(const gr3d_sampler *sm, unsigned lvl, bool linear, double s, double t, uint32_t out[4])
{
	const ulp_image *img = level_img(sm, lvl);
	if (!img || !isfinite(s) || !isfinite(t)) {
		out[0] = out[1] = out[2] = out[3] = 0;
		return 0;
	}
	double u = s * img->width, v = t * img->height;
	if (fabs(u) > 1e8 || fabs(v) > 1e8)
		u = v = 0.0;
	if (!linear) {
		texel(sm, img, (int)floor(u), (int)floor(v), out);
		return 1;
	}
	u -= 0.5;
	v -= 0.5;
	int x0 = (int)floor(u), y0 = (int)floor(v);
	double fu = u - x0, fv = v - y0;
	uint32_t a[4], b[4], cc[4], d[4];
	texel(sm, img, x0, y0, a);
	texel(sm, img, x0 + 1, y0, b);
	texel(sm, img, x0, y0 + 1, cc);
	texel(sm, img, x0 + 1, y0 + 1, d);
	for (unsigned k = 0; k < 4; k++) {
		double r = (1 - fv) * ((1 - fu) * a[k] + fu * b[k]) + fv * ((1 - fu) * cc[k] + fu * d[k]);
		out[k] = (uint32_t)floor(r + 0.5) & FX10_MASK;
	}
	return 4;
}

unsigned tex_sample(const gr3d_sampler *sm, unsigned lvl, double s, double t, uint32_t out[4])
{
	return tex_fetch(sm, lvl, sm->bilinear, s, t, out);
}

unsigned tex_filter(const gr3d_sampler *sm, double lod, double s, double t, uint32_t out[4])
{
	if (!(lod > 0))                                /* magnification (or no LOD): level 0 */
		return tex_fetch(sm, 0, sm->bilinear, s, t, out);
	bool linear = sm->min_filter == GR3D_MIN_AS_MAG ? sm->bilinear : sm->min_filter == GR3D_MIN_LINEAR;
	if (sm->nlevels < 2 || sm->mip_none)
		return tex_fetch(sm, 0, linear, s, t, out);
	const unsigned last = sm->nlevels - 1u;
	if (!sm->mip_linear) {
		double l = floor(lod + 0.5);
		return tex_fetch(sm, l >= last ? last : (unsigned)l, linear, s, t, out);
	}
	double l0 = floor(lod);
	if (l0 >= last)
		return tex_fetch(sm, last, linear, s, t, out);
	double f = lod - l0;
	uint32_t a[4], b[4];
	unsigned n = tex_fetch(sm, (unsigned)l0, linear, s, t, a);
	n += tex_fetch(sm, (unsigned)l0 + 1, linear, s, t, b);
	for (unsigned k = 0; k < 4; k++)
		out[k] = (uint32_t)floor((1 - f) * a[k] + f * b[k] + 0.5) & FX10_MASK;
	return n;
}

double tex_lod(const gr3d_sampler *sm, const double s[4], const double t[4], double bias)
{
	if (!sm->img)
		return 0.0;
	double w = sm->img->width, h = sm->img->height;
	/* pixel 1 is right of pixel 0, pixel 2 below it */
	double dx = fmax(fabs(s[1] - s[0]) * w, fabs(t[1] - t[0]) * h);
	double dy = fmax(fabs(s[2] - s[0]) * w, fabs(t[2] - t[0]) * h);
	double rho = fmax(dx, dy);
	bias += sm->lod_bias;
	if (!(rho > 0) || !isfinite(rho) || !isfinite(bias))
		return 0.0;
	return log2(rho) + bias;
}

unsigned tex_level(const gr3d_sampler *sm, const double s[4], const double t[4], double bias)
{
	if (sm->nlevels < 2 || !sm->img)
		return 0;
	double lod = tex_lod(sm, s, t, bias);
	if (!(lod > 0))
		return 0;
	double l = floor(lod + 0.5);
	return l >= sm->nlevels - 1 ? sm->nlevels - 1u : (unsigned)l;
}

bool tex_build_levels(gr3d_sampler *sm, ulp_image *owned[GR3D_TEX_LEVELS], ulp_diag *d)
{
	for (unsigned k = 0; k < GR3D_TEX_LEVELS; k++)
		owned[k] = NULL;
	if (sm->img && !sm->mipmap && sm->nlevels > 1) {   /* the caller's levels */
		sm->level[0] = sm->img;
		for (unsigned k = 1; k < sm->nlevels; k++)
			if (!sm->level[k])
				return ulp_diag_at(d, NULL, 0, 0, "texture level %u is missing", k);
		return true;
	}
	sm->level[0] = sm->img;
	sm->nlevels = sm->img ? 1 : 0;
	if (!sm->img || !sm->mipmap)
		return true;
	const ulp_image *prev = sm->img;
	for (unsigned k = 1; k < GR3D_TEX_LEVELS && (prev->width > 1 || prev->height > 1); k++) {
		uint32_t w = prev->width > 1 ? prev->width / 2 : 1, h = prev->height > 1 ? prev->height / 2 : 1;
		ulp_image *img = ulp_image_create(w, h, d);
		if (!img)
			return false;
		for (uint32_t y = 0; y < h; y++)
			for (uint32_t x = 0; x < w; x++) {
				uint32_t x0 = prev->width > 1 ? 2 * x : 0, y0 = prev->height > 1 ? 2 * y : 0;
				uint32_t x1 = prev->width > 1 ? x0 + 1 : 0, y1 = prev->height > 1 ? y0 + 1 : 0;
				const uint8_t *q[4] = { ulp_image_cpx(prev, x0, y0), ulp_image_cpx(prev, x1, y0),
				                        ulp_image_cpx(prev, x0, y1), ulp_image_cpx(prev, x1, y1) };
				uint8_t *o = ulp_image_px(img, x, y);
				if (sm->format == GR3D_TEX_D16) {    /* the 16-bit depth, not its bytes */
					unsigned v = (texel_depth(q[0]) + texel_depth(q[1]) + texel_depth(q[2]) +
					              texel_depth(q[3]) + 2) / 4;
					o[0] = (uint8_t)v, o[1] = (uint8_t)(v >> 8), o[2] = 0, o[3] = 255;
					continue;
				}
				for (unsigned c = 0; c < 4; c++)
					o[c] = (uint8_t)((q[0][c] + q[1][c] + q[2][c] + q[3][c] + 2) / 4);
			}
		owned[k] = img;
		sm->level[k] = img;
		sm->nlevels = (uint8_t)(k + 1);
		prev = img;
	}
	return true;
}

/* The fetch of an enabled TEX instruction for the quad's live pixels.  Out
 * of line, so that the many EXECs without a fetch do not pay for its
 * registers. */
__attribute__((noinline)) static void tex_quad(gr3d_stage *s, gr3d_quad *q, unsigned e,
                                               const tegra_tex_inst *in)
{
	const gr3d_ctx *c = s->ctx;
	const bool shadow = c->cfg->tegra_tex_fp20_coords;
	/* coordinates: r0,r1,r2[,r3] or r2,r3,r0[,r1] of the row the MFU wrote
	 * (tegra.tex.src_row_from_mfu) or of the current row */
	unsigned src_exec = c->cfg->tegra_tex_src_from_mfu ? q->tex_row : e;
	unsigned sS = gr3d_row_reg(c, src_exec, in->src_r2 ? 2 : 0);
	unsigned sT = gr3d_row_reg(c, src_exec, in->src_r2 ? 3 : 1);
	unsigned sB = gr3d_row_reg(c, src_exec, in->src_r2 ? 1 : 3);
	unsigned dlo = gr3d_row_reg(c, e, in->dst_r2 ? 2 : 0);
	unsigned dhi = gr3d_row_reg(c, e, in->dst_r2 ? 3 : 1);
	const gr3d_sampler *sm = &c->sampler[in->sampler & (GR3D_SAMPLERS - 1)];
	/* coordinates of all four pixels (helpers too) give the quad's LOD */
	double cs[GR3D_PIXELS], ct[GR3D_PIXELS];
	for (unsigned p = 0; p < GR3D_PIXELS; p++) {
		cs[p] = gr3d_fp20(q->px[p].r[sS]);
		ct[p] = gr3d_fp20(q->px[p].r[sT]);
	}
	/* one LOD per quad when a level or the min/mag choice depends on it */
	double lod = 0.0;
	bool minmag = sm->min_filter != GR3D_MIN_AS_MAG &&
	              (sm->min_filter == GR3D_MIN_LINEAR) != sm->bilinear;
	if ((sm->nlevels > 1 && !sm->mip_none) || minmag) {
		/* TXB: the bias of the first live pixel */
		double bias = 0.0;
		for (unsigned p = 0; p < GR3D_PIXELS && in->bias; p++)
			if (!q->px[p].killed) {
				bias = gr3d_fp20(q->px[p].r[sB]);
				break;
			}
		lod = tex_lod(sm, cs, ct, bias);
	}
	uint64_t texels = 0;
	for (unsigned p = 0; p < GR3D_PIXELS; p++) {
		gr3d_pixel *px = &q->px[p];
		if (px->killed)
			continue;
		uint32_t t4[4];
		texels += tex_filter(sm, lod, cs[p], ct[p], t4);
		if (shadow) {
			px->tex_old[0] = px->r[dlo];
			px->tex_old[1] = px->r[dhi];
			px->tex_reg[0] = (uint8_t)dlo;
			px->tex_reg[1] = (uint8_t)dhi;
			px->tex_shadow = 3;
		}
		px->r[dlo] = t4[0] | t4[1] << 10;
		px->r[dhi] = t4[2] | t4[3] << 10;
	}
	sim_unit_count(&s->u, TEX_CTR_FETCHES, 1);
	sim_unit_count(&s->u, TEX_CTR_TEXELS, texels);
}

static unsigned tex_exec(gr3d_stage *s, gr3d_quad *q, unsigned e)
{
	const tegra_tex_inst *in = &s->ctx->prog->exec[e].tex;
	for (unsigned p = 0; p < GR3D_PIXELS; p++)
		q->px[p].tex_shadow = 0;
	if (in->enable)
		tex_quad(s, q, e, in);
	return s->quad_clocks;
}

void tex_init(tex_unit *t, gr3d_ctx *ctx)
{
	gr3d_stage_init(&t->s, "tex", ctx, TEX_COUNTERS, TEX_CTR_COUNT);
	for (unsigned k = 0; k < GR3D_SAMPLERS; k++)
		ctx->sampler[k].depth_truncate = !ctx->cfg->tegra_tex_depth_round;
	t->s.exec = tex_exec;
}

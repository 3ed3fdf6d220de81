/* TEX: texture fetch (tex.h). */
#include "units/tex.h"

#include <math.h>

const sim_counter_def TEX_COUNTERS[TEX_CTR_COUNT] = {
	[TEX_CTR_FETCHES] = { "fetches", "TEX instructions run (per quad)" },
	[TEX_CTR_TEXELS] = { "texels", "texels read" },
};

static int wrap_coord(int i, int n, unsigned mode)
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

/* One texel as four FX10 codes in channel order 0..3 (the register order). */
static void texel(const gr3d_sampler *sm, int x, int y, uint32_t out[4])
{
	const ulp_image *img = sm->img;
	x = wrap_coord(x, (int)img->width, sm->wrap);
	y = wrap_coord(y, (int)img->height, sm->wrap);
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
	default: memcpy(b, p, 4); break;
	}
	for (unsigned k = 0; k < 4; k++)
		out[k] = unorm8_to_fx10(b[k]);
}

unsigned tex_sample(const gr3d_sampler *sm, double s, double t, double bias, uint32_t out[4])
{
	(void)bias;   /* one level per texture: a LOD bias selects nothing (docs/tegra-units.md) */
	if (!sm->img || !isfinite(s) || !isfinite(t)) {
		out[0] = out[1] = out[2] = out[3] = 0;
		return 0;
	}
	double u = s * sm->img->width, v = t * sm->img->height;
	if (fabs(u) > 1e8 || fabs(v) > 1e8)
		u = v = 0.0;
	if (!sm->bilinear) {
		texel(sm, (int)floor(u), (int)floor(v), out);
		return 1;
	}
	u -= 0.5;
	v -= 0.5;
	int x0 = (int)floor(u), y0 = (int)floor(v);
	double fu = u - x0, fv = v - y0;
	uint32_t a[4], b[4], cc[4], d[4];
	texel(sm, x0, y0, a);
	texel(sm, x0 + 1, y0, b);
	texel(sm, x0, y0 + 1, cc);
	texel(sm, x0 + 1, y0 + 1, d);
	for (unsigned k = 0; k < 4; k++) {
		double r = (1 - fv) * ((1 - fu) * a[k] + fu * b[k]) + fv * ((1 - fu) * cc[k] + fu * d[k]);
		out[k] = (uint32_t)floor(r + 0.5) & FX10_MASK;
	}
	return 4;
}

static unsigned tex_exec(gr3d_stage *s, gr3d_quad *q, unsigned e)
{
	const gr3d_ctx *c = s->ctx;
	const tegra_tex_inst *in = &c->prog->exec[e].tex;
	if (!in->enable)
		return s->quad_clocks;
	/* coordinates: r0,r1,r2[,r3] or r2,r3,r0[,r1] of the row the MFU wrote
	 * (tegra.tex.src_row_from_mfu) or of the current row */
	unsigned src_exec = c->cfg->tegra_tex_src_from_mfu ? q->tex_row : e;
	unsigned sS = gr3d_row_reg(c, src_exec, in->src_r2 ? 2 : 0);
	unsigned sT = gr3d_row_reg(c, src_exec, in->src_r2 ? 3 : 1);
	unsigned sB = gr3d_row_reg(c, src_exec, in->src_r2 ? 1 : 3);
	unsigned dlo = gr3d_row_reg(c, e, in->dst_r2 ? 2 : 0);
	unsigned dhi = gr3d_row_reg(c, e, in->dst_r2 ? 3 : 1);
	const gr3d_sampler *sm = &c->sampler[in->sampler & (GR3D_SAMPLERS - 1)];
	uint64_t texels = 0;
	for (unsigned p = 0; p < GR3D_PIXELS; p++) {
		gr3d_pixel *px = &q->px[p];
		if (px->killed)
			continue;
		double bias = in->bias ? gr3d_fp20(px->r[sB]) : 0.0;
		uint32_t t4[4];
		texels += tex_sample(sm, gr3d_fp20(px->r[sS]), gr3d_fp20(px->r[sT]), bias, t4);
		px->r[dlo] = t4[0] | t4[1] << 10;
		px->r[dhi] = t4[2] | t4[3] << 10;
	}
	sim_unit_count(&s->u, TEX_CTR_FETCHES, 1);
	sim_unit_count(&s->u, TEX_CTR_TEXELS, texels);
	return s->quad_clocks;
}

void tex_init(tex_unit *t, gr3d_ctx *ctx)
{
	gr3d_stage_init(&t->s, "tex", ctx, TEX_COUNTERS, TEX_CTR_COUNT);
	t->s.exec = tex_exec;
}

/* The replay's texture and colour-buffer pieces (replay_tex.h). */
#include "traces/replay/replay_tex.h"

#include <cjson/cJSON.h>
#include <string.h>

#include "frontends/tegra/tegra_compile.h"

bool replay_cbuf_format(const char *name, uint8_t *fmt, unsigned *bpp)
{
	/* ORDER: TRACE_E_CBUFFMT */
	static const uint8_t FMT[] = { GR3D_RT_RGBA8888, GR3D_RT_BGRA8888, GR3D_RT_RGB565, GR3D_RT_A8 };
	static const uint8_t BPP[] = { 4, 4, 2, 1 };
	static const char *const NAMES[] = { "RGBA8888", "BGRA8888", "RGB565", "A8", NULL };
	for (int f = 0; name && NAMES[f]; f++)
		if (!strcmp(NAMES[f], name)) {
			*fmt = FMT[f];
			*bpp = BPP[f];
			return true;
		}
	return false;
}

void replay_cbuf_view(const ulp_config *cfg, unsigned fmt, uint8_t b[4])
{
	if (fmt == GR3D_RT_RGB565) {
		const bool rnd = cfg->tegra_dw_rgb565_round;
		unsigned r5 = rnd ? (b[0] * 31u + 127u) / 255u : b[0] >> 3u;
		unsigned g6 = rnd ? (b[1] * 63u + 127u) / 255u : b[1] >> 2u;
		unsigned b5 = rnd ? (b[2] * 31u + 127u) / 255u : b[2] >> 3u;
		b[0] = (uint8_t)((r5 * 527u + 23u) >> 6);
		b[1] = (uint8_t)((g6 * 259u + 33u) >> 6);
		b[2] = (uint8_t)((b5 * 527u + 23u) >> 6);
		b[3] = 255;
	} else if (fmt == GR3D_RT_A8) {
		b[0] = b[1] = b[2] = 0;
	}
}

/* One texture level in the TEX unit's layout (units/gr3d/tex.c texel()): the
 * texel bytes of RGBA8888/BGRA8888 as they are, RGB565 unpacked to its
 * 5/6/5 bits at the top of bytes 0..2, A8 in byte 3, L8 in byte 0, D16's
 * two bytes in bytes 0..1. */
static void unpack_level(const trace_resource *t, const uint8_t *src, ulp_image *img)
{
	const size_t n = (size_t)img->width * img->height;
	uint8_t *o = img->rgba;
	for (size_t k = 0; k < n; k++, o += 4) {
		switch (t->format) {
		case TRACE_RGBA8888: case TRACE_BGRA8888: memcpy(o, src + 4 * k, 4); break;
		case TRACE_RGB565: {
			unsigned v = (unsigned)src[2 * k] | (unsigned)src[2 * k + 1] << 8;
			o[0] = (uint8_t)((v >> 11) << 3), o[1] = (uint8_t)(((v >> 5) & 63u) << 2);
			o[2] = (uint8_t)((v & 31u) << 3), o[3] = 255;
			break;
		}
		case TRACE_A8: o[0] = o[1] = o[2] = 0, o[3] = src[k]; break;
		case TRACE_L8: o[0] = o[1] = o[2] = src[k], o[3] = 255; break;
		default: o[0] = src[2 * k], o[1] = src[2 * k + 1], o[2] = 0, o[3] = 255; break;   /* D16 */
		}
	}
}

uint8_t replay_tex_format(enum trace_texfmt f)
{
	/* ORDER: enum trace_texfmt */
	static const uint8_t FMT[] = { GR3D_TEX_RGBA8888, GR3D_TEX_BGRA8888, GR3D_TEX_RGB565, GR3D_TEX_A8,
		GR3D_TEX_L8, GR3D_TEX_D16 };
	return (unsigned)f < sizeof FMT ? FMT[f] : GR3D_TEX_RGBA8888;
}

bool replay_texture(const trace_resource *t, gr3d_sampler *sm, ulp_image *owned[GR3D_TEX_LEVELS],
                    ulp_diag *d)
{
	for (unsigned l = 0; l < GR3D_TEX_LEVELS; l++) {
		ulp_image_free(owned[l]);
		owned[l] = NULL;
		sm->level[l] = NULL;
	}
	sm->img = NULL;
	sm->nlevels = 0;
	for (unsigned l = 0; l < t->nlevels && l < GR3D_TEX_LEVELS; l++) {
		uint32_t w = t->width >> l ? t->width >> l : 1, h = t->height >> l ? t->height >> l : 1;
		ulp_image *img = owned[l] = ulp_image_create(w, h, d);
		if (!img)
			return false;
		unpack_level(t, t->bytes + t->level_off[l], img);
		sm->level[l] = img;
	}
	sm->img = owned[0];
	sm->format = replay_tex_format(t->format);
	sm->nlevels = (uint8_t)t->nlevels;
	sm->mipmap = false;
	return true;
}

static const char *str(const cJSON *c, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(c, k);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

void replay_sampler_state(gr3d_sampler *sm, uint8_t *shadow_cmp, const cJSON *c)
{
	const char *filter = str(c, "filter"), *mag = str(c, "mag_filter"), *min = str(c, "min_filter");
	const char *mip = str(c, "mip_filter");
	if (filter) {
		sm->bilinear = strcmp(filter, "linear") == 0;
		sm->min_filter = GR3D_MIN_AS_MAG;
	}
	if (mag)
		sm->bilinear = strcmp(mag, "linear") == 0;
	if (min)
		sm->min_filter = strcmp(min, "linear") == 0 ? GR3D_MIN_LINEAR : GR3D_MIN_NEAREST;
	if (mip) {                 /* none: level 0 only; the levels stay with the view */
		sm->mip_linear = strcmp(mip, "linear") == 0;
		sm->mip_none = strcmp(mip, "none") == 0;
	}
	const char *wrap[3] = { str(c, "wrap"), str(c, "wrap_s"), str(c, "wrap_t") };
	uint8_t mode[3];
	for (int k = 0; k < 3; k++)
		mode[k] = !wrap[k] ? 0 : !strcmp(wrap[k], "clamp") ? GR3D_WRAP_CLAMP
		        : !strcmp(wrap[k], "mirror") ? GR3D_WRAP_MIRROR : GR3D_WRAP_REPEAT;
	if (wrap[0]) {
		sm->wrap = mode[0];
		sm->wrap_t_own = false;
	}
	if (wrap[1])
		sm->wrap = mode[1];
	if (wrap[2]) {
		sm->wrap_t = mode[2];
		sm->wrap_t_own = true;
	}
	const cJSON *bias = cJSON_GetObjectItemCaseSensitive(c, "lod_bias");
	if (cJSON_IsNumber(bias))
		sm->lod_bias = (float)bias->valuedouble;
	/* the compare goes into the fragment program (frontends/tegra: the ALU
	 * compares the reference with the texel's red channel) */
	const char *cmp = str(c, "compare_func");
	if (cmp) {
		static const char *const GL[] = { "lequal", "gequal", "less", "greater", "equal", "notequal",
			"always", "never", NULL };   /* ORDER: enum tegra_compare */
		int k = 0;
		while (GL[k] && strcmp(GL[k], cmp))
			k++;
		*shadow_cmp = (uint8_t)(GL[k] ? k : 0);
	}
}

void replay_view_swizzle(const char *swz, uint8_t out[4])
{
	static const char NAMES[] = "rgba01";          /* ORDER: TEGRA_SWZ_R .. TEGRA_SWZ_ONE */
	for (unsigned ch = 0; ch < 4; ch++) {
		const char *p = swz && swz[ch] ? strchr(NAMES, swz[ch]) : NULL;
		out[ch] = p ? (uint8_t)(TEGRA_SWZ_R + (p - NAMES)) : TEGRA_SWZ_SAME;
	}
}

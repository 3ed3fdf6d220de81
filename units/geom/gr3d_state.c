/* The GR3D draw-state registers (gr3d_state.h; docs/registers.md). */
#include "units/geom/gr3d_state.h"

#include <math.h>
#include <string.h>

/* ---- the linker and TRAM (0x300+2i, 0x343, 0xe21) ---- */

void drv_gr3d_linker(reg_stream *s, const gr3d_link_row *rows, unsigned nrows, uint8_t cull,
                     bool front_ccw, bool two_side)
{
	if (nrows > GR3D_TRAM_ROWS)
		nrows = GR3D_TRAM_ROWS;
	for (unsigned i = 0; i < nrows; i++) {
		const gr3d_link_row *w = &rows[i];
		uint32_t v = w->reg < 16 ? w->reg : 1u << 4;
		if (w->reg_back < 16)
			v |= (uint32_t)w->reg_back << 8 | 1u << 12;
		if (w->flat)
			v |= 1u << 16;
		reg_stream_gr3d(s, (uint16_t)(GR3D_REG_LINKER + 2 * i), v);
		reg_stream_gr3d(s, (uint16_t)(GR3D_REG_LINKER + 2 * i + 1), 0);   /* FP20 x, y, z, w */
	}
	uint32_t count = nrows ? nrows - 1 : 0;
	reg_stream_gr3d(s, GR3D_REG_LINKER_SETUP, count << 5 | (uint32_t)(cull & 3u) << 10 |
	                                          (front_ccw ? 0u : 1u << 12) | (two_side ? 1u << 13 : 0u));
	reg_stream_gr3d(s, GR3D_REG_TRAM_SETUP, (setup_tram_slots(nrows) & 0x7Fu) | (uint32_t)nrows << 8);
}

bool gr3d_regs_setup(const gr3d_regs *r, setup_state *su, uint16_t *flat_regs, ulp_diag *d)
{
	const uint32_t ls = r->raw[GR3D_REG_LINKER_SETUP];
	su->cull = (uint8_t)((ls >> 10) & 3u);
	if (su->cull > SETUP_CULL_BACK)
		su->cull = SETUP_CULL_NONE;
	su->front_ccw = !((ls >> 12) & 1u);
	su->two_side = (ls >> 13) & 1u;
	unsigned rows = (r->raw[GR3D_REG_TRAM_SETUP] >> 8) & 0x7Fu;
	if (rows > GR3D_TRAM_ROWS)
		return ulp_diag_at(d, NULL, 0, 0, "TRAM_SETUP (0xe21): %u rows per triangle, at most %d", rows,
		                   GR3D_TRAM_ROWS);
	su->ntram = rows;
	*flat_regs = 0;
	memset(su->tram_reg, 0xFF, sizeof su->tram_reg);
	memset(su->tram_reg_back, 0xFF, sizeof su->tram_reg_back);
	for (unsigned i = 0; i < rows; i++) {
		const uint32_t sel = r->raw[GR3D_REG_LINKER + 2 * i], fmt = r->raw[GR3D_REG_LINKER + 2 * i + 1];
		if (fmt)
			return ulp_diag_at(d, NULL, 0, 0, "LINKER_INSTRUCTION (0x%03x): TRAM format 0x%x is not "
			                   "modelled (0: FP20 x, y, z, w)", GR3D_REG_LINKER + 2 * i + 1, fmt);
		su->tram_reg[i] = (sel >> 4) & 1u ? 0xFF : (uint8_t)(sel & 15u);
		if ((sel >> 12) & 1u)
			su->tram_reg_back[i] = (uint8_t)((sel >> 8) & 15u);
		if ((sel >> 16) & 1u) {
			if (su->tram_reg[i] < 16)
				*flat_regs |= (uint16_t)(1u << su->tram_reg[i]);
			if (su->tram_reg_back[i] < 16)
				*flat_regs |= (uint16_t)(1u << su->tram_reg_back[i]);
		}
	}
	/* the viewport: f32 words (exact for the replay's values that are floats) */
	for (unsigned k = 0; k < 3; k++) {
		static const uint8_t TR[3] = { 0, 1, 4 }, SC[3] = { 2, 3, 5 };
		float t, sc;
		uint32_t bt = r->raw[GR3D_REG_VIEWPORT + TR[k]], bs = r->raw[GR3D_REG_VIEWPORT + SC[k]];
		memcpy(&t, &bt, sizeof t);
		memcpy(&sc, &bs, sizeof sc);
		su->vp_translate[k] = t;
		su->vp_scale[k] = sc;
	}
	const uint32_t h = r->raw[GR3D_REG_SCISSOR_HORIZ], v = r->raw[GR3D_REG_SCISSOR_VERT];
	su->scissor = h >> 31;
	su->sx0 = (int)(h & 0x1FFFu);
	su->sx1 = (int)((h >> 16) & 0x1FFFu);
	su->sy0 = (int)(v & 0x1FFFu);
	su->sy1 = (int)((v >> 16) & 0x1FFFu);
	return true;
}

/* ---- viewport and scissor (0x350-0x357) ---- */

static uint32_t f32_bits(double v)
{
	float f = (float)v;
	uint32_t b;
	memcpy(&b, &f, sizeof b);
	return b;
}

void drv_gr3d_viewport(reg_stream *s, const double scale[3], const double translate[3])
{
	reg_stream_gr3d(s, GR3D_REG_VIEWPORT + 0, f32_bits(translate[0]));
	reg_stream_gr3d(s, GR3D_REG_VIEWPORT + 1, f32_bits(translate[1]));
	reg_stream_gr3d(s, GR3D_REG_VIEWPORT + 2, f32_bits(scale[0]));
	reg_stream_gr3d(s, GR3D_REG_VIEWPORT + 3, f32_bits(scale[1]));
	reg_stream_gr3d(s, GR3D_REG_VIEWPORT + 4, f32_bits(translate[2]));
	reg_stream_gr3d(s, GR3D_REG_VIEWPORT + 5, f32_bits(scale[2]));
}

static uint32_t span(int lo, int hi)
{
	lo = lo < 0 ? 0 : lo > 0x1FFF ? 0x1FFF : lo;
	hi = hi < 0 ? 0 : hi > 0x1FFF ? 0x1FFF : hi;
	return (uint32_t)lo | (uint32_t)hi << 16;
}

void drv_gr3d_scissor(reg_stream *s, bool on, const int rect[4])
{
	reg_stream_gr3d(s, GR3D_REG_SCISSOR_HORIZ, span(rect[0], rect[2]) | (on ? 1u << 31 : 0u));
	reg_stream_gr3d(s, GR3D_REG_SCISSOR_VERT, span(rect[1], rect[3]));
}

/* ---- texture units (0x710+i, 0x720+2i, 0x721+2i) ---- */

void drv_gr3d_texture(reg_stream *s, unsigned i, uint32_t pointer, const gr3d_sampler *sm,
                      uint32_t width, uint32_t height)
{
	i %= GR3D_SAMPLERS;
	double b = sm->lod_bias * 4096.0;
	b = b < -131072.0 ? -131072.0 : b > 131071.0 ? 131071.0 : b;
	uint32_t bias = (uint32_t)(int32_t)lround(b) & 0x3FFFFu;       /* s5.12 */
	uint32_t d1 = (sm->bilinear ? 1u : 0u) | (uint32_t)(sm->min_filter & 3u) << 1 |
	              (sm->mip_linear ? 1u << 3 : 0u) | (sm->mip_none ? 1u << 4 : 0u) |
	              (uint32_t)(sm->wrap & 3u) << 5 | (uint32_t)(sm->wrap_t & 3u) << 7 |
	              (sm->wrap_t_own ? 1u << 9 : 0u) | (uint32_t)(sm->format & 7u) << 10 | bias << 14;
	unsigned levels = sm->nlevels ? sm->nlevels : 1;
	uint32_t d2 = (width & 0x3FFFu) | (height & 0x3FFFu) << 14 | (uint32_t)((levels - 1) & 15u) << 28;
	reg_stream_gr3d(s, (uint16_t)(GR3D_REG_TEXTURE_POINTER + i), pointer);
	reg_stream_gr3d(s, (uint16_t)(GR3D_REG_TEXTURE_DESC + 2 * i), d1);
	reg_stream_gr3d(s, (uint16_t)(GR3D_REG_TEXTURE_DESC + 2 * i + 1), d2);
}

void gr3d_regs_texture(const gr3d_regs *r, unsigned i, gr3d_sampler *sm, uint32_t *pointer,
                       uint32_t *width, uint32_t *height)
{
	i %= GR3D_SAMPLERS;
	memset(sm, 0, sizeof *sm);
	const uint32_t d1 = r->raw[GR3D_REG_TEXTURE_DESC + 2 * i], d2 = r->raw[GR3D_REG_TEXTURE_DESC + 2 * i + 1];
	*pointer = r->raw[GR3D_REG_TEXTURE_POINTER + i];
	sm->bilinear = d1 & 1u;
	sm->min_filter = (uint8_t)((d1 >> 1) & 3u);
	sm->mip_linear = (d1 >> 3) & 1u;
	sm->mip_none = (d1 >> 4) & 1u;
	sm->wrap = (uint8_t)((d1 >> 5) & 3u);
	sm->wrap_t = (uint8_t)((d1 >> 7) & 3u);
	sm->wrap_t_own = (d1 >> 9) & 1u;
	sm->format = (uint8_t)((d1 >> 10) & 7u);
	int32_t bias = (int32_t)(d1 >> 14);
	if (bias & 0x20000)
		bias -= 0x40000;
	sm->lod_bias = (float)(bias / 4096.0);
	*width = d2 & 0x3FFFu;
	*height = (d2 >> 14) & 0x3FFFu;
	sm->nlevels = (uint8_t)(((d2 >> 28) & 15u) + 1);
}

/* The GR3D draw-state registers (gr3d_state.h; docs/registers.md). */
#include "units/geom/gr3d_state.h"

#include <math.h>
#include <string.h>

/* ---- the linker and TRAM (LINKER_INSTRUCTION, CULL_FACE_LINKER_SETUP, TRAM_SETUP) ---- */

void drv_gr3d_linker(reg_stream *s, const gr3d_link_row *rows, unsigned nrows, uint8_t cull,
                     bool front_ccw, bool two_side)
{
	if (nrows > GR3D_TRAM_ROWS)
		nrows = GR3D_TRAM_ROWS;
	for (unsigned i = 0; i < nrows; i++) {
		const gr3d_link_row *w = &rows[i];
		uint32_t v = w->reg < 16 ? GR3D_PUT(LINKER_INSTRUCTION_SEL, REG, w->reg)
		                         : GR3D_PUT(LINKER_INSTRUCTION_SEL, UNLINKED, 1);
		if (w->reg_back < 16)
			v |= GR3D_PUT(LINKER_INSTRUCTION_SEL, REG_BACK, w->reg_back) | GR3D_PUT(LINKER_INSTRUCTION_SEL, BACK, 1);
		if (w->flat)
			v |= GR3D_PUT(LINKER_INSTRUCTION_SEL, FLAT, 1);
		reg_stream_gr3d(s, (uint16_t)GR3D_REG_AT(LINKER_INSTRUCTION_SEL, i), v);
		reg_stream_gr3d(s, (uint16_t)GR3D_REG_AT(LINKER_INSTRUCTION_FMT, i), 0);   /* FP20 x, y, z, w */
	}
	uint32_t count = nrows ? nrows - 1 : 0;
	reg_stream_gr3d(s, GR3D_REG_CULL_FACE_LINKER_SETUP,
	                GR3D_PUT(CULL_FACE_LINKER_SETUP, COUNT_M1, count) | GR3D_PUT(CULL_FACE_LINKER_SETUP, CULL, cull) |
	                GR3D_PUT(CULL_FACE_LINKER_SETUP, FRONT_CW, front_ccw ? 0u : 1u) |
	                GR3D_PUT(CULL_FACE_LINKER_SETUP, TWO_SIDE, two_side ? 1u : 0u));
	reg_stream_gr3d(s, GR3D_REG_TRAM_SETUP,
	                GR3D_PUT(TRAM_SETUP, NUM_TRIS, setup_tram_slots(nrows)) | GR3D_PUT(TRAM_SETUP, TRI_ROWS, nrows));
}

/* The viewport registers of x, y, z. */
static const uint16_t VP_TRANSLATE[3] = { GR3D_REG_VIEWPORT_X_TRANSLATE, GR3D_REG_VIEWPORT_Y_TRANSLATE,
                                          GR3D_REG_VIEWPORT_Z_TRANSLATE };
static const uint16_t VP_SCALE[3] = { GR3D_REG_VIEWPORT_X_SCALE, GR3D_REG_VIEWPORT_Y_SCALE,
                                      GR3D_REG_VIEWPORT_Z_SCALE };

bool gr3d_regs_setup(const gr3d_regs *r, setup_state *su, uint16_t *flat_regs, ulp_diag *d)
{
	const uint32_t ls = r->raw[GR3D_REG_CULL_FACE_LINKER_SETUP];
	su->cull = (uint8_t)GR3D_GET(ls, CULL_FACE_LINKER_SETUP, CULL);
	if (su->cull > SETUP_CULL_BACK)
		su->cull = SETUP_CULL_NONE;
	su->front_ccw = !GR3D_GET(ls, CULL_FACE_LINKER_SETUP, FRONT_CW);
	su->two_side = GR3D_GET(ls, CULL_FACE_LINKER_SETUP, TWO_SIDE);
	unsigned rows = GR3D_GET(r->raw[GR3D_REG_TRAM_SETUP], TRAM_SETUP, TRI_ROWS);
	if (rows > GR3D_TRAM_ROWS)
		return ulp_diag_at(d, NULL, 0, 0, "TRAM_SETUP (0x%03x): %u rows per triangle, at most %d",
		                   GR3D_REG_TRAM_SETUP, rows, GR3D_TRAM_ROWS);
	su->ntram = rows;
	*flat_regs = 0;
	memset(su->tram_reg, 0xFF, sizeof su->tram_reg);
	memset(su->tram_reg_back, 0xFF, sizeof su->tram_reg_back);
	for (unsigned i = 0; i < rows; i++) {
		const uint32_t sel = r->raw[GR3D_REG_AT(LINKER_INSTRUCTION_SEL, i)];
		const uint32_t fmt = r->raw[GR3D_REG_AT(LINKER_INSTRUCTION_FMT, i)];
		if (fmt)
			return ulp_diag_at(d, NULL, 0, 0, "LINKER_INSTRUCTION (0x%03x): TRAM format 0x%x is not "
			                   "modelled (0: FP20 x, y, z, w)", GR3D_REG_AT(LINKER_INSTRUCTION_FMT, i), fmt);
		su->tram_reg[i] = GR3D_GET(sel, LINKER_INSTRUCTION_SEL, UNLINKED)
		                      ? 0xFF : (uint8_t)GR3D_GET(sel, LINKER_INSTRUCTION_SEL, REG);
		if (GR3D_GET(sel, LINKER_INSTRUCTION_SEL, BACK))
			su->tram_reg_back[i] = (uint8_t)GR3D_GET(sel, LINKER_INSTRUCTION_SEL, REG_BACK);
		if (GR3D_GET(sel, LINKER_INSTRUCTION_SEL, FLAT)) {
			if (su->tram_reg[i] < 16)
				*flat_regs |= (uint16_t)(1u << su->tram_reg[i]);
			if (su->tram_reg_back[i] < 16)
				*flat_regs |= (uint16_t)(1u << su->tram_reg_back[i]);
		}
	}
	/* the viewport: f32 words (exact for the replay's values that are floats) */
	for (unsigned k = 0; k < 3; k++) {
		float t, sc;
		uint32_t bt = r->raw[VP_TRANSLATE[k]], bs = r->raw[VP_SCALE[k]];
		memcpy(&t, &bt, sizeof t);
		memcpy(&sc, &bs, sizeof sc);
		su->vp_translate[k] = t;
		su->vp_scale[k] = sc;
	}
	const uint32_t h = r->raw[GR3D_REG_SCISSOR_HORIZ], v = r->raw[GR3D_REG_SCISSOR_VERT];
	su->scissor = GR3D_GET(h, SCISSOR, ON);
	su->sx0 = (int)GR3D_GET(h, SCISSOR, MIN);
	su->sx1 = (int)GR3D_GET(h, SCISSOR, MAX);
	su->sy0 = (int)GR3D_GET(v, SCISSOR, MIN);
	su->sy1 = (int)GR3D_GET(v, SCISSOR, MAX);
	return true;
}

/* ---- viewport and scissor (SCISSOR_*, VIEWPORT_*) ---- */

static uint32_t f32_bits(double v)
{
	float f = (float)v;
	uint32_t b;
	memcpy(&b, &f, sizeof b);
	return b;
}

void drv_gr3d_viewport(reg_stream *s, const double scale[3], const double translate[3])
{
	reg_stream_gr3d(s, GR3D_REG_VIEWPORT_X_TRANSLATE, f32_bits(translate[0]));
	reg_stream_gr3d(s, GR3D_REG_VIEWPORT_Y_TRANSLATE, f32_bits(translate[1]));
	reg_stream_gr3d(s, GR3D_REG_VIEWPORT_X_SCALE, f32_bits(scale[0]));
	reg_stream_gr3d(s, GR3D_REG_VIEWPORT_Y_SCALE, f32_bits(scale[1]));
	reg_stream_gr3d(s, GR3D_REG_VIEWPORT_Z_TRANSLATE, f32_bits(translate[2]));
	reg_stream_gr3d(s, GR3D_REG_VIEWPORT_Z_SCALE, f32_bits(scale[2]));
}

static uint32_t span(int lo, int hi)
{
	const int top = (int)ulp_bits_ones(GR3D_F_SCISSOR__MIN_W);
	lo = lo < 0 ? 0 : lo > top ? top : lo;
	hi = hi < 0 ? 0 : hi > top ? top : hi;
	return GR3D_PUT(SCISSOR, MIN, (uint32_t)lo) | GR3D_PUT(SCISSOR, MAX, (uint32_t)hi);
}

void drv_gr3d_scissor(reg_stream *s, bool on, const int rect[4])
{
	reg_stream_gr3d(s, GR3D_REG_SCISSOR_HORIZ, span(rect[0], rect[2]) | GR3D_PUT(SCISSOR, ON, on ? 1u : 0u));
	reg_stream_gr3d(s, GR3D_REG_SCISSOR_VERT, span(rect[1], rect[3]));
}

/* ---- texture units (TEXTURE_POINTER, TEXTURE_DESC1/2) ---- */

void drv_gr3d_texture(reg_stream *s, unsigned i, uint32_t pointer, const gr3d_sampler *sm,
                      uint32_t width, uint32_t height)
{
	i %= GR3D_SAMPLERS;
	double b = sm->lod_bias * 4096.0;
	b = b < -131072.0 ? -131072.0 : b > 131071.0 ? 131071.0 : b;
	uint32_t bias = (uint32_t)(int32_t)lround(b);                  /* s5.12 */
	uint32_t d1 = GR3D_PUT(TEXTURE_DESC1, MAG_LINEAR, sm->bilinear ? 1u : 0u) |
	              GR3D_PUT(TEXTURE_DESC1, MIN_FILTER, sm->min_filter) |
	              GR3D_PUT(TEXTURE_DESC1, MIP_LINEAR, sm->mip_linear ? 1u : 0u) |
	              GR3D_PUT(TEXTURE_DESC1, MIP_NONE, sm->mip_none ? 1u : 0u) |
	              GR3D_PUT(TEXTURE_DESC1, WRAP_S, sm->wrap) | GR3D_PUT(TEXTURE_DESC1, WRAP_T, sm->wrap_t) |
	              GR3D_PUT(TEXTURE_DESC1, WRAP_T_OWN, sm->wrap_t_own ? 1u : 0u) |
	              GR3D_PUT(TEXTURE_DESC1, FORMAT, sm->format) | GR3D_PUT(TEXTURE_DESC1, LOD_BIAS, bias);
	unsigned levels = sm->nlevels ? sm->nlevels : 1;
	uint32_t d2 = GR3D_PUT(TEXTURE_DESC2, WIDTH, width) | GR3D_PUT(TEXTURE_DESC2, HEIGHT, height) |
	              GR3D_PUT(TEXTURE_DESC2, LEVELS_M1, levels - 1);
	reg_stream_gr3d(s, (uint16_t)GR3D_REG_AT(TEXTURE_POINTER, i), pointer);
	reg_stream_gr3d(s, (uint16_t)GR3D_REG_AT(TEXTURE_DESC1, i), d1);
	reg_stream_gr3d(s, (uint16_t)GR3D_REG_AT(TEXTURE_DESC2, i), d2);
}

void gr3d_regs_texture(const gr3d_regs *r, unsigned i, gr3d_sampler *sm, uint32_t *pointer,
                       uint32_t *width, uint32_t *height)
{
	i %= GR3D_SAMPLERS;
	memset(sm, 0, sizeof *sm);
	const uint32_t d1 = r->raw[GR3D_REG_AT(TEXTURE_DESC1, i)], d2 = r->raw[GR3D_REG_AT(TEXTURE_DESC2, i)];
	*pointer = r->raw[GR3D_REG_AT(TEXTURE_POINTER, i)];
	sm->bilinear = GR3D_GET(d1, TEXTURE_DESC1, MAG_LINEAR);
	sm->min_filter = (uint8_t)GR3D_GET(d1, TEXTURE_DESC1, MIN_FILTER);
	sm->mip_linear = GR3D_GET(d1, TEXTURE_DESC1, MIP_LINEAR);
	sm->mip_none = GR3D_GET(d1, TEXTURE_DESC1, MIP_NONE);
	sm->wrap = (uint8_t)GR3D_GET(d1, TEXTURE_DESC1, WRAP_S);
	sm->wrap_t = (uint8_t)GR3D_GET(d1, TEXTURE_DESC1, WRAP_T);
	sm->wrap_t_own = GR3D_GET(d1, TEXTURE_DESC1, WRAP_T_OWN);
	sm->format = (uint8_t)GR3D_GET(d1, TEXTURE_DESC1, FORMAT);
	/* the signed field: sign-extend from its top bit */
	const uint32_t sign = 1u << (GR3D_F_TEXTURE_DESC1__LOD_BIAS_W - 1);
	int32_t bias = (int32_t)GR3D_GET(d1, TEXTURE_DESC1, LOD_BIAS);
	if ((uint32_t)bias & sign)
		bias -= (int32_t)(2 * sign);
	sm->lod_bias = (float)(bias / 4096.0);
	*width = GR3D_GET(d2, TEXTURE_DESC2, WIDTH);
	*height = GR3D_GET(d2, TEXTURE_DESC2, HEIGHT);
	sm->nlevels = (uint8_t)(GR3D_GET(d2, TEXTURE_DESC2, LEVELS_M1) + 1);
}

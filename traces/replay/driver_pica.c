#include "traces/replay/driver_pica.h"

#include <string.h>

#include "units/pica/pica_regs.h"
#include "units/geom/pica_vtx.h"

/* GPUREG_SH_OUTMAP_Oi component codes (3dbrew GPU/Internal Registers):
 * position 0x00-0x03, normal quaternion 0x04-0x07, colour 0x08-0x0B,
 * texcoord0 u,v 0x0C-0x0D, texcoord1 u,v 0x0E-0x0F, texcoord0 w 0x10,
 * view x,y,z 0x12-0x14, texcoord2 u,v 0x16-0x17, unused 0x1F. */
unsigned drv_pica_out_semantic(unsigned type, unsigned comp)
{
	switch (type) {
	case SHBIN_OUT_POSITION: return 0x00 + comp;
	case SHBIN_OUT_NORMALQUAT: return 0x04 + comp;
	case SHBIN_OUT_COLOR: return 0x08 + comp;
	case SHBIN_OUT_TEXCOORD0: return comp < 2 ? 0x0C + comp : 0x1F;
	case SHBIN_OUT_TEXCOORD1: return comp < 2 ? 0x0E + comp : 0x1F;
	case SHBIN_OUT_TEXCOORD0W: return 0x10;
	case SHBIN_OUT_VIEW: return comp < 3 ? 0x12 + comp : 0x1F;
	case SHBIN_OUT_TEXCOORD2: return comp < 2 ? 0x16 + comp : 0x1F;
	default: return 0x1F;
	}
}

static uint16_t base_of(bool gs) { return gs ? PICA_REG_GSH_BASE : PICA_REG_VSH_BASE; }

bool drv_pica_load_shader(reg_stream *s, const struct shbin *sh, unsigned dvle, ulp_diag *d)
{
	if (dvle >= sh->ndvle)
		return ulp_diag_at(d, NULL, 0, 0, "the SHBIN has no DVLE %u", dvle);
	const struct shbin_dvle *e = &sh->dvle[dvle];
	const bool gs = e->type == SHBIN_GS;
	const uint16_t b = base_of(gs);
	reg_stream_pica(s, PICA_REG_VSH_COM_MODE, 0xF, 1);
	reg_stream_pica(s, b + 0x1B, 0xF, 0);                       /* CODETRANSFER_INDEX */
	for (size_t i = 0; i < sh->ncode; i++)
		reg_stream_pica(s, b + 0x1C, 0xF, sh->code[i]);     /* CODETRANSFER_DATA */
	reg_stream_pica(s, b + 0x0F, 0xF, 1);                       /* CODETRANSFER_END */
	reg_stream_pica(s, b + 0x25, 0xF, 0);                       /* OPDESCS_INDEX */
	for (size_t i = 0; i < sh->nopdesc; i++)
		reg_stream_pica(s, b + 0x26, 0xF, sh->opdesc[i]);
	uint32_t bools = 0;
	for (size_t k = 0; k < e->nconsts; k++) {
		const struct shbin_const *c = &e->consts[k];
		if (c->type == SHBIN_CONST_FVEC && c->reg < 96) {
			/* the DVLE holds float24 bits: the packed mode, 3 words per vec4 */
			const uint32_t *v = c->data;
			reg_stream_pica(s, b + 0x10, 0xF, c->reg);
			reg_stream_pica(s, b + 0x11, 0xF, v[3] << 8 | v[2] >> 16);
			reg_stream_pica(s, b + 0x11, 0xF, (v[2] & 0xFFFF) << 16 | v[1] >> 8);
			reg_stream_pica(s, b + 0x11, 0xF, (v[1] & 0xFF) << 24 | v[0]);
		} else if (c->type == SHBIN_CONST_IVEC && c->reg < 4) {
			reg_stream_pica(s, b + 0x01 + c->reg, 0xF, c->data[0]);
		} else if (c->type == SHBIN_CONST_BOOL && c->reg < 16 && (c->data[0] & 1)) {
			bools |= 1u << c->reg;
		}
	}
	reg_stream_pica(s, b + 0x00, 0xF, 0x7FFF0000u | bools);     /* BOOLUNIFORM */
	reg_stream_pica(s, b + 0x0A, 0xF, 0x7FFF0000u | (e->main & 0xFFFF));
	/* output map: the mask, then one SH_OUTMAP_Ok per enabled register */
	uint32_t sem[16];
	uint16_t mask = 0;
	for (int r = 0; r < 16; r++)
		sem[r] = 0x1F1F1F1Fu;
	for (size_t k = 0; k < e->noutputs; k++) {
		const struct shbin_output *o = &e->outputs[k];
		if (o->reg >= 16)
			continue;
		mask |= (uint16_t)(1u << o->reg);
		for (unsigned c = 0; c < 4; c++) {
			if (!(o->mask & (1u << c)))
				continue;
			unsigned code = drv_pica_out_semantic(o->type, c);
			sem[o->reg] = (sem[o->reg] & ~(0xFFu << (8 * c))) | code << (8 * c);
		}
	}
	reg_stream_pica(s, b + 0x0D, 0xF, mask);                    /* OUTMAP_MASK */
	unsigned k = 0;
	for (unsigned r = 0; r < 16 && k < 7; r++)
		if (mask & (1u << r))
			reg_stream_pica(s, (uint16_t)(PICA_REG_OUTMAP_O0 + k++), 0xF, sem[r]);
	unsigned ninputs = (unsigned)__builtin_popcount(e->input_mask);
	reg_stream_pica(s, b + 0x09, 0xF, (gs ? 0x08000000u : 0xA0000000u) | ((ninputs ? ninputs : 1) - 1));
	return true;
}

void drv_pica_float_uniforms(reg_stream *s, bool gs, unsigned first, const float (*v)[4],
                             unsigned count)
{
	const uint16_t b = base_of(gs);
	reg_stream_pica(s, b + 0x10, 0xF, 0x80000000u | first);      /* f32 mode */
	for (unsigned i = 0; i < count; i++)
		for (int c = 3; c >= 0; c--) {                        /* w, z, y, x */
			uint32_t bits;
			memcpy(&bits, &v[i][c], sizeof bits);
			reg_stream_pica(s, b + 0x11, 0xF, bits);
		}
}

void drv_pica_attributes(reg_stream *s, bool gs, unsigned nattr, const uint8_t *reg)
{
	const uint16_t b = base_of(gs);
	uint32_t lo = 0, hi = 0;
	for (unsigned i = 0; i < nattr && i < 16; i++) {
		if (i < 8)
			lo |= (uint32_t)(reg[i] & 0xF) << (4 * i);
		else
			hi |= (uint32_t)(reg[i] & 0xF) << (4 * (i - 8));
	}
	reg_stream_pica(s, b + 0x09, 0xF, (gs ? 0x08000000u : 0xA0000000u) | ((nattr ? nattr : 1) - 1));
	reg_stream_pica(s, b + 0x0B, 0xF, lo);
	reg_stream_pica(s, b + 0x0C, 0xF, hi);
}

void drv_pica_geostage(reg_stream *s, bool gs_on, unsigned vs_outputs)
{
	reg_stream_pica(s, PICA_REG_GEOSTAGE_CONFIG, 0xF, gs_on ? 2 : 0);
	if (!gs_on)
		return;
	const uint32_t n = ((vs_outputs ? vs_outputs : 1) - 1) & 0xF;
	reg_stream_pica(s, PICA_REG_VSH_OUTMAP_TOTAL1, 0xF, n);
	reg_stream_pica(s, PICA_REG_VSH_OUTMAP_TOTAL2, 0xF, n);
	reg_stream_pica(s, PICA_REG_GSH_MISC0, 0xF, 0);
}

/* ---- attribute buffers and draws (units/geom/pica_vtx.h) ---- */

bool drv_pica_vertex_buffers(reg_stream *s, const drv_pica_attr *a, unsigned nattr, ulp_diag *d)
{
	if (nattr > VFETCH_MAX_ATTRS)
		return ulp_diag_at(d, NULL, 0, 0, "%u vertex elements: the PICA200 loads at most %d attributes",
		                   nattr, VFETCH_MAX_ATTRS);
	uint64_t fmt = 0;
	uint32_t unorm = 0;
	for (unsigned i = 0; i < nattr; i++) {
		if (a[i].stride > 255)
			return ulp_diag_at(d, NULL, 0, 0, "vertex element %u: a stride of %u bytes (the PICA200's "
			                   "attribute buffers have at most 255)", i, a[i].stride);
		fmt |= (uint64_t)((a[i].type & 3u) | (uint32_t)((a[i].ncomp - 1) & 3u) << 2) << (4 * i);
		unorm |= a[i].normalize ? 1u << i : 0u;
	}
	unsigned n = nattr ? nattr : 1;
	reg_stream_pica(s, PICA_REG_ATTRIBBUFFERS_LOC, 0xF, 0);
	reg_stream_pica(s, PICA_REG_ATTRIBBUFFERS_FORMAT_LOW, 0xF, (uint32_t)fmt);
	reg_stream_pica(s, PICA_REG_ATTRIBBUFFERS_FORMAT_HIGH, 0xF, (uint32_t)(fmt >> 32) | (uint32_t)(n - 1) << 28);
	for (unsigned j = 0; j < VFETCH_MAX_ATTRS; j++) {
		const bool used = j < nattr;
		reg_stream_pica(s, (uint16_t)(PICA_REG_ATTRIBBUFFER0 + 3 * j), 0xF, used ? a[j].addr & 0x0FFFFFFFu : 0);
		reg_stream_pica(s, (uint16_t)(PICA_REG_ATTRIBBUFFER0 + 3 * j + 1), 0xF, used ? j : 0);
		reg_stream_pica(s, (uint16_t)(PICA_REG_ATTRIBBUFFER0 + 3 * j + 2), 0xF,
		                used ? (a[j].stride & 0xFFu) << 16 | 1u << 28 : 0);
	}
	reg_stream_pica(s, PICA_REG_VSH_NUM_ATTR, 0xF, n - 1);
	reg_stream_pica(s, PICA_REG_ULP_ATTRIB_UNORM, 0xF, unorm);
	return true;
}

void drv_pica_draw(reg_stream *s, unsigned mode, uint32_t count, uint32_t first, uint32_t index_addr,
                   unsigned index_size)
{
	reg_stream_pica(s, PICA_REG_PRIMITIVE_CONFIG, 0x2, (mode & 3u) << 8);    /* byte 1: the mode only */
	reg_stream_pica(s, PICA_REG_NUMVERTICES, 0xF, count);
	reg_stream_pica(s, PICA_REG_VERTEX_OFFSET, 0xF, index_size ? 0 : first);
	if (index_size) {
		uint32_t kind = index_size == 2 ? 1u << 31 : index_size == 4 ? 1u << 30 : 0;
		reg_stream_pica(s, PICA_REG_INDEXBUFFER_CONFIG, 0xF, (index_addr & 0x0FFFFFFFu) | kind);
		reg_stream_pica(s, PICA_REG_DRAWELEMENTS, 0xF, 1);
	} else {
		reg_stream_pica(s, PICA_REG_DRAWARRAYS, 0xF, 1);
	}
}

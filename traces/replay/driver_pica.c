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
	case SHBIN_OUT_TEXCOORD0: return comp < 2 ? 0x0C + comp : PICA_OUTMAP_UNUSED;
	case SHBIN_OUT_TEXCOORD1: return comp < 2 ? 0x0E + comp : PICA_OUTMAP_UNUSED;
	case SHBIN_OUT_TEXCOORD0W: return 0x10;
	case SHBIN_OUT_VIEW: return comp < 3 ? 0x12 + comp : PICA_OUTMAP_UNUSED;
	case SHBIN_OUT_TEXCOORD2: return comp < 2 ? 0x16 + comp : PICA_OUTMAP_UNUSED;
	default: return PICA_OUTMAP_UNUSED;
	}
}

static uint16_t base_of(bool gs) { return gs ? PICA_REG_GSH_BASE : PICA_REG_VSH_BASE; }

/* INPUTBUFFER_CONFIG: the unit code libctru writes (pica200.md §6.1) and
 * the input attribute count. */
static uint32_t inputbuffer_config(bool gs, unsigned n)
{
	return PICA_PUT(SH_INPUTBUFFER_CONFIG, UNIT, gs ? 0x08u : 0xA0u) |
	       PICA_PUT(SH_INPUTBUFFER_CONFIG, COUNT_M1, (n ? n : 1) - 1);
}

bool drv_pica_load_shader(reg_stream *s, const struct shbin *sh, unsigned dvle, ulp_diag *d)
{
	if (dvle >= sh->ndvle)
		return ulp_diag_at(d, NULL, 0, 0, "the SHBIN has no DVLE %u", dvle);
	const struct shbin_dvle *e = &sh->dvle[dvle];
	const bool gs = e->type == SHBIN_GS;
	const uint16_t b = base_of(gs);
	reg_stream_pica(s, PICA_REG_VSH_COM_MODE, 0xF, PICA_PUT(VSH_COM_MODE, SEPARATE, 1));
	reg_stream_pica(s, b + PICA_SH_CODETRANSFER_INDEX, 0xF, 0);
	for (size_t i = 0; i < sh->ncode; i++)
		reg_stream_pica(s, b + PICA_SH_CODETRANSFER_DATA, 0xF, sh->code[i]);
	reg_stream_pica(s, b + PICA_SH_CODETRANSFER_END, 0xF, 1);
	reg_stream_pica(s, b + PICA_SH_OPDESCS_INDEX, 0xF, 0);
	for (size_t i = 0; i < sh->nopdesc; i++)
		reg_stream_pica(s, b + PICA_SH_OPDESCS_DATA, 0xF, sh->opdesc[i]);
	uint32_t bools = 0;
	for (size_t k = 0; k < e->nconsts; k++) {
		const struct shbin_const *c = &e->consts[k];
		if (c->type == SHBIN_CONST_FVEC && c->reg < 96) {
			/* the DVLE holds float24 bits: the packed mode, 3 words per vec4 */
			const uint32_t *v = c->data;
			reg_stream_pica(s, b + PICA_SH_FLOATUNIFORM_INDEX, 0xF, PICA_PUT(SH_FLOATUNIFORM_INDEX, INDEX, c->reg));
			reg_stream_pica(s, b + PICA_SH_FLOATUNIFORM_DATA, 0xF, v[3] << 8 | v[2] >> 16);
			reg_stream_pica(s, b + PICA_SH_FLOATUNIFORM_DATA, 0xF, (v[2] & 0xFFFF) << 16 | v[1] >> 8);
			reg_stream_pica(s, b + PICA_SH_FLOATUNIFORM_DATA, 0xF, (v[1] & 0xFF) << 24 | v[0]);
		} else if (c->type == SHBIN_CONST_IVEC && c->reg < PICA_N_SH_INTUNIFORM_I) {
			reg_stream_pica(s, b + PICA_SH_INTUNIFORM_I + c->reg, 0xF, c->data[0]);
		} else if (c->type == SHBIN_CONST_BOOL && c->reg < PICA_F_SH_BOOLUNIFORM__B_N && (c->data[0] & 1)) {
			bools |= PICA_PUTI(SH_BOOLUNIFORM, B, c->reg, 1);
		}
	}
	/* libctru's 0x7FFF in the high half of both */
	reg_stream_pica(s, b + PICA_SH_BOOLUNIFORM, 0xF, PICA_PUT(SH_BOOLUNIFORM, HIGH, 0x7FFF) | bools);
	reg_stream_pica(s, b + PICA_SH_ENTRYPOINT, 0xF,
	                PICA_PUT(SH_ENTRYPOINT, HIGH, 0x7FFF) | PICA_PUT(SH_ENTRYPOINT, ADDR, e->main));
	/* output map: the mask, then one SH_OUTMAP_Ok per enabled register */
	uint32_t sem[16] = { 0 };
	uint16_t mask = 0;
	for (int r = 0; r < 16; r++)
		for (unsigned c = 0; c < PICA_F_SH_OUTMAP_O__COMP_N; c++)
			sem[r] |= PICA_PUTI(SH_OUTMAP_O, COMP, c, PICA_OUTMAP_UNUSED);
	/* A GS emits only the registers the output map gives a semantic
	 * (units/pica/pica_regs.c): its dummy outputs (a clip vertex, back
	 * colours, varyings past texcoord2 for the Tegra linker) take the
	 * semantics it does not use (normal quaternion, view, then colour and
	 * texcoords), as a 3DS program passes a varying through a spare slot
	 * (pica200.md §1.1: the GS has o0-o6, one outmap slot each). */
	static const unsigned SPARE[] = { SHBIN_OUT_NORMALQUAT, SHBIN_OUT_VIEW, SHBIN_OUT_COLOR,
	                                  SHBIN_OUT_TEXCOORD0, SHBIN_OUT_TEXCOORD1, SHBIN_OUT_TEXCOORD2 };
	unsigned spare[6], nspare = 0, used = 0;
	for (size_t k = 0; k < e->noutputs; k++)
		used |= 1u << (e->outputs[k].type & 31);
	for (unsigned k = 0; gs && k < 6; k++)
		if (!(used & 1u << SPARE[k]))
			spare[nspare++] = SPARE[k];
	unsigned next_spare = 0;
	for (size_t k = 0; k < e->noutputs; k++) {
		const struct shbin_output *o = &e->outputs[k];
		if (o->reg >= 16)
			continue;
		mask |= (uint16_t)(1u << o->reg);
		const unsigned type = o->type == SHBIN_OUT_DUMMY && next_spare < nspare ? spare[next_spare++] : o->type;
		for (unsigned c = 0; c < 4; c++) {
			if (!(o->mask & (1u << c)))
				continue;
			unsigned code = drv_pica_out_semantic(type, c);
			sem[o->reg] = (sem[o->reg] & ~PICA_PUTI(SH_OUTMAP_O, COMP, c, 0xFFu)) |
			              PICA_PUTI(SH_OUTMAP_O, COMP, c, code);
		}
	}
	reg_stream_pica(s, b + PICA_SH_OUTMAP_MASK, 0xF, PICA_PUT(SH_OUTMAP_MASK, O, mask));
	unsigned k = 0;
	for (unsigned r = 0; r < 16 && k < PICA_N_SH_OUTMAP_O; r++)
		if (mask & (1u << r))
			reg_stream_pica(s, (uint16_t)PICA_REG_AT(SH_OUTMAP_O, k++), 0xF, sem[r]);
	unsigned ninputs = (unsigned)__builtin_popcount(e->input_mask);
	reg_stream_pica(s, b + PICA_SH_INPUTBUFFER_CONFIG, 0xF, inputbuffer_config(gs, ninputs));
	return true;
}

void drv_pica_float_uniforms(reg_stream *s, bool gs, unsigned first, const float (*v)[4],
                             unsigned count)
{
	const uint16_t b = base_of(gs);
	reg_stream_pica(s, b + PICA_SH_FLOATUNIFORM_INDEX, 0xF,
	                PICA_PUT(SH_FLOATUNIFORM_INDEX, F32, 1) | PICA_PUT(SH_FLOATUNIFORM_INDEX, INDEX, first));
	for (unsigned i = 0; i < count; i++)
		for (int c = 3; c >= 0; c--) {                        /* w, z, y, x */
			uint32_t bits;
			memcpy(&bits, &v[i][c], sizeof bits);
			reg_stream_pica(s, b + PICA_SH_FLOATUNIFORM_DATA, 0xF, bits);
		}
}

void drv_pica_attributes(reg_stream *s, bool gs, unsigned nattr, const uint8_t *reg)
{
	const uint16_t b = base_of(gs);
	uint32_t lo = 0, hi = 0;
	const unsigned per_word = PICA_F_ATTRIBUTES_PERMUTATION__REG_N;
	for (unsigned i = 0; i < nattr && i < 2 * per_word; i++) {
		if (i < per_word)
			lo |= PICA_PUTI(ATTRIBUTES_PERMUTATION, REG, i, reg[i]);
		else
			hi |= PICA_PUTI(ATTRIBUTES_PERMUTATION, REG, i - per_word, reg[i]);
	}
	reg_stream_pica(s, b + PICA_SH_INPUTBUFFER_CONFIG, 0xF, inputbuffer_config(gs, nattr));
	reg_stream_pica(s, b + PICA_SH_ATTRIBUTES_PERMUTATION_LOW, 0xF, lo);
	reg_stream_pica(s, b + PICA_SH_ATTRIBUTES_PERMUTATION_HIGH, 0xF, hi);
}

void drv_pica_geostage(reg_stream *s, bool gs_on, unsigned vs_outputs)
{
	reg_stream_pica(s, PICA_REG_GEOSTAGE_CONFIG, 0xF, PICA_PUT(GEOSTAGE_CONFIG, MODE, gs_on ? 2 : 0));
	if (!gs_on)
		return;
	const uint32_t n = PICA_PUT(OUTMAP_TOTAL, COUNT_M1, (vs_outputs ? vs_outputs : 1) - 1);
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
	uint32_t lo = 0, hi = 0, unorm = 0;
	for (unsigned i = 0; i < nattr; i++) {
		if (a[i].stride > 255)
			return ulp_diag_at(d, NULL, 0, 0, "vertex element %u: a stride of %u bytes (the PICA200's "
			                   "attribute buffers have at most 255)", i, a[i].stride);
		const uint32_t nib = PICA_PUT(ATTR_FORMAT, TYPE, a[i].type) | PICA_PUT(ATTR_FORMAT, COMPS_M1, a[i].ncomp - 1);
		if (i < PICA_F_ATTRIBBUFFERS_FORMAT_LOW__ATTR_N)
			lo |= PICA_PUTI(ATTRIBBUFFERS_FORMAT_LOW, ATTR, i, nib);
		else
			hi |= PICA_PUTI(ATTRIBBUFFERS_FORMAT_HIGH, ATTR, i - PICA_F_ATTRIBBUFFERS_FORMAT_LOW__ATTR_N, nib);
		unorm |= PICA_PUTI(ULP_ATTRIB_UNORM, ATTR, i, a[i].normalize ? 1u : 0u);
	}
	unsigned n = nattr ? nattr : 1;
	reg_stream_pica(s, PICA_REG_ATTRIBBUFFERS_LOC, 0xF, 0);
	reg_stream_pica(s, PICA_REG_ATTRIBBUFFERS_FORMAT_LOW, 0xF, lo);
	reg_stream_pica(s, PICA_REG_ATTRIBBUFFERS_FORMAT_HIGH, 0xF,
	                hi | PICA_PUT(ATTRIBBUFFERS_FORMAT_HIGH, COUNT_M1, n - 1));
	for (unsigned j = 0; j < VFETCH_MAX_ATTRS; j++) {
		const bool used = j < nattr;
		/* buffer j holds attribute j alone: one component */
		reg_stream_pica(s, (uint16_t)PICA_REG_AT(ATTRIBBUFFER_OFFSET, j), 0xF,
		                used ? PICA_PUT(ATTRIBBUFFER_OFFSET, OFFSET, a[j].addr) : 0);
		reg_stream_pica(s, (uint16_t)PICA_REG_AT(ATTRIBBUFFER_CONFIG1, j), 0xF,
		                used ? PICA_PUTI(ATTRIBBUFFER_CONFIG1, COMP, 0, j) : 0);
		reg_stream_pica(s, (uint16_t)PICA_REG_AT(ATTRIBBUFFER_CONFIG2, j), 0xF,
		                used ? PICA_PUT(ATTRIBBUFFER_CONFIG2, STRIDE, a[j].stride) |
		                       PICA_PUT(ATTRIBBUFFER_CONFIG2, COUNT, 1) : 0);
	}
	reg_stream_pica(s, PICA_REG_VSH_NUM_ATTR, 0xF, PICA_PUT(VSH_NUM_ATTR, COUNT_M1, n - 1));
	reg_stream_pica(s, PICA_REG_ULP_ATTRIB_UNORM, 0xF, unorm);
	return true;
}

void drv_pica_draw(reg_stream *s, unsigned mode, uint32_t count, uint32_t first, uint32_t index_addr,
                   unsigned index_size)
{
	/* byte 1: the mode only */
	reg_stream_pica(s, PICA_REG_PRIMITIVE_CONFIG, 0x2, PICA_PUT(PRIMITIVE_CONFIG, MODE, mode));
	reg_stream_pica(s, PICA_REG_NUMVERTICES, 0xF, count);
	reg_stream_pica(s, PICA_REG_VERTEX_OFFSET, 0xF, index_size ? 0 : first);
	if (index_size) {
		uint32_t kind = index_size == 2 ? PICA_PUT(INDEXBUFFER_CONFIG, U16, 1)
		              : index_size == 4 ? PICA_PUT(INDEXBUFFER_CONFIG, U32, 1) : 0;
		reg_stream_pica(s, PICA_REG_INDEXBUFFER_CONFIG, 0xF, PICA_PUT(INDEXBUFFER_CONFIG, OFFSET, index_addr) | kind);
		reg_stream_pica(s, PICA_REG_DRAWELEMENTS, 0xF, 1);
	} else {
		reg_stream_pica(s, PICA_REG_DRAWARRAYS, 0xF, 1);
	}
}

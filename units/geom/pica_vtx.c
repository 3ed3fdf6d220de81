/* The PICA200 attribute-buffer and draw registers (pica_vtx.h). */
#include "units/geom/pica_vtx.h"

#include <string.h>

bool pica_regs_draw(const pica_regs *r, bool indexed, vfetch_setup *f, enum prim_mode *mode,
                    uint32_t *count, ulp_diag *d)
{
	const uint32_t *raw = r->raw;
	/* base address >> 3 in the field: a 16-byte unit */
	const uint32_t base = PICA_GET(raw[PICA_REG_ATTRIBBUFFERS_LOC], ATTRIBBUFFERS_LOC, BASE_DIV16) << 4;
	const uint32_t lo = raw[PICA_REG_ATTRIBBUFFERS_FORMAT_LOW], hi = raw[PICA_REG_ATTRIBBUFFERS_FORMAT_HIGH];
	f->nattr = PICA_GET(hi, ATTRIBBUFFERS_FORMAT_HIGH, COUNT_M1) + 1;
	if (f->nattr > VFETCH_MAX_ATTRS)
		return ulp_diag_at(d, NULL, 0, 0, "ATTRIBBUFFERS_FORMAT_HIGH (0x%03x) configures %u attributes; the "
		                   "PICA200 loads at most %d", PICA_REG_ATTRIBBUFFERS_FORMAT_HIGH, f->nattr,
		                   VFETCH_MAX_ATTRS);
	const unsigned per_lo = PICA_F_ATTRIBBUFFERS_FORMAT_LOW__ATTR_N;
	for (unsigned a = 0; a < f->nattr; a++) {
		vfetch_attr *at = &f->attr[a];
		memset(at, 0, sizeof *at);                /* address 0: no buffer, reads 0, 0, 0, 1 */
		const uint32_t nib = a < per_lo ? PICA_GETI(lo, ATTRIBBUFFERS_FORMAT_LOW, ATTR, a)
		                                : PICA_GETI(hi, ATTRIBBUFFERS_FORMAT_HIGH, ATTR, a - per_lo);
		at->type = (uint8_t)PICA_GET(nib, ATTR_FORMAT, TYPE);
		at->ncomp = (uint8_t)(PICA_GET(nib, ATTR_FORMAT, COMPS_M1) + 1);
		at->reg = (uint8_t)pica_regs_attr_reg(&r->vs, a);
		at->normalize = PICA_GETI(raw[PICA_REG_ULP_ATTRIB_UNORM], ULP_ATTRIB_UNORM, ATTR, a);
	}
	static const uint8_t SIZE[4] = { 1, 1, 2, 4 };
	const unsigned per_c1 = PICA_F_ATTRIBBUFFER_CONFIG1__COMP_N;
	for (unsigned j = 0; j < VFETCH_MAX_ATTRS; j++) {
		const uint32_t c1 = raw[PICA_REG_AT(ATTRIBBUFFER_CONFIG1, j)], c2 = raw[PICA_REG_AT(ATTRIBBUFFER_CONFIG2, j)];
		const unsigned ncomp = PICA_GET(c2, ATTRIBBUFFER_CONFIG2, COUNT);
		uint32_t at = base + PICA_GET(raw[PICA_REG_AT(ATTRIBBUFFER_OFFSET, j)], ATTRIBBUFFER_OFFSET, OFFSET);
		for (unsigned c = 0; c < ncomp; c++) {
			unsigned a = c < per_c1 ? PICA_GETI(c1, ATTRIBBUFFER_CONFIG1, COMP, c)
			                        : PICA_GETI(c2, ATTRIBBUFFER_CONFIG2, COMP, c - per_c1);
			if (a >= 12) {                      /* padding: 4, 8, 12 or 16 bytes */
				at += 4 * (a - 11);
				continue;
			}
			if (a >= f->nattr || PICA_GETI(hi, ATTRIBBUFFERS_FORMAT_HIGH, FIXED, a))
				return ulp_diag_at(d, NULL, 0, 0, "attribute buffer %u names attribute %u, which is %s", j,
				                   a, a >= f->nattr ? "not configured" : "a fixed attribute");
			f->attr[a].addr = at;
			f->attr[a].stride = PICA_GET(c2, ATTRIBBUFFER_CONFIG2, STRIDE);
			at += (uint32_t)f->attr[a].ncomp * SIZE[f->attr[a].type];
		}
	}
	f->first = raw[PICA_REG_VERTEX_OFFSET];
	f->index_size = 0;
	if (indexed) {
		const uint32_t ib = raw[PICA_REG_INDEXBUFFER_CONFIG];
		f->index_addr = base + PICA_GET(ib, INDEXBUFFER_CONFIG, OFFSET);
		f->index_size = PICA_GET(ib, INDEXBUFFER_CONFIG, U16) ? 2 : PICA_GET(ib, INDEXBUFFER_CONFIG, U32) ? 4 : 1;
		f->first = 0;
	}
	*count = raw[PICA_REG_NUMVERTICES];
	unsigned m = PICA_GET(raw[PICA_REG_PRIMITIVE_CONFIG], PRIMITIVE_CONFIG, MODE);
	if (m == 3 && !pica_regs_gs_on(r))
		return ulp_diag_at(d, NULL, 0, 0, "PRIMITIVE_CONFIG (0x%03x): mode 3 (geometry primitives) without "
		                   "a geometry shader (GEOSTAGE_CONFIG 0x%03x)", PICA_REG_PRIMITIVE_CONFIG,
		                   PICA_REG_GEOSTAGE_CONFIG);
	*mode = m == 0 ? PRIM_TRIANGLES : m == 1 ? PRIM_TRIANGLE_STRIP : m == 2 ? PRIM_TRIANGLE_FAN : PRIM_GEOMETRY;
	return true;
}

bool pica_regs_pos_reg(const pica_regs *r, uint8_t *reg)
{
	const uint32_t mask = PICA_GET(r->vs.raw[PICA_SH_OUTMAP_MASK], SH_OUTMAP_MASK, O);
	unsigned k = 0;
	for (unsigned o = 0; o < 16 && k < PICA_N_SH_OUTMAP_O; o++) {
		if (!(mask & (1u << o)))
			continue;
		if (PICA_GETI(r->raw[PICA_REG_AT(SH_OUTMAP_O, k)], SH_OUTMAP_O, COMP, 0) == PICA_OUTMAP_POSITION_X) {
			*reg = (uint8_t)o;
			return true;
		}
		k++;
	}
	return false;
}

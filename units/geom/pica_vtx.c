/* The PICA200 attribute-buffer and draw registers (pica_vtx.h). */
#include "units/geom/pica_vtx.h"

#include <string.h>

bool pica_regs_draw(const pica_regs *r, bool indexed, vfetch_setup *f, enum prim_mode *mode,
                    uint32_t *count, ulp_diag *d)
{
	const uint32_t *raw = r->raw;
	const uint32_t base = ((raw[PICA_REG_ATTRIBBUFFERS_LOC] >> 1) & 0x0FFFFFFFu) << 4;
	const uint32_t hi = raw[PICA_REG_ATTRIBBUFFERS_FORMAT_HIGH];
	const uint64_t fmt = raw[PICA_REG_ATTRIBBUFFERS_FORMAT_LOW] | (uint64_t)(hi & 0xFFFFu) << 32;
	f->nattr = (hi >> 28) + 1;
	if (f->nattr > VFETCH_MAX_ATTRS)
		return ulp_diag_at(d, NULL, 0, 0, "ATTRIBBUFFERS_FORMAT_HIGH (0x202) configures %u attributes; the "
		                   "PICA200 loads at most %d", f->nattr, VFETCH_MAX_ATTRS);
	for (unsigned a = 0; a < f->nattr; a++) {
		vfetch_attr *at = &f->attr[a];
		memset(at, 0, sizeof *at);                /* address 0: no buffer, reads 0, 0, 0, 1 */
		at->type = (uint8_t)((fmt >> (4 * a)) & 3u);
		at->ncomp = (uint8_t)(((fmt >> (4 * a + 2)) & 3u) + 1);
		at->reg = (uint8_t)pica_regs_attr_reg(&r->vs, a);
		at->normalize = (raw[PICA_REG_ULP_ATTRIB_UNORM] >> a) & 1u;
	}
	static const uint8_t SIZE[4] = { 1, 1, 2, 4 };
	for (unsigned j = 0; j < VFETCH_MAX_ATTRS; j++) {
		const uint32_t c1 = raw[PICA_REG_ATTRIBBUFFER0 + 3 * j + 1], c2 = raw[PICA_REG_ATTRIBBUFFER0 + 3 * j + 2];
		const unsigned ncomp = c2 >> 28;
		uint32_t at = base + (raw[PICA_REG_ATTRIBBUFFER0 + 3 * j] & 0x0FFFFFFFu);
		for (unsigned c = 0; c < ncomp; c++) {
			unsigned a = (unsigned)(((c < 8 ? c1 >> (4 * c) : c2 >> (4 * (c - 8)))) & 15u);
			if (a >= 12) {                      /* padding: 4, 8, 12 or 16 bytes */
				at += 4 * (a - 11);
				continue;
			}
			if (a >= f->nattr || ((hi >> 16) >> a) & 1u)
				return ulp_diag_at(d, NULL, 0, 0, "attribute buffer %u names attribute %u, which is %s", j,
				                   a, a >= f->nattr ? "not configured" : "a fixed attribute");
			f->attr[a].addr = at;
			f->attr[a].stride = (c2 >> 16) & 0xFFu;
			at += (uint32_t)f->attr[a].ncomp * SIZE[f->attr[a].type];
		}
	}
	f->first = raw[PICA_REG_VERTEX_OFFSET];
	f->index_size = 0;
	if (indexed) {
		const uint32_t ib = raw[PICA_REG_INDEXBUFFER_CONFIG];
		f->index_addr = base + (ib & 0x0FFFFFFFu);
		f->index_size = ib >> 31 ? 2 : (ib >> 30) & 1u ? 4 : 1;
		f->first = 0;
	}
	*count = raw[PICA_REG_NUMVERTICES];
	unsigned m = (raw[PICA_REG_PRIMITIVE_CONFIG] >> 8) & 3u;
	if (m == 3 && !pica_regs_gs_on(r))
		return ulp_diag_at(d, NULL, 0, 0, "PRIMITIVE_CONFIG (0x25e): mode 3 (geometry primitives) without "
		                   "a geometry shader (GEOSTAGE_CONFIG 0x229)");
	*mode = m == 0 ? PRIM_TRIANGLES : m == 1 ? PRIM_TRIANGLE_STRIP : m == 2 ? PRIM_TRIANGLE_FAN : PRIM_GEOMETRY;
	return true;
}

bool pica_regs_pos_reg(const pica_regs *r, uint8_t *reg)
{
	const uint32_t mask = r->vs.raw[0x0D] & 0xFFFF;
	unsigned k = 0;
	for (unsigned o = 0; o < 16 && k < 7; o++) {
		if (!(mask & (1u << o)))
			continue;
		if ((r->raw[PICA_REG_OUTMAP_O0 + k] & 0x1F) == 0x00) {
			*reg = (uint8_t)o;
			return true;
		}
		k++;
	}
	return false;
}

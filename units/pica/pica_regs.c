#include "units/pica/pica_regs.h"

#include <string.h>

void pica_regs_init(pica_regs *r, const ulp_config *cfg)
{
	memset(r, 0, sizeof *r);
	r->uniform_round = cfg->f24_uniform_round;
}

void pica_unpack_f24x4(const uint32_t w[3], uint32_t out[4])
{
	out[3] = w[0] >> 8;
	out[2] = (w[0] & 0xFF) << 16 | w[1] >> 16;
	out[1] = (w[1] & 0xFFFF) << 8 | w[2] >> 24;
	out[0] = w[2] & 0xFFFFFF;
}

static uint32_t byte_mask(uint32_t mask)
{
	uint32_t m = 0;
	for (int b = 0; b < 4; b++)
		if (mask & (1u << b))
			m |= 0xFFu << (8 * b);
	return m;
}

/* A completed float-uniform word group: one vec4 at the index, which then
 * advances; indices >= 96 are ignored (Azahar: "ignored on real HW"). */
static void float_word(pica_sh_regs *b, uint32_t value, enum ulp_round round)
{
	b->float_words[b->float_nwords++] = value;
	unsigned need = b->float_f32 ? 4 : 3;
	if (b->float_nwords < need)
		return;
	b->float_nwords = 0;
	if (b->float_index < 96) {
		pica_vec4 *c = &b->unif.c[b->float_index];
		if (b->float_f32) {          /* words arrive w, z, y, x */
			for (int k = 0; k < 4; k++) {
				float f;
				uint32_t bits = b->float_words[3 - k];
				memcpy(&f, &bits, sizeof f);
				c->c[k] = f24_decode(f24_encode(f, round));
			}
		} else {
			uint32_t xyzw[4];
			pica_unpack_f24x4(b->float_words, xyzw);
			for (int k = 0; k < 4; k++)
				c->c[k] = f24_decode(xyzw[k]);
		}
	}
	b->float_index++;
}

static bool block_write(pica_sh_regs *b, unsigned off, uint32_t mask, uint32_t value,
                        enum ulp_round round, uint32_t reg, ulp_diag *d)
{
	const bool fifo = (off >= 0x11 && off <= 0x18) || (off >= 0x1C && off <= 0x23) ||
	                  (off >= 0x26 && off <= 0x2D);
	if (fifo && mask != 0xF)
		return ulp_diag_at(d, NULL, 0, 0,
		                   "register 0x%03x: byte mask 0x%x on an upload FIFO is not modelled", reg, mask);
	uint32_t bm = byte_mask(mask);
	b->raw[off] = (b->raw[off] & ~bm) | (value & bm);
	const uint32_t v = b->raw[off];
	if (off == 0x00) {
		for (int i = 0; i < 16; i++)
			b->unif.b[i] = (v >> i) & 1;
	} else if (off >= 0x01 && off <= 0x04) {
		for (int k = 0; k < 4; k++)
			b->unif.i[off - 1][k] = (uint8_t)(v >> (8 * k));
	} else if (off == 0x10) {
		b->float_index = v & 0xFF;
		b->float_f32 = v >> 31;
		b->float_nwords = 0;
	} else if (off >= 0x11 && off <= 0x18) {
		float_word(b, value, round);
		b->uploads++;
	} else if (off == 0x1B) {
		b->code_index = v & 0xFFF;
	} else if (off >= 0x1C && off <= 0x23) {
		if (b->code_index >= PICA_CODE_MAX)
			return ulp_diag_at(d, NULL, 0, 0, "register 0x%03x: code upload past word 0x%x", reg,
			                   PICA_CODE_MAX - 1);
		b->code[b->code_index++] = value;
		if (b->code_index > b->code_words)
			b->code_words = b->code_index;
		b->uploads++;
	} else if (off == 0x25) {
		b->opdesc_index = v & 0x7F;
	} else if (off >= 0x26 && off <= 0x2D) {
		if (b->opdesc_index >= PICA_OPDESC_MAX)
			return ulp_diag_at(d, NULL, 0, 0, "register 0x%03x: operand descriptor upload past entry %u",
			                   reg, PICA_OPDESC_MAX - 1);
		b->opdesc[b->opdesc_index++] = value;
		if (b->opdesc_index > b->opdesc_count)
			b->opdesc_count = b->opdesc_index;
		b->uploads++;
	}
	return true;
}

bool pica_regs_write(pica_regs *r, uint32_t reg, uint32_t mask, uint32_t value, ulp_diag *d)
{
	if (reg >= PICA_REG_COUNT)
		return ulp_diag_at(d, NULL, 0, 0, "register 0x%x is outside the PICA register space (0x000-0x2ff)",
		                   reg);
	if (mask > 0xF)
		return ulp_diag_at(d, NULL, 0, 0, "register 0x%03x: byte mask 0x%x has more than 4 bits", reg, mask);
	uint32_t bm = byte_mask(mask);
	r->raw[reg] = (r->raw[reg] & ~bm) | (value & bm);
	if (reg >= PICA_REG_VSH_BASE && reg < PICA_REG_VSH_BASE + PICA_REG_BLOCK_SIZE) {
		unsigned off = reg - PICA_REG_VSH_BASE;
		if (!block_write(&r->vs, off, mask, value, r->uniform_round, reg, d))
			return false;
		/* VSH_COM_MODE = 0: VS uploads reach the GS unit too (pica200.md §4) */
		if ((r->raw[PICA_REG_VSH_COM_MODE] & 1) == 0)
			return block_write(&r->gs, off, mask, value, r->uniform_round, reg, d);
		return true;
	}
	if (reg >= PICA_REG_GSH_BASE && reg < PICA_REG_GSH_BASE + PICA_REG_BLOCK_SIZE)
		return block_write(&r->gs, reg - PICA_REG_GSH_BASE, mask, value, r->uniform_round, reg, d);
	return true;
}

unsigned pica_regs_attr_reg(const pica_sh_regs *b, unsigned attr)
{
	uint32_t w = attr < 8 ? b->raw[0x0B] : b->raw[0x0C];
	return (w >> (4 * (attr & 7))) & 0xF;
}

unsigned pica_regs_attr_count(const pica_sh_regs *b) { return (b->raw[0x09] & 0xF) + 1; }

bool pica_regs_program(const pica_regs *r, bool gs, const ulp_config *cfg, pica_program *out,
                       ulp_diag *d)
{
	const pica_sh_regs *b = gs ? &r->gs : &r->vs;
	pica_program_desc desc = { .entry = b->raw[0x0A] & 0xFFFF, .end = b->code_words, .is_gs = gs };
	/* The k-th enabled output register takes SH_OUTMAP_Ok's semantics; a
	 * component whose semantic is 0x1F is not configured. */
	const uint32_t mask = b->raw[0x0D] & 0xFFFF;
	/* With a GS in use the output map describes the GS's outputs; the VS's
	 * whole enabled registers go to the GS input buffer, and which of their
	 * components must be written is not public: none is required. */
	const bool vs_to_gs = !gs && pica_regs_gs_on(r);
	unsigned k = 0;
	for (unsigned reg = 0; reg < 16 && !vs_to_gs; reg++) {
		if (!(mask & (1u << reg)))
			continue;
		uint32_t sem = k < 7 ? r->raw[PICA_REG_OUTMAP_O0 + k] : 0x1F1F1F1Fu;
		for (int c = 0; c < 4; c++)
			if (((sem >> (8 * c)) & 0x1F) != 0x1F)
				desc.out_need[reg] |= (uint8_t)(1u << c);
		k++;
	}
	if (!b->code_words)
		return ulp_diag_at(d, NULL, 0, 0, "no %s code has been uploaded", gs ? "geometry" : "vertex");
	if (gs && r->raw[PICA_REG_GSH_MISC0] != 0)
		return ulp_diag_at(d, NULL, 0, 0, "GSH_MISC0 = 0x%x: only the point mode (0) is modelled",
		                   r->raw[PICA_REG_GSH_MISC0]);
	desc.gs_mode = SHBIN_GS_POINT;
	return pica_program_from_code(out, b->code, b->code_words, b->opdesc, b->opdesc_count, &desc, cfg, d);
}

/* Shader block offsets (pica_regs.h); ORDER: offset. */
static const struct { uint8_t off, span; const char *name; } BLOCK[] = {
	{ 0x00, 1, "BOOLUNIFORM" }, { 0x01, 4, "INTUNIFORM_I" }, { 0x09, 1, "INPUTBUFFER_CONFIG" },
	{ 0x0A, 1, "ENTRYPOINT" }, { 0x0B, 1, "ATTRIBUTES_PERMUTATION_LOW" },
	{ 0x0C, 1, "ATTRIBUTES_PERMUTATION_HIGH" }, { 0x0D, 1, "OUTMAP_MASK" },
	{ 0x0F, 1, "CODETRANSFER_END" }, { 0x10, 1, "FLOATUNIFORM_INDEX" },
	{ 0x11, 8, "FLOATUNIFORM_DATA" }, { 0x1B, 1, "CODETRANSFER_INDEX" },
	{ 0x1C, 8, "CODETRANSFER_DATA" }, { 0x25, 1, "OPDESCS_INDEX" }, { 0x26, 8, "OPDESCS_DATA" },
};

const char *pica_reg_name(uint16_t reg, char *buf, size_t n)
{
	if (reg >= PICA_REG_OUTMAP_O0 && reg < PICA_REG_OUTMAP_O0 + 7) {
		snprintf(buf, n, "SH_OUTMAP_O%u", reg - PICA_REG_OUTMAP_O0);
		return buf;
	}
	if (reg == PICA_REG_VSH_COM_MODE)
		return "VSH_COM_MODE";
	if (reg == PICA_REG_GEOSTAGE_CONFIG || reg == PICA_REG_GSH_MISC0)
		return reg == PICA_REG_GSH_MISC0 ? "GSH_MISC0" : "GEOSTAGE_CONFIG";
	if (reg == PICA_REG_VSH_OUTMAP_TOTAL1 || reg == PICA_REG_VSH_OUTMAP_TOTAL2)
		return reg == PICA_REG_VSH_OUTMAP_TOTAL1 ? "VSH_OUTMAP_TOTAL1" : "VSH_OUTMAP_TOTAL2";
	/* attribute buffers and draws (units/geom/pica_vtx.h) */
	static const struct { uint16_t reg; const char *name; } DRAW[] = {
		{ 0x200, "ATTRIBBUFFERS_LOC" }, { 0x201, "ATTRIBBUFFERS_FORMAT_LOW" },
		{ 0x202, "ATTRIBBUFFERS_FORMAT_HIGH" }, { 0x227, "INDEXBUFFER_CONFIG" }, { 0x228, "NUMVERTICES" },
		{ 0x22A, "VERTEX_OFFSET" }, { 0x22E, "DRAWARRAYS" }, { 0x22F, "DRAWELEMENTS" },
		{ 0x242, "VSH_NUM_ATTR" }, { 0x25E, "PRIMITIVE_CONFIG" }, { 0x2F0, "ULP_ATTRIB_UNORM" },
	};
	for (size_t i = 0; i < sizeof DRAW / sizeof DRAW[0]; i++)
		if (reg == DRAW[i].reg)
			return DRAW[i].name;
	if (reg >= 0x203 && reg < 0x203 + 3 * 12) {
		static const char *const PART[3] = { "OFFSET", "CONFIG1", "CONFIG2" };
		snprintf(buf, n, "ATTRIBBUFFER%u_%s", (reg - 0x203) / 3, PART[(reg - 0x203) % 3]);
		return buf;
	}
	const char *unit = NULL;
	unsigned off = 0;
	if (reg >= PICA_REG_GSH_BASE && reg < PICA_REG_GSH_BASE + PICA_REG_BLOCK_SIZE)
		unit = "GSH", off = reg - PICA_REG_GSH_BASE;
	else if (reg >= PICA_REG_VSH_BASE && reg < PICA_REG_VSH_BASE + PICA_REG_BLOCK_SIZE)
		unit = "VSH", off = reg - PICA_REG_VSH_BASE;
	if (!unit)
		return NULL;
	for (size_t i = 0; i < sizeof BLOCK / sizeof BLOCK[0]; i++) {
		if (off < BLOCK[i].off || off >= (unsigned)BLOCK[i].off + BLOCK[i].span)
			continue;
		if (BLOCK[i].span == 4)
			snprintf(buf, n, "%s_%s%u", unit, BLOCK[i].name, off - BLOCK[i].off);
		else
			snprintf(buf, n, "%s_%s", unit, BLOCK[i].name);
		return buf;
	}
	return NULL;
}

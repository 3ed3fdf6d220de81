#include "units/pica/pica_regs.h"

#include <string.h>

void pica_regs_init(pica_regs *r, const ulp_config *cfg)
{
	memset(r, 0, sizeof *r);
	r->uniform_round = cfg->f24_uniform_round;
	r->uniform_exact = cfg->arith == ULP_ARITH_EXACT;
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
static void float_word(pica_sh_regs *b, uint32_t value, enum ulp_round round, bool exact)
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
				c->c[k] = f24_of_f32(f, round, exact);
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
                        enum ulp_round round, bool exact, uint32_t reg, ulp_diag *d)
{
	const bool float_data = off >= PICA_SH_FLOATUNIFORM_DATA &&
	                        off < PICA_SH_FLOATUNIFORM_DATA + PICA_N_SH_FLOATUNIFORM_DATA;
	const bool code_data = off >= PICA_SH_CODETRANSFER_DATA &&
	                       off < PICA_SH_CODETRANSFER_DATA + PICA_N_SH_CODETRANSFER_DATA;
	const bool opdesc_data = off >= PICA_SH_OPDESCS_DATA && off < PICA_SH_OPDESCS_DATA + PICA_N_SH_OPDESCS_DATA;
	const bool fifo = float_data || code_data || opdesc_data;
	if (fifo && mask != 0xF)
		return ulp_diag_at(d, NULL, 0, 0,
		                   "register 0x%03x: byte mask 0x%x on an upload FIFO is not modelled", reg, mask);
	uint32_t bm = byte_mask(mask);
	b->raw[off] = (b->raw[off] & ~bm) | (value & bm);
	const uint32_t v = b->raw[off];
	if (off == PICA_SH_BOOLUNIFORM) {
		for (int i = 0; i < PICA_F_SH_BOOLUNIFORM__B_N; i++)
			b->unif.b[i] = PICA_GETI(v, SH_BOOLUNIFORM, B, i);
	} else if (off >= PICA_SH_INTUNIFORM_I && off < PICA_SH_INTUNIFORM_I + PICA_N_SH_INTUNIFORM_I) {
		for (int k = 0; k < PICA_F_SH_INTUNIFORM_I__COMP_N; k++)
			b->unif.i[off - PICA_SH_INTUNIFORM_I][k] = (uint8_t)PICA_GETI(v, SH_INTUNIFORM_I, COMP, k);
	} else if (off == PICA_SH_FLOATUNIFORM_INDEX) {
		b->float_index = PICA_GET(v, SH_FLOATUNIFORM_INDEX, INDEX);
		b->float_f32 = PICA_GET(v, SH_FLOATUNIFORM_INDEX, F32);
		b->float_nwords = 0;
	} else if (float_data) {
		float_word(b, value, round, exact);
		b->uploads++;
	} else if (off == PICA_SH_CODETRANSFER_INDEX) {
		b->code_index = PICA_GET(v, SH_CODETRANSFER_INDEX, INDEX);
	} else if (code_data) {
		if (b->code_index >= PICA_CODE_MAX)
			return ulp_diag_at(d, NULL, 0, 0, "register 0x%03x: code upload past word 0x%x", reg,
			                   PICA_CODE_MAX - 1);
		b->code[b->code_index++] = value;
		if (b->code_index > b->code_words)
			b->code_words = b->code_index;
		b->uploads++;
	} else if (off == PICA_SH_OPDESCS_INDEX) {
		b->opdesc_index = PICA_GET(v, SH_OPDESCS_INDEX, INDEX);
	} else if (opdesc_data) {
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
		if (!block_write(&r->vs, off, mask, value, r->uniform_round, r->uniform_exact, reg, d))
			return false;
		/* VSH_COM_MODE = 0: VS uploads reach the GS unit too (pica200.md §4) */
		if (PICA_GET(r->raw[PICA_REG_VSH_COM_MODE], VSH_COM_MODE, SEPARATE) == 0)
			return block_write(&r->gs, off, mask, value, r->uniform_round, r->uniform_exact, reg, d);
		return true;
	}
	if (reg >= PICA_REG_GSH_BASE && reg < PICA_REG_GSH_BASE + PICA_REG_BLOCK_SIZE)
		return block_write(&r->gs, reg - PICA_REG_GSH_BASE, mask, value, r->uniform_round, r->uniform_exact, reg, d);
	return true;
}

unsigned pica_regs_attr_reg(const pica_sh_regs *b, unsigned attr)
{
	const unsigned per_word = PICA_F_ATTRIBUTES_PERMUTATION__REG_N;
	uint32_t w = attr < per_word ? b->raw[PICA_SH_ATTRIBUTES_PERMUTATION_LOW]
	                             : b->raw[PICA_SH_ATTRIBUTES_PERMUTATION_HIGH];
	return PICA_GETI(w, ATTRIBUTES_PERMUTATION, REG, attr % per_word);
}

unsigned pica_regs_attr_count(const pica_sh_regs *b)
{
	return PICA_GET(b->raw[PICA_SH_INPUTBUFFER_CONFIG], SH_INPUTBUFFER_CONFIG, COUNT_M1) + 1;
}

bool pica_regs_program(const pica_regs *r, bool gs, const ulp_config *cfg, pica_program *out,
                       ulp_diag *d)
{
	const pica_sh_regs *b = gs ? &r->gs : &r->vs;
	pica_program_desc desc = { .entry = PICA_GET(b->raw[PICA_SH_ENTRYPOINT], SH_ENTRYPOINT, ADDR),
	                           .end = b->code_words, .is_gs = gs };
	/* The k-th enabled output register takes SH_OUTMAP_Ok's semantics; a
	 * component whose semantic is PICA_OUTMAP_UNUSED is not configured. */
	const uint32_t mask = PICA_GET(b->raw[PICA_SH_OUTMAP_MASK], SH_OUTMAP_MASK, O);
	/* With a GS in use the output map describes the GS's outputs; the VS's
	 * whole enabled registers go to the GS input buffer, and which of their
	 * components must be written is not public: none is required. */
	const bool vs_to_gs = !gs && pica_regs_gs_on(r);
	unsigned k = 0;
	for (unsigned reg = 0; reg < 16 && !vs_to_gs; reg++) {
		if (!(mask & (1u << reg)))
			continue;
		for (int c = 0; c < PICA_F_SH_OUTMAP_O__COMP_N; c++)
			if (k < PICA_N_SH_OUTMAP_O &&
			    PICA_GETI(r->raw[PICA_REG_AT(SH_OUTMAP_O, k)], SH_OUTMAP_O, COMP, c) != PICA_OUTMAP_UNUSED)
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

/* ---- names (pica_regs.def) ---- */

typedef struct reg_row { uint16_t addr, count, stride; const char *dump; } reg_row;

static const reg_row REGS[] = {
#define PICA_REG(NAME, addr, count, stride, dump, source) { (addr), (count), (stride), (dump) },
#include "isa/pica/pica_regs.def"
};
static const reg_row SH_REGS[] = {
#define PICA_SH_REG(NAME, offset, count, dump, source) { (offset), (count), 1, (dump) },
#include "isa/pica/pica_regs.def"
};
static const struct { uint16_t base, size; const char *prefix; } BLOCKS[] = {
#define PICA_SH_BLOCK(NAME, base, size, source) { (base), (size), #NAME "_" },
#include "isa/pica/pica_regs.def"
};

/* The row of rows[n] holding reg (relative to base), and its element. */
static const reg_row *row_of(const reg_row *rows, size_t n, unsigned reg, unsigned *k)
{
	for (size_t i = 0; i < n; i++) {
		if (reg < rows[i].addr)
			continue;
		unsigned off = reg - rows[i].addr;
		if (off % rows[i].stride == 0 && off / rows[i].stride < rows[i].count) {
			*k = off / rows[i].stride;
			return &rows[i];
		}
	}
	return NULL;
}

const char *pica_reg_name(uint16_t reg, char *buf, size_t n)
{
	unsigned k;
	const reg_row *row = row_of(REGS, sizeof REGS / sizeof REGS[0], reg, &k);
	if (row)
		return ulp_reg_elem_name(NULL, row->dump, k, buf, n);
	for (size_t b = 0; b < sizeof BLOCKS / sizeof BLOCKS[0]; b++) {
		if (reg < BLOCKS[b].base || reg >= BLOCKS[b].base + BLOCKS[b].size)
			continue;
		row = row_of(SH_REGS, sizeof SH_REGS / sizeof SH_REGS[0], reg - BLOCKS[b].base, &k);
		return row ? ulp_reg_elem_name(BLOCKS[b].prefix, row->dump, k, buf, n) : NULL;
	}
	return NULL;
}

int pica_reg_find(const char *name)
{
	char buf[64];
	for (unsigned reg = 0; reg < PICA_REG_COUNT; reg++) {
		const char *nm = pica_reg_name((uint16_t)reg, buf, sizeof buf);
		if (nm && !strcmp(nm, name))
			return (int)reg;
	}
	return -1;
}

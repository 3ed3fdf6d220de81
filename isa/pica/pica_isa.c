/* PICA200 instruction tables, decode and encode (pica200.md §1.2, §1.3). */
#include "isa/pica/pica_isa.h"

#include <stdio.h>
#include <string.h>

const struct pica_op_info PICA_OPS[PICA_OP_COUNT] = {
#define PICA_OP(id, mn, opc, span, fmt, use, base, exec, timing, flags) \
	[PICA_OP_##id] = { mn, opc, span, fmt, use, PICA_OP_##base, PICA_EX_##exec, PICA_CLS_##timing, flags },
#include "isa/pica/pica_ops.def"
#undef PICA_OP
	[PICA_OP_UNKNOWN] = { "???", 0, 0, PICA_FMT_0, PICA_USE_NONE, PICA_OP_UNKNOWN,
	                      PICA_EX_UNDOC, PICA_CLS_NOP, 0 },
};

#define F(lo, w) { lo, w }
#define NOF { 0, 0 }
const struct pica_fmt_info PICA_FMTS[PICA_FMT_COUNT] = {
	[PICA_FMT_0]  = { "0",  6, 0, NOF, { NOF, NOF, NOF }, NOF, NOF, -1 },
	[PICA_FMT_1]  = { "1",  6, 2, F(21, 5), { F(12, 7), F(7, 5), NOF }, F(19, 2), F(0, 7), 0 },
	[PICA_FMT_1I] = { "1i", 6, 2, F(21, 5), { F(14, 5), F(7, 7), NOF }, F(19, 2), F(0, 7), 1 },
	[PICA_FMT_1U] = { "1u", 6, 1, F(21, 5), { F(12, 7), NOF, NOF }, F(19, 2), F(0, 7), 0 },
	[PICA_FMT_1C] = { "1c", 5, 2, NOF, { F(12, 7), F(7, 5), NOF }, F(19, 2), F(0, 7), 0 },
	[PICA_FMT_2]  = { "2",  6, 0, NOF, { NOF, NOF, NOF }, NOF, NOF, -1 },
	[PICA_FMT_3]  = { "3",  6, 0, NOF, { NOF, NOF, NOF }, NOF, NOF, -1 },
	[PICA_FMT_3I] = { "3i", 6, 0, NOF, { NOF, NOF, NOF }, NOF, NOF, -1 },
	[PICA_FMT_4]  = { "4",  6, 0, NOF, { NOF, NOF, NOF }, NOF, NOF, -1 },
	[PICA_FMT_5]  = { "5",  3, 3, F(24, 5), { F(17, 5), F(10, 7), F(5, 5) }, F(22, 2), F(0, 5), 1 },
	[PICA_FMT_5I] = { "5i", 3, 3, F(24, 5), { F(17, 5), F(12, 5), F(5, 7) }, F(22, 2), F(0, 5), 2 },
};
#undef F
#undef NOF

#define PICA_FT_bool PICA_FT_BOOL
#define PICA_FT_u8 PICA_FT_U8
#define PICA_FT_u16 PICA_FT_U16
const struct pica_field_row PICA_FIELD_ROWS[PICA_FLD_COUNT] = {
#define PICA_FIELD_ROW(id, fmt, lo, w, member, type) \
	[PICA_FLD_##id] = { #id, fmt, { lo, w }, offsetof(struct pica_inst, member), PICA_FT_##type },
	PICA_FIELDS(PICA_FIELD_ROW)
#undef PICA_FIELD_ROW
};
#undef PICA_FT_bool
#undef PICA_FT_u8
#undef PICA_FT_u16

static uint32_t field_mask(struct pica_field f)
{
	return f.width ? ((1u << f.width) - 1u) << f.lo : 0;
}

static uint32_t get(uint32_t w, struct pica_field f)
{
	return f.width ? (w >> f.lo) & ((1u << f.width) - 1u) : 0;
}

static bool put(uint32_t *w, struct pica_field f, uint32_t v)
{
	if (!f.width)
		return v == 0;
	if (v >> f.width)
		return false;
	*w |= v << f.lo;
	return true;
}

/* A PICA_FIELD_ROWS member of an instruction, read or written as its type. */
static uint32_t member_get(const struct pica_inst *in, const struct pica_field_row *r)
{
	const char *m = (const char *)in + r->offset;
	switch (r->type) {
	case PICA_FT_BOOL: return *(const bool *)m;
	case PICA_FT_U8: return *(const uint8_t *)m;
	default: return *(const uint16_t *)m;
	}
}

static void member_set(struct pica_inst *in, const struct pica_field_row *r, uint32_t v)
{
	char *m = (char *)in + r->offset;
	switch (r->type) {
	case PICA_FT_BOOL: *(bool *)m = v != 0; break;
	case PICA_FT_U8: *(uint8_t *)m = (uint8_t)v; break;
	default: *(uint16_t *)m = (uint16_t)v; break;
	}
}

enum pica_op pica_op_of_word(uint32_t word)
{
	unsigned opc = word >> 26;
	for (int i = 0; i < PICA_OP_UNKNOWN; i++)
		if (opc >= PICA_OPS[i].opcode && opc < (unsigned)PICA_OPS[i].opcode + PICA_OPS[i].span)
			return (enum pica_op)i;
	return PICA_OP_UNKNOWN;
}

static bool fmt_is_alu(enum pica_fmt f)
{
	return PICA_FMTS[f].desc.width != 0;
}

int pica_desc_index(uint32_t word)
{
	enum pica_op op = pica_op_of_word(word);
	if (op == PICA_OP_UNKNOWN || !fmt_is_alu(PICA_OPS[op].fmt))
		return -1;
	return (int)get(word, PICA_FMTS[PICA_OPS[op].fmt].desc);
}

uint8_t pica_swz_pack(const uint8_t swz[4])
{
	return (uint8_t)((swz[0] & 3) << 6 | (swz[1] & 3) << 4 | (swz[2] & 3) << 2 | (swz[3] & 3));
}

void pica_swz_unpack(uint8_t byte, uint8_t swz[4])
{
	for (int i = 0; i < 4; i++)
		swz[i] = (byte >> (6 - 2 * i)) & 3;
}

/* Descriptor source slot i: NEG at 4 + 9i, SWZ at 5 + 9i. */
void pica_desc_unpack(uint32_t desc, struct pica_inst *out)
{
	out->desc = desc;
	out->mask = desc & 0xF;
	for (int i = 0; i < 3; i++) {
		out->src[i].neg = (desc >> (4 + 9 * i)) & 1;
		pica_swz_unpack((uint8_t)(desc >> (5 + 9 * i)), out->src[i].swz);
	}
}

uint32_t pica_desc_pack(const struct pica_inst *in)
{
	uint32_t d = in->mask & 0xFu;
	for (int i = 0; i < 3; i++) {
		d |= (uint32_t)in->src[i].neg << (4 + 9 * i);
		d |= (uint32_t)pica_swz_pack(in->src[i].swz) << (5 + 9 * i);
	}
	return d;
}

/* Selector bits of component c of source slot s. */
static uint32_t sel_bits(int s, int c) { return 3u << (5 + 9 * s + 6 - 2 * c); }
static uint32_t slot_bits(int s) { return 0x1FFu << (4 + 9 * s); }

uint32_t pica_desc_care(enum pica_op op, uint32_t desc)
{
	const struct pica_op_info *oi = &PICA_OPS[op];
	const struct pica_fmt_info *fi = &PICA_FMTS[oi->fmt];
	if (oi->use == PICA_USE_NONE)
		return 0;
	uint32_t care = oi->fmt == PICA_FMT_1C ? 0 : 0xF;
	for (int s = 0; s < fi->nsrc; s++)
		care |= slot_bits(s);
	switch (PICA_OPS[oi->base].use) {
	case PICA_USE_COMPWISE:
		for (int c = 0; c < 4; c++)
			if (!(desc & (8u >> c)))
				for (int s = 0; s < 3; s++)
					care &= ~sel_bits(s, c);
		break;
	case PICA_USE_DP3:
		care &= ~(sel_bits(0, 3) | sel_bits(1, 3));
		break;
	case PICA_USE_DPH:
		care &= ~sel_bits(0, 3);
		break;
	case PICA_USE_SCALAR:
		care &= ~(sel_bits(0, 1) | sel_bits(0, 2) | sel_bits(0, 3));
		break;
	case PICA_USE_MOVA:
		if (!(desc & 8u))
			care &= ~sel_bits(0, 0);
		if (!(desc & 4u))
			care &= ~sel_bits(0, 1);
		care &= ~(sel_bits(0, 2) | sel_bits(0, 3));
		break;
	case PICA_USE_CMP:
		care &= ~(sel_bits(0, 2) | sel_bits(0, 3));
		break;
	case PICA_USE_ALL:
	case PICA_USE_NONE:
		break;
	}
	return care;
}

void pica_decode(uint32_t word, uint32_t desc, struct pica_inst *out)
{
	memset(out, 0, sizeof *out);
	out->word = word;
	out->opcode = (uint8_t)(word >> 26);
	out->op = pica_op_of_word(word);
	out->fmt = PICA_OPS[out->op].fmt;
	const struct pica_fmt_info *fi = &PICA_FMTS[out->fmt];
	uint32_t used = ~0u << (32 - fi->op_bits);

	if (out->op == PICA_OP_UNKNOWN) {
		out->stray = word & 0x03FFFFFFu;
		return;
	}
	if (fmt_is_alu(out->fmt)) {
		out->desc_id = (uint8_t)get(word, fi->desc);
		out->dst = (uint8_t)get(word, fi->dst);
		out->nsrc = fi->nsrc;
		pica_desc_unpack(desc, out);
		for (int s = 0; s < fi->nsrc; s++) {
			out->src[s].reg = (uint8_t)get(word, fi->src[s]);
			used |= field_mask(fi->src[s]);
		}
		if (fi->idx_src >= 0)
			out->src[fi->idx_src].idx = (uint8_t)get(word, fi->idx);
		used |= field_mask(fi->desc) | field_mask(fi->dst) | field_mask(fi->idx);
	}
	for (int f = 0; f < PICA_FLD_COUNT; f++) {
		const struct pica_field_row *r = &PICA_FIELD_ROWS[f];
		if (r->fmt != out->fmt)
			continue;
		member_set(out, r, get(word, r->bits));
		used |= field_mask(r->bits);
	}
	out->stray = word & ~used;
}

bool pica_decode_prog(uint32_t word, const uint32_t *descs, size_t ndesc,
                      struct pica_inst *out)
{
	int di = pica_desc_index(word);
	bool ok = di < 0 || (size_t)di < ndesc;
	pica_decode(word, (di >= 0 && ok) ? descs[di] : 0, out);
	return ok;
}

bool pica_encode(const struct pica_inst *in, uint32_t *word)
{
	if (in->op >= PICA_OP_UNKNOWN)
		return false;
	const struct pica_op_info *oi = &PICA_OPS[in->op];
	const struct pica_fmt_info *fi = &PICA_FMTS[oi->fmt];
	/* a 5- or 3-bit opcode is the top of the first 6-bit value it spans */
	uint32_t w = (uint32_t)(oi->opcode >> (6 - fi->op_bits)) << (32 - fi->op_bits);
	bool ok = true;

	if (fmt_is_alu(oi->fmt)) {
		ok &= put(&w, fi->desc, in->desc_id);
		ok &= put(&w, fi->dst, in->dst);
		for (int s = 0; s < fi->nsrc; s++) {
			ok &= put(&w, fi->src[s], in->src[s].reg);
			if (s != fi->idx_src && in->src[s].idx)
				ok = false;
		}
		if (fi->idx_src >= 0)
			ok &= put(&w, fi->idx, in->src[fi->idx_src].idx);
	}
	for (int f = 0; f < PICA_FLD_COUNT; f++) {
		const struct pica_field_row *r = &PICA_FIELD_ROWS[f];
		if (r->fmt == oi->fmt)
			ok &= put(&w, r->bits, member_get(in, r));
	}
	*word = w;
	return ok;
}

uint32_t pica_word_set_target(uint32_t word, uint32_t target)
{
	const struct pica_field f = PICA_FIELD_ROWS[PICA_FLD_2_DST].bits;   /* same in 3 and 3i */
	return (word & ~field_mask(f)) | ((target << f.lo) & field_mask(f));
}

uint32_t pica_word_set_num(uint32_t word, uint32_t num)
{
	const struct pica_field f = PICA_FIELD_ROWS[PICA_FLD_2_NUM].bits;
	return (word & ~field_mask(f)) | ((num << f.lo) & field_mask(f));
}

const char *pica_src_name(uint8_t reg, char *buf)
{
	if (reg < PICA_SRC_R)
		snprintf(buf, 8, "v%u", (unsigned)reg);
	else if (reg < PICA_SRC_C)
		snprintf(buf, 8, "r%u", (unsigned)(reg - PICA_SRC_R));
	else
		snprintf(buf, 8, "c%u", (unsigned)(reg - PICA_SRC_C) % 128u);
	return buf;
}

const char *pica_dst_name(uint8_t reg, char *buf)
{
	if (reg < PICA_DST_R)
		snprintf(buf, 8, "o%u", (unsigned)reg);
	else
		snprintf(buf, 8, "r%u", (unsigned)(reg - PICA_DST_R) & 31u);
	return buf;
}

uint32_t pica_f24_from_f32(float v)
{
	uint32_t i;
	memcpy(&i, &v, sizeof i);
	uint32_t sign = i >> 31, man = (i & 0x7FFFFFu) >> 7;
	int32_t e = (int32_t)((i >> 23) & 0xFF) - 127 + 63;
	if (e < 0)
		return sign << 23;
	if (e > 0x7F)
		return sign << 23 | 0x7Fu << 16;
	return sign << 23 | (uint32_t)e << 16 | man;
}

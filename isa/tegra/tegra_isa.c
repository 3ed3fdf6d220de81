/* Tegra GR3D fragment words: field tables, encode/decode (tegra-fp.md §2.4). */
#include "isa/tegra/tegra_isa.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define X_TAB(id, n, lo, w) { n, lo, w },
const tegra_field tegra_alu_fields[TEGRA_ALU_NFIELDS] = { TEGRA_ALU_FIELDS(X_TAB) };
const tegra_field tegra_src_fields[TEGRA_SRC_NFIELDS] = { TEGRA_ALU_SRC_FIELDS(X_TAB) };
const tegra_field tegra_rd_fields[TEGRA_RD_NFIELDS] = { TEGRA_ALU_RD_FIELDS(X_TAB) };
const tegra_field tegra_mfu_fields[TEGRA_MFU_NFIELDS] = { TEGRA_MFU_FIELDS(X_TAB) };
const tegra_field tegra_var_fields[TEGRA_VAR_NFIELDS] = { TEGRA_MFU_VAR_FIELDS(X_TAB) };
const tegra_field tegra_sched_fields[TEGRA_SCHED_NFIELDS] = { TEGRA_SCHED_FIELDS(X_TAB) };
const tegra_field tegra_tex_fields[TEGRA_TEX_NFIELDS] = { TEGRA_TEX_FIELDS(X_TAB) };
const tegra_field tegra_dw_fields[TEGRA_DW_NFIELDS] = { TEGRA_DW_FIELDS(X_TAB) };
const tegra_field tegra_pseq_fields[TEGRA_PSEQ_NFIELDS] = { TEGRA_PSEQ_FIELDS(X_TAB) };
#undef X_TAB

const char *const tegra_sfu_names[TEGRA_SFU_NUM_NAMED] = {
	"nop", "rcp", "rsq", "lg2", "ex2", "sqrt", "sin", "cos", "frc",
	"preEx2", "preSin", "preCos",
};

const char *const tegra_alu_opcode_names[4] = { "MAD", "MIN", "MAX", "CSEL" };

/* Register map, tegra-fp.md §2.3: first number, class. */
static const struct { uint8_t first; uint8_t cls; } reg_ranges[] = {
	{ 0, TEGRA_REG_ROW }, { 16, TEGRA_REG_GLOBAL }, { 24, TEGRA_REG_ALU },
	{ 28, TEGRA_REG_IMM }, { 31, TEGRA_REG_CONST01 }, { 32, TEGRA_REG_UNIFORM },
	{ 64, TEGRA_REG_COND }, { 72, TEGRA_REG_POSX }, { 73, TEGRA_REG_POSY },
	{ 74, TEGRA_REG_COVERAGE }, { 75, TEGRA_REG_PFACE }, { 76, TEGRA_REG_KILL },
	{ 77, TEGRA_REG_INVALID },
};

void tegra_reg_classify(unsigned reg, uint8_t *cls, uint8_t *index)
{
	size_t i = sizeof reg_ranges / sizeof reg_ranges[0] - 1;
	while (i > 0 && reg < reg_ranges[i].first)
		i--;
	*cls = reg_ranges[i].cls;
	*index = (uint8_t)(reg - reg_ranges[i].first);
}

#define GET(tab, id, w) ((unsigned)tegra_field_get(&(tab)[id], (w)))
#define SET(tab, id, w, v) ((w) = tegra_field_set(&(tab)[id], (w), (uint64_t)(v)))

uint32_t tegra_alu_src_encode(const tegra_alu_src *s)
{
	uint64_t w = 0;
	SET(tegra_src_fields, TEGRA_SRC_REG, w, s->reg);
	SET(tegra_src_fields, TEGRA_SRC_HIGH, w, s->high);
	SET(tegra_src_fields, TEGRA_SRC_M1, w, s->minus_one);
	SET(tegra_src_fields, TEGRA_SRC_FX10, w, s->fx10);
	SET(tegra_src_fields, TEGRA_SRC_ABS, w, s->abs);
	SET(tegra_src_fields, TEGRA_SRC_NEG, w, s->neg);
	SET(tegra_src_fields, TEGRA_SRC_X2, w, s->x2);
	return (uint32_t)w;
}

void tegra_alu_src_decode(uint32_t bits13, tegra_alu_src *s)
{
	uint64_t w = bits13;
	s->reg = (uint8_t)GET(tegra_src_fields, TEGRA_SRC_REG, w);
	tegra_reg_classify(s->reg, &s->cls, &s->index);
	s->high = GET(tegra_src_fields, TEGRA_SRC_HIGH, w);
	s->minus_one = GET(tegra_src_fields, TEGRA_SRC_M1, w);
	s->fx10 = GET(tegra_src_fields, TEGRA_SRC_FX10, w);
	s->abs = GET(tegra_src_fields, TEGRA_SRC_ABS, w);
	s->neg = GET(tegra_src_fields, TEGRA_SRC_NEG, w);
	s->x2 = GET(tegra_src_fields, TEGRA_SRC_X2, w);
}

uint32_t tegra_alu_rd_encode(const tegra_alu_rd *d)
{
	uint64_t w = 0;
	SET(tegra_rd_fields, TEGRA_RD_SEL_C, w, d->sel_c);
	SET(tegra_rd_fields, TEGRA_RD_HIGH, w, d->high);
	SET(tegra_rd_fields, TEGRA_RD_M1, w, d->minus_one);
	SET(tegra_rd_fields, TEGRA_RD_EN, w, d->enable);
	SET(tegra_rd_fields, TEGRA_RD_ABS, w, d->abs);
	SET(tegra_rd_fields, TEGRA_RD_FX10, w, d->fx10);
	return (uint32_t)w;
}

void tegra_alu_rd_decode(uint32_t bits6, tegra_alu_rd *d)
{
	uint64_t w = bits6;
	d->sel_c = GET(tegra_rd_fields, TEGRA_RD_SEL_C, w);
	d->high = GET(tegra_rd_fields, TEGRA_RD_HIGH, w);
	d->minus_one = GET(tegra_rd_fields, TEGRA_RD_M1, w);
	d->enable = GET(tegra_rd_fields, TEGRA_RD_EN, w);
	d->abs = GET(tegra_rd_fields, TEGRA_RD_ABS, w);
	d->fx10 = GET(tegra_rd_fields, TEGRA_RD_FX10, w);
}

uint64_t tegra_alu_encode(const tegra_alu_inst *in)
{
	uint64_t w = 0;
	SET(tegra_alu_fields, TEGRA_ALU_OPCODE, w, in->opcode);
	SET(tegra_alu_fields, TEGRA_ALU_ACC_OTHER, w, in->acc_other);
	SET(tegra_alu_fields, TEGRA_ALU_ACC_THIS, w, in->acc_this);
	SET(tegra_alu_fields, TEGRA_ALU_ADD_DIS, w, in->add_disable);
	SET(tegra_alu_fields, TEGRA_ALU_SCALE, w, in->scale);
	SET(tegra_alu_fields, TEGRA_ALU_SAT, w, in->saturate);
	SET(tegra_alu_fields, TEGRA_ALU_CC, w, in->cc);
	SET(tegra_alu_fields, TEGRA_ALU_DST, w, in->dst);
	SET(tegra_alu_fields, TEGRA_ALU_WRITE_HI, w, in->write_high);
	SET(tegra_alu_fields, TEGRA_ALU_WRITE_LO, w, in->write_low);
	SET(tegra_alu_fields, TEGRA_ALU_RA, w, tegra_alu_src_encode(&in->a));
	SET(tegra_alu_fields, TEGRA_ALU_RB, w, tegra_alu_src_encode(&in->b));
	SET(tegra_alu_fields, TEGRA_ALU_RC, w, tegra_alu_src_encode(&in->c));
	SET(tegra_alu_fields, TEGRA_ALU_RD, w, tegra_alu_rd_encode(&in->d));
	return w;
}

void tegra_alu_decode(uint64_t w, tegra_alu_inst *out)
{
	memset(out, 0, sizeof *out);
	out->opcode = (uint8_t)GET(tegra_alu_fields, TEGRA_ALU_OPCODE, w);
	out->acc_other = GET(tegra_alu_fields, TEGRA_ALU_ACC_OTHER, w);
	out->acc_this = GET(tegra_alu_fields, TEGRA_ALU_ACC_THIS, w);
	out->add_disable = GET(tegra_alu_fields, TEGRA_ALU_ADD_DIS, w);
	out->scale = (uint8_t)GET(tegra_alu_fields, TEGRA_ALU_SCALE, w);
	out->saturate = GET(tegra_alu_fields, TEGRA_ALU_SAT, w);
	out->cc = (uint8_t)GET(tegra_alu_fields, TEGRA_ALU_CC, w);
	out->dst = (uint8_t)GET(tegra_alu_fields, TEGRA_ALU_DST, w);
	tegra_reg_classify(out->dst, &out->dst_cls, &out->dst_index);
	out->write_high = GET(tegra_alu_fields, TEGRA_ALU_WRITE_HI, w);
	out->write_low = GET(tegra_alu_fields, TEGRA_ALU_WRITE_LO, w);
	tegra_alu_src_decode(GET(tegra_alu_fields, TEGRA_ALU_RA, w), &out->a);
	tegra_alu_src_decode(GET(tegra_alu_fields, TEGRA_ALU_RB, w), &out->b);
	tegra_alu_src_decode(GET(tegra_alu_fields, TEGRA_ALU_RC, w), &out->c);
	tegra_alu_rd_decode(GET(tegra_alu_fields, TEGRA_ALU_RD, w), &out->d);
}

/* Slot 3 constants, tegra-fp.md §2.4: Y = B:A, imm k = Y[4+20k .. 23+20k]. */
void tegra_alu_imm_get(uint32_t a, uint32_t b, uint32_t imm[3])
{
	uint64_t y = (uint64_t)b << 32 | a;
	for (int k = 0; k < 3; k++)
		imm[k] = (uint32_t)(y >> (4 + 20 * k)) & 0xFFFFFu;
}

static bool reads_imm(const tegra_alu_inst *s)
{
	return s->a.cls == TEGRA_REG_IMM || s->b.cls == TEGRA_REG_IMM ||
	       s->c.cls == TEGRA_REG_IMM;
}

void tegra_alu_packet_decode(const uint32_t words[8], tegra_alu_packet *out)
{
	memset(out, 0, sizeof *out);
	memcpy(out->words, words, sizeof out->words);
	for (int k = 0; k < 4; k++)
		tegra_alu_decode((uint64_t)words[2 * k] << 32 | words[2 * k + 1], &out->slot[k]);
	out->slot3_is_imm = reads_imm(&out->slot[0]) || reads_imm(&out->slot[1]) ||
	                    reads_imm(&out->slot[2]);
	tegra_alu_imm_get(words[6], words[7], out->imm);
}

static const int var_ids[4] = { TEGRA_MFU_VAR0, TEGRA_MFU_VAR1, TEGRA_MFU_VAR2, TEGRA_MFU_VAR3 };

uint64_t tegra_mfu_encode(const tegra_mfu_inst *in)
{
	uint64_t w = 0;
	SET(tegra_mfu_fields, TEGRA_MFU_SFU_REG, w, in->sfu_reg);
	SET(tegra_mfu_fields, TEGRA_MFU_SFU_OP, w, in->sfu_op);
	SET(tegra_mfu_fields, TEGRA_MFU_MUL0_DST, w, in->mul[0].dst);
	SET(tegra_mfu_fields, TEGRA_MFU_MUL0_S0, w, in->mul[0].src0);
	SET(tegra_mfu_fields, TEGRA_MFU_MUL0_S1, w, in->mul[0].src1);
	SET(tegra_mfu_fields, TEGRA_MFU_MUL1_DST, w, in->mul[1].dst);
	SET(tegra_mfu_fields, TEGRA_MFU_MUL1_S0, w, in->mul[1].src0);
	SET(tegra_mfu_fields, TEGRA_MFU_MUL1_S1, w, in->mul[1].src1);
	SET(tegra_mfu_fields, TEGRA_MFU_PAD, w, in->pad);
	for (int k = 0; k < 4; k++) {
		uint64_t v = 0;
		SET(tegra_var_fields, TEGRA_VAR_ROW, v, in->var[k].tram_row);
		SET(tegra_var_fields, TEGRA_VAR_OP, v, in->var[k].op);
		SET(tegra_var_fields, TEGRA_VAR_SAT, v, in->var[k].saturate);
		SET(tegra_mfu_fields, var_ids[k], w, v);
	}
	return w;
}

void tegra_mfu_decode(uint32_t hi, uint32_t lo, tegra_mfu_inst *out)
{
	uint64_t w = (uint64_t)hi << 32 | lo;
	memset(out, 0, sizeof *out);
	out->hi = hi;
	out->lo = lo;
	out->sfu_reg = (uint8_t)GET(tegra_mfu_fields, TEGRA_MFU_SFU_REG, w);
	out->sfu_op = (uint8_t)GET(tegra_mfu_fields, TEGRA_MFU_SFU_OP, w);
	out->mul[0].dst = (uint8_t)GET(tegra_mfu_fields, TEGRA_MFU_MUL0_DST, w);
	out->mul[0].src0 = (uint8_t)GET(tegra_mfu_fields, TEGRA_MFU_MUL0_S0, w);
	out->mul[0].src1 = (uint8_t)GET(tegra_mfu_fields, TEGRA_MFU_MUL0_S1, w);
	out->mul[1].dst = (uint8_t)GET(tegra_mfu_fields, TEGRA_MFU_MUL1_DST, w);
	out->mul[1].src0 = (uint8_t)GET(tegra_mfu_fields, TEGRA_MFU_MUL1_S0, w);
	out->mul[1].src1 = (uint8_t)GET(tegra_mfu_fields, TEGRA_MFU_MUL1_S1, w);
	out->pad = (uint8_t)GET(tegra_mfu_fields, TEGRA_MFU_PAD, w);
	for (int k = 0; k < 4; k++) {
		uint64_t v = GET(tegra_mfu_fields, var_ids[k], w);
		out->var[k].tram_row = (uint8_t)GET(tegra_var_fields, TEGRA_VAR_ROW, v);
		out->var[k].op = (uint8_t)GET(tegra_var_fields, TEGRA_VAR_OP, v);
		out->var[k].saturate = GET(tegra_var_fields, TEGRA_VAR_SAT, v);
	}
}

uint32_t tegra_sched_encode(tegra_sched s)
{
	uint64_t w = 0;
	SET(tegra_sched_fields, TEGRA_SCHED_ADDR, w, s.address);
	SET(tegra_sched_fields, TEGRA_SCHED_COUNT, w, s.count);
	return (uint32_t)w;
}

tegra_sched tegra_sched_decode(uint32_t w)
{
	tegra_sched s;
	s.address = (uint8_t)GET(tegra_sched_fields, TEGRA_SCHED_ADDR, w);
	s.count = (uint8_t)GET(tegra_sched_fields, TEGRA_SCHED_COUNT, w);
	return s;
}

void tegra_tex_decode(uint32_t w, tegra_tex_inst *out)
{
	memset(out, 0, sizeof *out);
	out->word = w;
	out->sampler = (uint8_t)GET(tegra_tex_fields, TEGRA_TEX_SAMPLER, w);
	out->src_r2 = GET(tegra_tex_fields, TEGRA_TEX_SRC_SEL, w);
	out->dst_r2 = GET(tegra_tex_fields, TEGRA_TEX_DST_SEL, w);
	out->enable = GET(tegra_tex_fields, TEGRA_TEX_ENABLE, w);
	out->bias = GET(tegra_tex_fields, TEGRA_TEX_BIAS, w);
	out->color_key = GET(tegra_tex_fields, TEGRA_TEX_COLOR_KEY, w);
	out->comp_sel = GET(tegra_tex_fields, TEGRA_TEX_COMP_SEL, w);
	out->fetch_killed = GET(tegra_tex_fields, TEGRA_TEX_FETCH_KILLED, w);
	out->user_lod = GET(tegra_tex_fields, TEGRA_TEX_USER_LOD, w);
	out->unknown = w & ~0x1437u;
}

uint32_t tegra_tex_encode(const tegra_tex_inst *in)
{
	uint64_t w = in->unknown;
	SET(tegra_tex_fields, TEGRA_TEX_SAMPLER, w, in->sampler);
	SET(tegra_tex_fields, TEGRA_TEX_SRC_SEL, w, in->src_r2);
	SET(tegra_tex_fields, TEGRA_TEX_DST_SEL, w, in->dst_r2);
	SET(tegra_tex_fields, TEGRA_TEX_ENABLE, w, in->enable);
	SET(tegra_tex_fields, TEGRA_TEX_BIAS, w, in->bias);
	return (uint32_t)w;
}

void tegra_dw_decode(uint32_t w, tegra_dw_inst *out)
{
	memset(out, 0, sizeof *out);
	out->word = w;
	out->enable = GET(tegra_dw_fields, TEGRA_DW_ENABLE, w);
	out->op = (uint8_t)GET(tegra_dw_fields, TEGRA_DW_OP, w);
	out->rt = (uint8_t)GET(tegra_dw_fields, TEGRA_DW_RT, w);
	out->stencil = GET(tegra_dw_fields, TEGRA_DW_STENCIL, w);
	out->src_r2 = GET(tegra_dw_fields, TEGRA_DW_SRC_SEL, w);
	out->upper = (uint16_t)GET(tegra_dw_fields, TEGRA_DW_UPPER, w);
	out->write_killed = GET(tegra_dw_fields, TEGRA_DW_WRITE_KILLED, w);
	out->write_non_center = GET(tegra_dw_fields, TEGRA_DW_WRITE_NON_CENTER, w);
	out->cache_persistent = GET(tegra_dw_fields, TEGRA_DW_CACHE_PERSISTENT, w);
	out->cache_read_clean = GET(tegra_dw_fields, TEGRA_DW_CACHE_READ_CLEAN, w);
	out->unknown = w & 0x7BC2u;
}

void tegra_pseq_decode(uint32_t w, tegra_pseq_inst *out)
{
	memset(out, 0, sizeof *out);
	out->word = w;
	out->args = (uint16_t)GET(tegra_pseq_fields, TEGRA_PSEQ_ARGS, w);
	out->surf = (uint8_t)GET(tegra_pseq_fields, TEGRA_PSEQ_SURF, w);
	out->op = (uint8_t)GET(tegra_pseq_fields, TEGRA_PSEQ_OP, w);
	out->read_non_center = GET(tegra_pseq_fields, TEGRA_PSEQ_READ_NON_CENTER, w);
	out->read_killed = GET(tegra_pseq_fields, TEGRA_PSEQ_READ_KILLED, w);
	out->cache_persistent = GET(tegra_pseq_fields, TEGRA_PSEQ_CACHE_PERSISTENT, w);
	out->dst_r2 = GET(tegra_pseq_fields, TEGRA_PSEQ_DST_SEL, w);
	out->enable0 = GET(tegra_pseq_fields, TEGRA_PSEQ_ENABLE0, w);
}

/* ---- grate's number conversions ---------------------------------------- */

uint32_t tegra_grate_fp20(float f)
{
	if (f == 0.0f)
		return 0;
	uint32_t u;
	memcpy(&u, &f, sizeof u);
	uint32_t sign = u >> 31, exponent = (u >> 23) & 0xFF, mantissa = u & 0x7FFFFF;
	if (exponent == 0xFF)
		exponent = 0x3F;
	else
		exponent = (exponent - 127u + 31u) & 0x3F;   /* wraps, no clamp */
	return sign << 19 | exponent << 13 | mantissa >> 10;
}

uint32_t tegra_grate_fx10(float f)
{
	float p = f * 256.0f;
	/* x86-64 float->uint32 goes through a 64-bit signed conversion: NaN and
	 * |p| >= 2^63 give 0x8000000000000000, whose low 32 bits are 0. */
	if (isnan(p) || p >= 9223372036854775808.0f || p < -9223372036854775808.0f)
		return 0;
	return (uint32_t)(uint64_t)(int64_t)p & 0x3FFu;
}

float tegra_grate_fp20_value(uint32_t v)
{
	uint32_t sign = (v >> 19) & 1, exponent = (v >> 13) & 0x3F, mantissa = v & 0x1FFF;
	exponent = exponent == 0x3F ? 0xFF : exponent + 127 - 31;
	uint32_t u = sign << 31 | exponent << 23 | mantissa << 10;
	float f;
	memcpy(&f, &u, sizeof f);
	return f;
}

float tegra_grate_fx10_value(uint32_t v)
{
	v &= 0x3FF;
	if (v & 0x200)
		return -(float)(((v - 1) ^ 0x3FF) / 256.0f);
	return (float)v / 256.0f;
}

float tegra_grate_atof(const char *s)
{
	double d = strtod(s, NULL);
	if (isnan(d))
		return (float)d;
	/* double -> float: values beyond the float range become infinities
	 * (the rounding boundary is FLT_MAX + half an ulp). */
	if (fabs(d) >= 0x1.ffffffp127)
		return d < 0 ? -INFINITY : INFINITY;
	return (float)d;
}

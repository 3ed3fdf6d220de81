/* Tegra GR3D fragment words: field tables, encode/decode (tegra-fp.md §2.4). */
#include "isa/tegra/tegra_isa.h"

#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "isa/fp20.h"
#include "isa/fx10.h"

#define ROLE_G TEGRA_FR_GRATE
#define ROLE_A TEGRA_FR_ALT
#define ROLE_U TEGRA_FR_UNK
#define X_TAB(T) X_ROW_##T
#define ROW(T, n, lo, w, r, m, k) \
	{ n, lo, w, ROLE_##r, TEGRA_FK_##k, (uint16_t)offsetof(T, m) },
#define X_ROW_ALU(id, n, lo, w, r, m, k) ROW(tegra_alu_inst, n, lo, w, r, m, k)
#define X_ROW_SRC(id, n, lo, w, r, m, k) ROW(tegra_alu_src, n, lo, w, r, m, k)
#define X_ROW_RD(id, n, lo, w, r, m, k) ROW(tegra_alu_rd, n, lo, w, r, m, k)
#define X_ROW_MFU(id, n, lo, w, r, m, k) ROW(tegra_mfu_inst, n, lo, w, r, m, k)
#define X_ROW_VAR(id, n, lo, w, r, m, k) ROW(tegra_mfu_var, n, lo, w, r, m, k)
#define X_ROW_SCHED(id, n, lo, w, r, m, k) ROW(tegra_sched, n, lo, w, r, m, k)
#define X_ROW_TEX(id, n, lo, w, r, m, k) ROW(tegra_tex_inst, n, lo, w, r, m, k)
#define X_ROW_DW(id, n, lo, w, r, m, k) ROW(tegra_dw_inst, n, lo, w, r, m, k)
#define X_ROW_PSEQ(id, n, lo, w, r, m, k) ROW(tegra_pseq_inst, n, lo, w, r, m, k)
const tegra_field tegra_alu_fields[TEGRA_ALU_NFIELDS] = { TEGRA_ALU_FIELDS(X_TAB(ALU)) };
const tegra_field tegra_src_fields[TEGRA_SRC_NFIELDS] = { TEGRA_ALU_SRC_FIELDS(X_TAB(SRC)) };
const tegra_field tegra_rd_fields[TEGRA_RD_NFIELDS] = { TEGRA_ALU_RD_FIELDS(X_TAB(RD)) };
const tegra_field tegra_mfu_fields[TEGRA_MFU_NFIELDS] = { TEGRA_MFU_FIELDS(X_TAB(MFU)) };
const tegra_field tegra_var_fields[TEGRA_VAR_NFIELDS] = { TEGRA_MFU_VAR_FIELDS(X_TAB(VAR)) };
const tegra_field tegra_sched_fields[TEGRA_SCHED_NFIELDS] = { TEGRA_SCHED_FIELDS(X_TAB(SCHED)) };
const tegra_field tegra_tex_fields[TEGRA_TEX_NFIELDS] = { TEGRA_TEX_FIELDS(X_TAB(TEX)) };
const tegra_field tegra_dw_fields[TEGRA_DW_NFIELDS] = { TEGRA_DW_FIELDS(X_TAB(DW)) };
const tegra_field tegra_pseq_fields[TEGRA_PSEQ_NFIELDS] = { TEGRA_PSEQ_FIELDS(X_TAB(PSEQ)) };

/* Each row's member has the size its kind says (a wrong kind would read or
 * write the wrong bytes). */
enum {
	KSIZE_NONE = 0, KSIZE_BOOL = sizeof(bool), KSIZE_U8 = 1, KSIZE_U16 = 2,
	KSIZE_SRC = sizeof(tegra_alu_src), KSIZE_RD = sizeof(tegra_alu_rd),
	KSIZE_VAR = sizeof(tegra_mfu_var),
};
#define CHECK(T, m, k) \
	_Static_assert(KSIZE_##k == 0 || sizeof(((T *)0)->m) == KSIZE_##k, #T "." #m " is not " #k);
#define C_ALU(id, n, lo, w, r, m, k) CHECK(tegra_alu_inst, m, k)
#define C_SRC(id, n, lo, w, r, m, k) CHECK(tegra_alu_src, m, k)
#define C_RD(id, n, lo, w, r, m, k) CHECK(tegra_alu_rd, m, k)
#define C_MFU(id, n, lo, w, r, m, k) CHECK(tegra_mfu_inst, m, k)
#define C_VAR(id, n, lo, w, r, m, k) CHECK(tegra_mfu_var, m, k)
#define C_SCHED(id, n, lo, w, r, m, k) CHECK(tegra_sched, m, k)
#define C_TEX(id, n, lo, w, r, m, k) CHECK(tegra_tex_inst, m, k)
#define C_DW(id, n, lo, w, r, m, k) CHECK(tegra_dw_inst, m, k)
#define C_PSEQ(id, n, lo, w, r, m, k) CHECK(tegra_pseq_inst, m, k)
TEGRA_ALU_FIELDS(C_ALU)
TEGRA_ALU_SRC_FIELDS(C_SRC)
TEGRA_ALU_RD_FIELDS(C_RD)
TEGRA_MFU_FIELDS(C_MFU)
TEGRA_MFU_VAR_FIELDS(C_VAR)
TEGRA_SCHED_FIELDS(C_SCHED)
TEGRA_TEX_FIELDS(C_TEX)
TEGRA_DW_FIELDS(C_DW)
TEGRA_PSEQ_FIELDS(C_PSEQ)

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

#define NF(tab) (unsigned)(sizeof (tab) / sizeof (tab)[0])

uint64_t tegra_fields_known(const tegra_field *tab, unsigned n)
{
	uint64_t m = 0;
	for (unsigned i = 0; i < n; i++)
		if (tab[i].role == TEGRA_FR_GRATE)
			m |= tegra_field_mask(&tab[i]);
	return m;
}

void tegra_fields_decode(const tegra_field *tab, unsigned n, uint64_t w, void *out)
{
	for (unsigned i = 0; i < n; i++) {
		const tegra_field *f = &tab[i];
		uint64_t v = tegra_field_get(f, w);
		char *m = (char *)out + f->offset;
		switch (f->kind) {
		case TEGRA_FK_BOOL: *(bool *)m = v != 0; break;
		case TEGRA_FK_U8: *(uint8_t *)m = (uint8_t)v; break;
		case TEGRA_FK_U16: *(uint16_t *)m = (uint16_t)v; break;
		case TEGRA_FK_SRC: {
			tegra_alu_src *src = (tegra_alu_src *)m;
			tegra_fields_decode(tegra_src_fields, NF(tegra_src_fields), v, src);
			tegra_reg_classify(src->reg, &src->cls, &src->index);
			break;
		}
		case TEGRA_FK_RD: tegra_fields_decode(tegra_rd_fields, NF(tegra_rd_fields), v, m); break;
		case TEGRA_FK_VAR: tegra_fields_decode(tegra_var_fields, NF(tegra_var_fields), v, m); break;
		default: break;
		}
	}
}

/* w with every GRATE row replaced by its member of in. */
static uint64_t tegra_fields_encode(const tegra_field *tab, unsigned n, const void *in, uint64_t w)
{
	for (unsigned i = 0; i < n; i++) {
		const tegra_field *f = &tab[i];
		if (f->role != TEGRA_FR_GRATE)
			continue;
		const char *m = (const char *)in + f->offset;
		uint64_t v;
		switch (f->kind) {
		case TEGRA_FK_BOOL: v = *(const bool *)m; break;
		case TEGRA_FK_U8: v = *(const uint8_t *)m; break;
		case TEGRA_FK_U16: v = *(const uint16_t *)m; break;
		case TEGRA_FK_SRC: v = tegra_fields_encode(tegra_src_fields, NF(tegra_src_fields), m, 0); break;
		case TEGRA_FK_RD: v = tegra_fields_encode(tegra_rd_fields, NF(tegra_rd_fields), m, 0); break;
		case TEGRA_FK_VAR: v = tegra_fields_encode(tegra_var_fields, NF(tegra_var_fields), m, 0); break;
		default: continue;
		}
		w = tegra_field_set(f, w, v);
	}
	return w;
}

uint32_t tegra_alu_src_encode(const tegra_alu_src *s)
{
	return (uint32_t)tegra_fields_encode(tegra_src_fields, NF(tegra_src_fields), s, 0);
}

void tegra_alu_src_decode(uint32_t bits13, tegra_alu_src *s)
{
	tegra_fields_decode(tegra_src_fields, NF(tegra_src_fields), bits13, s);
	tegra_reg_classify(s->reg, &s->cls, &s->index);
}

uint32_t tegra_alu_rd_encode(const tegra_alu_rd *d)
{
	return (uint32_t)tegra_fields_encode(tegra_rd_fields, NF(tegra_rd_fields), d, 0);
}

void tegra_alu_rd_decode(uint32_t bits6, tegra_alu_rd *d)
{
	tegra_fields_decode(tegra_rd_fields, NF(tegra_rd_fields), bits6, d);
}

uint64_t tegra_alu_encode(const tegra_alu_inst *in)
{
	return tegra_fields_encode(tegra_alu_fields, NF(tegra_alu_fields), in, 0);
}

void tegra_alu_decode(uint64_t w, tegra_alu_inst *out)
{
	memset(out, 0, sizeof *out);
	tegra_fields_decode(tegra_alu_fields, NF(tegra_alu_fields), w, out);
	tegra_reg_classify(out->dst, &out->dst_cls, &out->dst_index);
}

/* Slot 3 constants, tegra-fp.md §2.4: Y = B:A, imm k = Y[4+20k .. 23+20k]. */
void tegra_alu_imm_get(uint32_t a, uint32_t b, uint32_t imm[3])
{
	uint64_t y = (uint64_t)b << 32 | a;
	for (int k = 0; k < 3; k++)
		imm[k] = (uint32_t)(y >> TEGRA_IMM_LO(k)) & FP20_MASK;
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

uint64_t tegra_mfu_encode(const tegra_mfu_inst *in)
{
	return tegra_fields_encode(tegra_mfu_fields, NF(tegra_mfu_fields), in, 0);
}

void tegra_mfu_decode(uint32_t hi, uint32_t lo, tegra_mfu_inst *out)
{
	memset(out, 0, sizeof *out);
	out->hi = hi;
	out->lo = lo;
	tegra_fields_decode(tegra_mfu_fields, NF(tegra_mfu_fields), (uint64_t)hi << 32 | lo, out);
}

uint32_t tegra_sched_encode(tegra_sched s)
{
	return (uint32_t)tegra_fields_encode(tegra_sched_fields, NF(tegra_sched_fields), &s, 0);
}

tegra_sched tegra_sched_decode(uint32_t w)
{
	tegra_sched s = { 0, 0 };
	tegra_fields_decode(tegra_sched_fields, NF(tegra_sched_fields), w, &s);
	return s;
}

void tegra_tex_decode(uint32_t w, tegra_tex_inst *out)
{
	memset(out, 0, sizeof *out);
	out->word = w;
	tegra_fields_decode(tegra_tex_fields, NF(tegra_tex_fields), w, out);
	out->unknown = w & ~(uint32_t)tegra_fields_known(tegra_tex_fields, NF(tegra_tex_fields));
}

uint32_t tegra_tex_encode(const tegra_tex_inst *in)
{
	return (uint32_t)tegra_fields_encode(tegra_tex_fields, NF(tegra_tex_fields), in, in->unknown);
}

void tegra_dw_decode(uint32_t w, tegra_dw_inst *out)
{
	memset(out, 0, sizeof *out);
	out->word = w;
	tegra_fields_decode(tegra_dw_fields, NF(tegra_dw_fields), w, out);
	out->unknown = w & ~(uint32_t)tegra_fields_known(tegra_dw_fields, NF(tegra_dw_fields));
}

uint32_t tegra_dw_encode(const tegra_dw_inst *in)
{
	return (uint32_t)tegra_fields_encode(tegra_dw_fields, NF(tegra_dw_fields), in, in->unknown);
}

void tegra_pseq_decode(uint32_t w, tegra_pseq_inst *out)
{
	memset(out, 0, sizeof *out);
	out->word = w;
	tegra_fields_decode(tegra_pseq_fields, NF(tegra_pseq_fields), w, out);
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
		exponent = FP20_EXP_MAX;
	else
		exponent = exponent - FP20_F32_REBIAS;   /* wraps (fp20_pack masks), no clamp */
	return fp20_pack((fp20_fields){ sign, exponent, mantissa >> FP20_F32_SHIFT });
}

uint32_t tegra_grate_fx10(float f)
{
	float p = f * 256.0f;
	/* x86-64 float->uint32 goes through a 64-bit signed conversion: NaN and
	 * |p| >= 2^63 give 0x8000000000000000, whose low 32 bits are 0. */
	if (isnan(p) || p >= 9223372036854775808.0f || p < -9223372036854775808.0f)
		return 0;
	return (uint32_t)(uint64_t)(int64_t)p & FX10_MASK;
}

float tegra_grate_fp20_value(uint32_t v)
{
	fp20_fields c = fp20_fields_of(v);
	uint32_t exponent = c.exp == FP20_EXP_MAX ? 0xFF : c.exp + FP20_F32_REBIAS;
	uint32_t u = c.sign << 31 | exponent << 23 | c.mant << FP20_F32_SHIFT;
	float f;
	memcpy(&f, &u, sizeof f);
	return f;
}

float tegra_grate_fx10_value(uint32_t v)
{
	v &= FX10_MASK;
	if (v & FX10_SIGN)
		return -(float)(((v - 1) ^ FX10_MASK) / 256.0f);
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

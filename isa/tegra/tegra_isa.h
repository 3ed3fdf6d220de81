/* Tegra 2/3 GR3D fragment-pipeline instruction words (tegra-fp.md §2.3-§2.4).
 *
 * Every word is described once, as a field table (name, low bit, width);
 * the same tables drive the encoder, the decoder, the assembler
 * (isa/tegra/tegra_asm_*.c) and the disassembler (tegra_disasm.c).
 * Bit numbers are those of grate's unions; 64-bit words are uploaded high
 * word first ("HI" = bits 32..63, "LO" = bits 0..31).
 *
 * ALU instruction (64 bits, 4 per packet; tegra-fp.md §2.4)
 *
 *   63 62 61 60 59 58 57 56 55 54 53    47 46 45 44      32 31      19 18       6 5    0
 *  +-----+--+--+--+-----+--+-----+--------+--+--+----------+----------+----------+------+
 *  | op  |ot|th|ad|scale|st| cc  |  dst   |wh|wl|    rA    |    rB    |    rC    |  rD  |
 *  +-----+--+--+--+-----+--+-----+--------+--+--+----------+----------+----------+------+
 *   op 0 MAD 1 MIN 2 MAX 3 CSEL; ot/th accumulate other/this; ad addition
 *   disable (MAD+ad = MUL); scale 0 -,1 x2,2 x4,3 /2; st saturate;
 *   cc 0 -,1 eq,2 gt,3 ge (grate's names, docs/notes/tegra-isa-assumptions.md)
 *
 *   rA/rB/rC (13 bits):  12      6  5   4   3    2   1   0
 *                       +---------+---+---+----+---+---+---+
 *                       |   reg   |hi |-1 |fx10|abs|neg|x2 |
 *                       +---------+---+---+----+---+---+---+
 *   rD (6 bits):         5    4   3   2   1    0
 *                       +---+---+---+---+---+----+
 *                       |rC |hi |-1 |en |abs|fx10|    (rC: 0 = use rB, 1 = use rC)
 *                       +---+---+---+---+---+----+
 *
 * ALU slot 3 as embedded constants: on the wire slot 3 is words A (first) and
 * B (second); Y = B:A; imm0 = Y[4..23], imm1 = Y[24..43], imm2 = Y[44..63]
 * (TEGRA_IMM_LO(k), TEGRA_IMM_BITS).
 *
 * MFU instruction (64 bits):
 *   63   58 57  54 53 51 50 47 46 43 42 40 39 36 35 32 31 28 27  21 20  14 13   7 6    0
 *  +-------+------+-----+-----+-----+-----+-----+-----+-----+------+------+------+------+
 *  |sfu reg|sfu op|m1dst|m1s1 |m1s0 |m0dst|m0s1 |m0s0 | pad | var3 | var2 | var1 | var0 |
 *  +-------+------+-----+-----+-----+-----+-----+-----+-----+------+------+------+------+
 *   var: bits 3..6 TRAM row, 1..2 op (0 NOP, 1 FP20, 2 FX10), 0 saturate
 *
 * Schedule word (MFU 0x601, ALU 0x801):  bits 2..7 address, 0..1 count
 * TEX (0x701): 0..3 sampler, 4 src r2,r3,r0[,r1], 5 dst r2,r3, 10 enable, 12 bias
 *              (t30: 6 COLOR_KEY, 7 COMP_SEL, 11 FETCH_KILLED, 13 USER_LOD)
 * DW  (0x901): 0 enable, 2..5 render target, 10 stencil, 15 src r2,r3, 16..31
 *              (grate writes 2) (t30: OP 0..1, SURF 2..5, WRITE_KILLED 6,
 *              WRITE_NON_CENTER 7, CACHE_PERSISTENT 8, CACHE_READ_CLEAN 9, ARGS 10..25)
 * PSEQ (0x541): raw for grate (t30: ARGS 0..15, SURF 16..19, READ_NON_CENTER 20,
 *              READ_KILLED 21, CACHE_PERSISTENT 22, OP 23..24; PR #63: 1 dst pair, 3 enable)
 */
#ifndef ULP_ISA_TEGRA_ISA_H
#define ULP_ISA_TEGRA_ISA_H

#include <stdbool.h>
#include <stdint.h>

/* ---- field tables ----------------------------------------------------
 *
 * One table per word kind.  A row: the field's name, low bit and width; its
 * role (TEGRA_FR_GRATE: a field grate's assembler writes and its
 * disassembler reads: the encoder writes it and it is part of the word's
 * known-bit mask; TEGRA_FR_ALT: another reading of bits (the t30 register
 * names, grate PR #63), decoded only; TEGRA_FR_UNK: named bits nobody
 * decodes, kept in the decoded form's `unknown`); and the member of the
 * decoded struct that holds it with its kind.  tegra_fields_decode and
 * tegra_fields_encode iterate a table; tegra_fields_known ORs its GRATE
 * rows into the known-bit mask the decoder and the disassembler share. */

enum tegra_field_role { TEGRA_FR_GRATE, TEGRA_FR_ALT, TEGRA_FR_UNK };
enum tegra_field_kind {
	TEGRA_FK_NONE,     /* no member of its own */
	TEGRA_FK_BOOL, TEGRA_FK_U8, TEGRA_FK_U16,
	TEGRA_FK_SRC,      /* a tegra_alu_src (tegra_src_fields) */
	TEGRA_FK_RD,       /* a tegra_alu_rd (tegra_rd_fields) */
	TEGRA_FK_VAR,      /* a tegra_mfu_var (tegra_var_fields) */
};

typedef struct tegra_field {
	const char *name;
	uint8_t lo, width;
	uint8_t role;        /* enum tegra_field_role */
	uint8_t kind;        /* enum tegra_field_kind */
	uint16_t offset;     /* of the member in the decoded struct */
} tegra_field;

static inline uint64_t tegra_field_mask(const tegra_field *f)
{
	return ((UINT64_C(1) << f->width) - 1) << f->lo;
}

static inline uint64_t tegra_field_get(const tegra_field *f, uint64_t w)
{
	return (w >> f->lo) & ((UINT64_C(1) << f->width) - 1);
}

static inline uint64_t tegra_field_set(const tegra_field *f, uint64_t w, uint64_t v)
{
	uint64_t m = tegra_field_mask(f);
	return (w & ~m) | ((v << f->lo) & m);
}

/* X(ID, name, lo, width, role, member, kind); role G = GRATE, A = ALT, U = UNK */
#define TEGRA_ALU_FIELDS(X) \
	X(OPCODE,    "opcode",      62, 2,  G, opcode,      U8) \
	X(ACC_OTHER, "acc_other",   61, 1,  G, acc_other,   BOOL) \
	X(ACC_THIS,  "acc_this",    60, 1,  G, acc_this,    BOOL) \
	X(ADD_DIS,   "add_disable", 59, 1,  G, add_disable, BOOL) \
	X(SCALE,     "scale",       57, 2,  G, scale,       U8) \
	X(SAT,       "saturate",    56, 1,  G, saturate,    BOOL) \
	X(CC,        "cond",        54, 2,  G, cc,          U8) \
	X(DST,       "dst",         47, 7,  G, dst,         U8) \
	X(WRITE_HI,  "write_high",  46, 1,  G, write_high,  BOOL) \
	X(WRITE_LO,  "write_low",   45, 1,  G, write_low,   BOOL) \
	X(RA,        "rA",          32, 13, G, a,           SRC) \
	X(RB,        "rB",          19, 13, G, b,           SRC) \
	X(RC,        "rC",           6, 13, G, c,           SRC) \
	X(RD,        "rD",           0, 6,  G, d,           RD)

#define TEGRA_ALU_SRC_FIELDS(X) \
	X(REG,   "reg",       6, 7, G, reg,       U8) \
	X(HIGH,  "high",      5, 1, G, high,      BOOL) \
	X(M1,    "minus_one", 4, 1, G, minus_one, BOOL) \
	X(FX10,  "fx10",      3, 1, G, fx10,      BOOL) \
	X(ABS,   "abs",       2, 1, G, abs,       BOOL) \
	X(NEG,   "negate",    1, 1, G, neg,       BOOL) \
	X(X2,    "x2",        0, 1, G, x2,        BOOL)

#define TEGRA_ALU_RD_FIELDS(X) \
	X(SEL_C, "sel_rC",    5, 1, G, sel_c,     BOOL) \
	X(HIGH,  "high",      4, 1, G, high,      BOOL) \
	X(M1,    "minus_one", 3, 1, G, minus_one, BOOL) \
	X(EN,    "enable",    2, 1, G, enable,    BOOL) \
	X(ABS,   "abs",       1, 1, G, abs,       BOOL) \
	X(FX10,  "fx10",      0, 1, G, fx10,      BOOL)

#define TEGRA_MFU_FIELDS(X) \
	X(SFU_REG,  "sfu_reg",   58, 6, G, sfu_reg,     U8) \
	X(SFU_OP,   "sfu_op",    54, 4, G, sfu_op,      U8) \
	X(MUL1_DST, "mul1_dst",  51, 3, G, mul[1].dst,  U8) \
	X(MUL1_S1,  "mul1_src1", 47, 4, G, mul[1].src1, U8) \
	X(MUL1_S0,  "mul1_src0", 43, 4, G, mul[1].src0, U8) \
	X(MUL0_DST, "mul0_dst",  40, 3, G, mul[0].dst,  U8) \
	X(MUL0_S1,  "mul0_src1", 36, 4, G, mul[0].src1, U8) \
	X(MUL0_S0,  "mul0_src0", 32, 4, G, mul[0].src0, U8) \
	X(PAD,      "pad",       28, 4, G, pad,         U8) \
	X(VAR3,     "var3",      21, 7, G, var[3],      VAR) \
	X(VAR2,     "var2",      14, 7, G, var[2],      VAR) \
	X(VAR1,     "var1",       7, 7, G, var[1],      VAR) \
	X(VAR0,     "var0",       0, 7, G, var[0],      VAR)

#define TEGRA_MFU_VAR_FIELDS(X) \
	X(ROW, "tram_row", 3, 4, G, tram_row, U8) \
	X(OP,  "op",       1, 2, G, op,       U8) \
	X(SAT, "saturate", 0, 1, G, saturate, BOOL)

#define TEGRA_SCHED_FIELDS(X) \
	X(ADDR,  "address", 2, 6, G, address, U8) \
	X(COUNT, "count",   0, 2, G, count,   U8)

#define TEGRA_TEX_FIELDS(X) \
	X(SAMPLER,   "sampler",       0, 4,  G, sampler,      U8) \
	X(SRC_SEL,   "src_r2",        4, 1,  G, src_r2,       BOOL) \
	X(DST_SEL,   "dst_r2",        5, 1,  G, dst_r2,       BOOL) \
	X(COLOR_KEY, "COLOR_KEY",     6, 1,  A, color_key,    BOOL) \
	X(COMP_SEL,  "COMP_SEL",      7, 1,  A, comp_sel,     BOOL) \
	X(UNK8_9,    "unk8_9",        8, 2,  U, unknown,      NONE) \
	X(ENABLE,    "FETCH",        10, 1,  G, enable,       BOOL) \
	X(FETCH_KILLED, "FETCH_KILLED", 11, 1, A, fetch_killed, BOOL) \
	X(BIAS,      "USER_LOD_BIAS", 12, 1, G, bias,         BOOL) \
	X(USER_LOD,  "USER_LOD",     13, 1,  A, user_lod,     BOOL) \
	X(UNK14_31,  "unk14_31",     14, 18, U, unknown,      NONE)

#define TEGRA_DW_FIELDS(X) \
	X(ENABLE,   "enable",            0, 1,  G, enable,           BOOL) \
	X(OP,       "OP",                0, 2,  A, op,               U8) \
	X(RT,       "SURF",              2, 4,  G, rt,               U8) \
	X(WRITE_KILLED, "WRITE_KILLED",  6, 1,  A, write_killed,     BOOL) \
	X(WRITE_NON_CENTER, "WRITE_NON_CENTER", 7, 1, A, write_non_center, BOOL) \
	X(CACHE_PERSISTENT, "CACHE_PERSISTENT", 8, 1, A, cache_persistent, BOOL) \
	X(CACHE_READ_CLEAN, "CACHE_READ_CLEAN", 9, 1, A, cache_read_clean, BOOL) \
	X(STENCIL,  "stencil",          10, 1,  G, stencil,          BOOL) \
	X(SRC_SEL,  "src_r2",           15, 1,  G, src_r2,           BOOL) \
	X(UPPER,    "unk16_31",         16, 16, G, upper,            U16) \
	X(ARGS,     "ARGS",             10, 16, A, args,             U16)

/* grate writes PSEQ words raw: no GRATE rows, the known mask is 0 */
#define TEGRA_PSEQ_FIELDS(X) \
	X(ARGS,     "ARGS",              0, 16, A, args,             U16) \
	X(DST_SEL,  "dst_r2",            1, 1,  A, dst_r2,           BOOL) \
	X(ENABLE0,  "enable0",           3, 1,  A, enable0,          BOOL) \
	X(SURF,     "SURF",             16, 4,  A, surf,             U8) \
	X(READ_NON_CENTER, "READ_NON_CENTER", 20, 1, A, read_non_center, BOOL) \
	X(READ_KILLED, "READ_KILLED",   21, 1,  A, read_killed,      BOOL) \
	X(CACHE_PERSISTENT, "CACHE_PERSISTENT", 22, 1, A, cache_persistent, BOOL) \
	X(OP,       "OP",               23, 2,  A, op,               U8)

#define X_ALU(id, n, lo, w, r, m, k) TEGRA_ALU_##id,
#define X_SRC(id, n, lo, w, r, m, k) TEGRA_SRC_##id,
#define X_RD(id, n, lo, w, r, m, k) TEGRA_RD_##id,
#define X_MFU(id, n, lo, w, r, m, k) TEGRA_MFU_##id,
#define X_VAR(id, n, lo, w, r, m, k) TEGRA_VAR_##id,
#define X_SCHED(id, n, lo, w, r, m, k) TEGRA_SCHED_##id,
#define X_TEX(id, n, lo, w, r, m, k) TEGRA_TEX_##id,
#define X_DW(id, n, lo, w, r, m, k) TEGRA_DW_##id,
#define X_PSEQ(id, n, lo, w, r, m, k) TEGRA_PSEQ_##id,
enum tegra_alu_field { TEGRA_ALU_FIELDS(X_ALU) TEGRA_ALU_NFIELDS };
enum tegra_src_field { TEGRA_ALU_SRC_FIELDS(X_SRC) TEGRA_SRC_NFIELDS };
enum tegra_rd_field { TEGRA_ALU_RD_FIELDS(X_RD) TEGRA_RD_NFIELDS };
enum tegra_mfu_field { TEGRA_MFU_FIELDS(X_MFU) TEGRA_MFU_NFIELDS };
enum tegra_var_field { TEGRA_MFU_VAR_FIELDS(X_VAR) TEGRA_VAR_NFIELDS };
enum tegra_sched_field { TEGRA_SCHED_FIELDS(X_SCHED) TEGRA_SCHED_NFIELDS };
enum tegra_tex_field { TEGRA_TEX_FIELDS(X_TEX) TEGRA_TEX_NFIELDS };
enum tegra_dw_field { TEGRA_DW_FIELDS(X_DW) TEGRA_DW_NFIELDS };
enum tegra_pseq_field { TEGRA_PSEQ_FIELDS(X_PSEQ) TEGRA_PSEQ_NFIELDS };
#undef X_ALU
#undef X_SRC
#undef X_RD
#undef X_MFU
#undef X_VAR
#undef X_SCHED
#undef X_TEX
#undef X_DW
#undef X_PSEQ

extern const tegra_field tegra_alu_fields[TEGRA_ALU_NFIELDS];
extern const tegra_field tegra_src_fields[TEGRA_SRC_NFIELDS];
extern const tegra_field tegra_rd_fields[TEGRA_RD_NFIELDS];
extern const tegra_field tegra_mfu_fields[TEGRA_MFU_NFIELDS];
extern const tegra_field tegra_var_fields[TEGRA_VAR_NFIELDS];
extern const tegra_field tegra_sched_fields[TEGRA_SCHED_NFIELDS];
extern const tegra_field tegra_tex_fields[TEGRA_TEX_NFIELDS];
extern const tegra_field tegra_dw_fields[TEGRA_DW_NFIELDS];
extern const tegra_field tegra_pseq_fields[TEGRA_PSEQ_NFIELDS];

/* The table's GRATE rows ORed: the bits grate encodes and decodes. */
uint64_t tegra_fields_known(const tegra_field *tab, unsigned n);
/* Every row with a member, from w into the decoded struct out (a SRC
 * member is classified too). */
void tegra_fields_decode(const tegra_field *tab, unsigned n, uint64_t w, void *out);

/* ---- register map (7-bit operand / destination number; §2.3) ---------- */

enum tegra_reg_class {
	TEGRA_REG_ROW,        /* 0..15  r0..r15 */
	TEGRA_REG_GLOBAL,     /* 16..23 g0..g7 */
	TEGRA_REG_ALU,        /* 24..27 alu0..alu3 (slot results) */
	TEGRA_REG_IMM,        /* 28..30 imm0..imm2 (this packet's slot 3) */
	TEGRA_REG_CONST01,    /* 31 source #0/#1 (FX10 0.0 / 1.0); destination lp */
	TEGRA_REG_UNIFORM,    /* 32..63 u0..u31 = FP_CONST */
	TEGRA_REG_COND,       /* 64..71 cr0..cr15, two FX10 halves each */
	TEGRA_REG_POSX,       /* 72 */
	TEGRA_REG_POSY,       /* 73 */
	TEGRA_REG_COVERAGE,   /* 74: unknown to grate; wiki: coverage (assumption) */
	TEGRA_REG_PFACE,      /* 75 */
	TEGRA_REG_KILL,       /* 76 */
	TEGRA_REG_INVALID,    /* 77..127 */
};

enum {
	TEGRA_REG_NUM_ROW0 = 0, TEGRA_REG_NUM_GLOBAL0 = 16, TEGRA_REG_NUM_ALU0 = 24,
	TEGRA_REG_NUM_IMM0 = 28, TEGRA_REG_NUM_LP = 31, TEGRA_REG_NUM_U0 = 32,
	TEGRA_REG_NUM_CR0 = 64, TEGRA_REG_NUM_POSX = 72, TEGRA_REG_NUM_POSY = 73,
	TEGRA_REG_NUM_COVERAGE = 74, TEGRA_REG_NUM_PFACE = 75, TEGRA_REG_NUM_KILL = 76,
};

/* Class and index within the class of register number reg (0..127). */
void tegra_reg_classify(unsigned reg, uint8_t *cls, uint8_t *index);

/* ---- decoded forms (what the clocked units execute from) -------------- */

enum tegra_alu_opcode { TEGRA_ALU_MAD = 0, TEGRA_ALU_MIN = 1, TEGRA_ALU_MAX = 2, TEGRA_ALU_CSEL = 3 };
enum tegra_alu_scale { TEGRA_SCALE_NONE = 0, TEGRA_SCALE_X2, TEGRA_SCALE_X4, TEGRA_SCALE_DIV2 };
enum tegra_alu_cc { TEGRA_CC_NONE = 0, TEGRA_CC_EQ, TEGRA_CC_GT, TEGRA_CC_GE };

typedef struct tegra_alu_src {
	uint8_t reg;          /* 7-bit register number */
	uint8_t cls, index;   /* tegra_reg_classify(reg) */
	bool high, minus_one, fx10, abs, neg, x2;
} tegra_alu_src;

typedef struct tegra_alu_rd {
	bool sel_c, high, minus_one, enable, abs, fx10;
} tegra_alu_rd;

typedef struct tegra_alu_inst {
	uint8_t opcode;       /* tegra_alu_opcode */
	bool add_disable;     /* MAD with it = MUL */
	bool acc_other, acc_this, saturate;
	uint8_t scale, cc;
	uint8_t dst, dst_cls, dst_index;
	bool write_high, write_low;
	tegra_alu_src a, b, c;
	tegra_alu_rd d;
} tegra_alu_inst;

typedef struct tegra_alu_packet {
	tegra_alu_inst slot[4];
	/* Slot 3 as constants: decided as grate's disassembler does, when a source
	 * of slots 0..2 reads imm0..imm2 (assumption, tegra-fp.md §9.3). */
	bool slot3_is_imm;
	uint32_t imm[3];      /* 20-bit raw: FP20, or FX10 .l (bits 0..9) / .h (10..19) */
	uint32_t words[8];    /* as uploaded */
	/* arith=exact (docs/exact.md): source j (rA, rB, rC) of slot k, a
	 * constant (imm0..imm2 as FP20, #0/#1), is xk[k][j] where bit 3k + j
	 * of xmask is set (the binary32 the compiler encoded it from;
	 * tegra_fp_apply_ximm, never set by decoding) */
	float xk[4][3];
	uint16_t xmask;
} tegra_alu_packet;

enum tegra_mfu_sfu_op {
	TEGRA_SFU_NOP, TEGRA_SFU_RCP, TEGRA_SFU_RSQ, TEGRA_SFU_LG2, TEGRA_SFU_EX2,
	TEGRA_SFU_SQRT, TEGRA_SFU_SIN, TEGRA_SFU_COS, TEGRA_SFU_FRC, TEGRA_SFU_PREEX2,
	TEGRA_SFU_PRESIN, TEGRA_SFU_PRECOS, TEGRA_SFU_NUM_NAMED
};
/* Multiplier codes (tegra-fp.md §2.4) */
enum { TEGRA_MUL_DST_NONE = 0, TEGRA_MUL_DST_BAR = 1, TEGRA_MUL_DST_R0 = 4 };
enum { TEGRA_MUL_SRC_R0 = 0, TEGRA_MUL_SRC_SFU = 10, TEGRA_MUL_SRC_BAR0 = 11,
       TEGRA_MUL_SRC_BAR1 = 12, TEGRA_MUL_SRC_ONE = 13 };
enum { TEGRA_VAR_NOP = 0, TEGRA_VAR_FP20 = 1, TEGRA_VAR_FX10 = 2 };

typedef struct tegra_mfu_var { uint8_t op, tram_row; bool saturate; } tegra_mfu_var;

typedef struct tegra_mfu_inst {
	uint8_t sfu_op, sfu_reg;
	struct { uint8_t dst, src0, src1; } mul[2];
	tegra_mfu_var var[4];     /* var k -> rk */
	uint8_t pad;
	uint32_t hi, lo;
} tegra_mfu_inst;

typedef struct tegra_tex_inst {
	uint32_t word;
	uint8_t sampler;
	bool src_r2, dst_r2, enable, bias;
	bool color_key, comp_sel, fetch_killed, user_lod;   /* t30 names */
	uint32_t unknown;     /* bits outside the known mask (6..9, 11, 13..31) */
} tegra_tex_inst;

typedef struct tegra_dw_inst {
	uint32_t word;
	bool enable, stencil, src_r2;
	uint8_t op, rt;       /* t30 OP (0 NOP, 1 ST, 2 ST_R20, 3 ST_R80), SURF */
	uint16_t upper;       /* bits 16..31; grate writes 2 */
	bool write_killed, write_non_center, cache_persistent, cache_read_clean;
	uint16_t args;        /* t30 ARGS (bits 10..25) */
	uint32_t unknown;     /* bits outside the known mask (1, 6..9, 11..14) */
} tegra_dw_inst;

typedef struct tegra_pseq_inst {
	uint32_t word;
	uint16_t args;
	uint8_t surf, op;     /* t30 OP: 0 NOP, 1 LD, 2 LD_R20, 3 LD_R80 */
	bool read_non_center, read_killed, cache_persistent;
	bool dst_r2, enable0; /* grate PR #63 reading */
} tegra_pseq_inst;

typedef struct tegra_sched {
	uint8_t count, address;
} tegra_sched;

/* ---- encode / decode (pure; every bit of every word is kept) ---------- */

uint64_t tegra_alu_encode(const tegra_alu_inst *in);
void tegra_alu_decode(uint64_t w, tegra_alu_inst *out);
uint32_t tegra_alu_src_encode(const tegra_alu_src *s);
void tegra_alu_src_decode(uint32_t bits13, tegra_alu_src *s);
uint32_t tegra_alu_rd_encode(const tegra_alu_rd *d);
void tegra_alu_rd_decode(uint32_t bits6, tegra_alu_rd *d);
/* A packet from its 8 uploaded words (slot k = words 2k, 2k+1, high first). */
void tegra_alu_packet_decode(const uint32_t words[8], tegra_alu_packet *out);
/* Immediates of slot 3 from its uploaded words A (first) and B (second). */
void tegra_alu_imm_get(uint32_t a, uint32_t b, uint32_t imm[3]);
uint64_t tegra_mfu_encode(const tegra_mfu_inst *in);
void tegra_mfu_decode(uint32_t hi, uint32_t lo, tegra_mfu_inst *out);
uint32_t tegra_sched_encode(tegra_sched s);
tegra_sched tegra_sched_decode(uint32_t w);
void tegra_tex_decode(uint32_t w, tegra_tex_inst *out);
uint32_t tegra_tex_encode(const tegra_tex_inst *in);
void tegra_dw_decode(uint32_t w, tegra_dw_inst *out);
uint32_t tegra_dw_encode(const tegra_dw_inst *in);
void tegra_pseq_decode(uint32_t w, tegra_pseq_inst *out);

/* Slot 3 immediate k (0..2) in Y = B:A: bits TEGRA_IMM_LO(k) .. + 19; an
 * FX10 .h half starts FX10_HIGH_SHIFT above. */
#define TEGRA_IMM_BITS 20
#define TEGRA_IMM_LO(k) (4u + TEGRA_IMM_BITS * (unsigned)(k))

/* Canonical words (tegra-fp.md §2.4, corpus README quirk 1) */
#define TEGRA_ALU_NOP_HI 0x000FE7E8u    /* MAD lp.lh, #1, #0, #0: reset pattern */
#define TEGRA_ALU_NOP_LO 0x3E41F200u
#define TEGRA_ALU_XNOP_HI 0x000F87C8u   /* explicit "ALUk: NOP" */
#define TEGRA_ALU_XNOP_LO 0x3E41F200u
#define TEGRA_DW_STORE_BASE 0x00020001u /* enable + bits 16..31 = 2 */
#define TEGRA_DW_STORE_STENCIL 0x00020409u

/* ---- names shared by assembler and disassembler ------------------------ */

extern const char *const tegra_sfu_names[TEGRA_SFU_NUM_NAMED];      /* "rcp", "preEx2", ... */
extern const char *const tegra_alu_opcode_names[4];                 /* "MAD", ... */

/* ---- grate's host-side number conversions (tegra-fp.md §2.4) ----------- */

/* grate float_to_fp20: truncated mantissa, exponent wraps (& 0x3f); ±0 -> 0.
 * Differs from isa/fp20.h (which clamps), hence local. */
uint32_t tegra_grate_fp20(float f);
/* grate float_to_fx10: (uint32_t)(f*256.0f) & 0x3ff as on the x86-64 oracle:
 * negative values wrap two's complement, out-of-range gives 0 (corpus README
 * quirk 12).  isa/fx10.h saturates instead, hence local. */
uint32_t tegra_grate_fx10(float f);
/* grate's disassembler decoders: FP20 with no zero (exponent 0 -> 2^-31..),
 * FX10 as two's complement / 256. */
float tegra_grate_fp20_value(uint32_t v);
float tegra_grate_fx10_value(uint32_t v);
/* The text-to-float step of grate's lexer (atof, then to float). */
float tegra_grate_atof(const char *s);

#endif

/* PICA200 shader instruction set: formats, operand descriptors, decode and
 * encode.  One table (pica_ops.def + PICA_FMTS) drives the assembler, the
 * disassembler and the shader unit.  (pica200.md §1.2, §1.3)
 *
 *  31    26 25   21 20 19 18      12 11     7 6      0
 * +--------+-------+-----+----------+--------+--------+
 * | opcode |  DST  | IDX |  SRC1(7) | SRC2(5)| DESC(7)|  1   (1u: SRC2 = 0)
 * | opcode |  DST  | IDX | SRC1(5)|  SRC2(7)  | DESC(7)|  1i  (SRC1 18:14, SRC2 13:7)
 * |opc(5)|CMPX|CMPY| IDX |  SRC1(7) | SRC2(5)| DESC(7)|  1c  (31:27, 26:24, 23:21)
 * | opcode |RX|RY|COP|   DST addr (21:10)  |..|  NUM   |  2   (NUM 7:0)
 * | opcode | BOOL id |   DST addr (21:10)  |..|  NUM   |  3   (INT id = 23:22)
 * | opcode |VTX|P|W|              0                    |  4   (25:24, 23, 22)
 * | opcode |              0                            |  0
 *
 *  31 29 28  24 23 22 21  17 16     10 9   5 4    0
 * +-----+------+-----+------+---------+-----+------+
 * | 111 | DST  | IDX | SRC1 | SRC2(7) | SRC3| DESC |   5  MAD  (IDX -> SRC2)
 * | 110 | DST  | IDX | SRC1 | SRC2(5)|SRC3(7)| DESC|   5i MADI (SRC2 16:12, SRC3 11:5)
 *
 * Register fields: source 0x00-0x0F v0-v15, 0x10-0x1F r0-r15, 0x20-0x7F
 * c0-c95 (7-bit fields only); destination 0x00-0x0F o0-o15, 0x10-0x1F r.
 * IDX: 0 none, 1 a0.x, 2 a0.y, 3 aL; it indexes the format's wide source.
 *
 * Operand descriptor (32 bits):
 *  31  30    23  22  21    14  13  12     5   4   3   0
 * +--+---------+----+-------+----+--------+----+------+
 * |  | SWZ3    |NEG3| SWZ2  |NEG2|  SWZ1  |NEG1| MASK |   MASK bit3 = x .. bit0 = w
 * +--+---------+----+-------+----+--------+----+------+
 * swizzle byte: bits 7:6 select component x, 5:4 y, 3:2 z, 1:0 w
 * (0 = x .. 3 = w; identity .xyzw = 0x1B). */
#ifndef ULP_ISA_PICA_ISA_H
#define ULP_ISA_PICA_ISA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Instruction formats (pica200.md §1.2).  3i is format 3 with the 2-bit
 * INT id in 23:22 instead of the 4-bit BOOL id (LOOP). */
enum pica_fmt {
	PICA_FMT_0, PICA_FMT_1, PICA_FMT_1I, PICA_FMT_1U, PICA_FMT_1C,
	PICA_FMT_2, PICA_FMT_3, PICA_FMT_3I, PICA_FMT_4, PICA_FMT_5, PICA_FMT_5I,
	PICA_FMT_COUNT
};

/* Which descriptor selectors an instruction reads. */
enum pica_desc_use {
	PICA_USE_NONE,      /* no descriptor */
	PICA_USE_COMPWISE,  /* per component, only the components in the mask */
	PICA_USE_DP3,       /* src1.xyz, src2.xyz */
	PICA_USE_DPH,       /* src1.xyz, src2.xyzw */
	PICA_USE_SCALAR,    /* src1.x */
	PICA_USE_MOVA,      /* src1.x / .y as the mask selects */
	PICA_USE_CMP,       /* src1.xy, src2.xyzw, no mask */
	PICA_USE_ALL,       /* everything */
};

/* What the shader unit runs for an op: one handler per family of ops with
 * the same semantics (the exec column of pica_ops.def). */
enum pica_exec_kind {
	PICA_EX_BIN,      /* component-wise a OP b: ADD MUL SGE SLT MAX MIN */
	PICA_EX_DOT,      /* DP3 DP4 DPH */
	PICA_EX_DST,
	PICA_EX_SFU,      /* scalar a.x: EX2 LG2 RCP RSQ */
	PICA_EX_LITP,
	PICA_EX_UNARY,    /* component-wise: FLR MOV */
	PICA_EX_MAD,
	PICA_EX_MOVA,
	PICA_EX_CMP,
	PICA_EX_NOP,
	PICA_EX_END,
	PICA_EX_BREAK,
	PICA_EX_CALL,
	PICA_EX_IF,
	PICA_EX_LOOP,
	PICA_EX_JMP,
	PICA_EX_SETEMIT,
	PICA_EX_EMIT,
	PICA_EX_UNDOC,    /* an undocumented opcode (pica200.md §8 q1) */
	PICA_EX_COUNT
};

/* Timing class of an instruction (the timing column; knobs pica.latency.*). */
enum pica_class { PICA_CLS_ALU, PICA_CLS_SFU, PICA_CLS_MOVA, PICA_CLS_FLOW, PICA_CLS_NOP };

/* Architectural state an op reads or writes besides its register sources
 * (the flags column). */
enum {
	PICA_F_DST  = 1u << 0,   /* writes its destination register */
	PICA_F_CMPR = 1u << 1,   /* reads cmp.xy (the format-2 condition) */
	PICA_F_CMPW = 1u << 2,   /* writes cmp.xy */
	PICA_F_A0   = 1u << 3,   /* writes a0.x / a0.y as the mask selects */
	PICA_F_AL   = 1u << 4,   /* writes aL */
	PICA_F_END  = 1u << 5,   /* ends the invocation */
};

enum pica_op {
#define PICA_OP(id, mn, opc, span, fmt, use, base, exec, timing, flags) PICA_OP_##id,
#include "isa/pica/pica_ops.def"
#undef PICA_OP
	PICA_OP_UNKNOWN,    /* opcodes 0x10-0x11, 0x14-0x17, 0x1C-0x1F */
	PICA_OP_COUNT
};

struct pica_op_info {
	const char *name;
	uint8_t opcode, span;
	enum pica_fmt fmt;
	enum pica_desc_use use;
	enum pica_op base;
	uint8_t exec;         /* enum pica_exec_kind */
	uint8_t timing;       /* enum pica_class */
	uint8_t flags;        /* PICA_F_* */
};
extern const struct pica_op_info PICA_OPS[PICA_OP_COUNT];

/* Bit field inside an instruction word (width 0 = absent). */
struct pica_field { uint8_t lo, width; };

struct pica_fmt_info {
	const char *name;
	uint8_t op_bits;             /* 6, 5 (1c) or 3 (5, 5i) */
	uint8_t nsrc;                /* register sources */
	struct pica_field dst, src[3], idx, desc;
	int8_t idx_src;              /* source that IDX indexes (-1: none) */
};
extern const struct pica_fmt_info PICA_FMTS[PICA_FMT_COUNT];

/* The fields of a format that are not register operands: CMP's comparisons
 * (1c) and the flow-control formats (2, 3, 3i, 4), one row each
 * (pica200.md §1.2).  pica_encode and pica_decode iterate these rows; the
 * assembler patches branch targets through them.
 *   X(ID, format, lo, width, member of struct pica_inst, member type) */
#define PICA_FIELDS(X) \
	X(1C_CMPX, PICA_FMT_1C, 24,  3, cmp_op[0],  u8)   /* enum pica_cmp_op */ \
	X(1C_CMPY, PICA_FMT_1C, 21,  3, cmp_op[1],  u8) \
	X(2_REFX,  PICA_FMT_2,  25,  1, ref_x,      bool) \
	X(2_REFY,  PICA_FMT_2,  24,  1, ref_y,      bool) \
	X(2_COND,  PICA_FMT_2,  22,  2, cond,       u8)   /* enum pica_cond */ \
	X(2_DST,   PICA_FMT_2,  10, 12, target,     u16)  /* word address */ \
	X(2_NUM,   PICA_FMT_2,   0,  8, num,        u8) \
	X(3_BOOL,  PICA_FMT_3,  22,  4, uniform_id, u8)   /* b id */ \
	X(3_DST,   PICA_FMT_3,  10, 12, target,     u16) \
	X(3_NUM,   PICA_FMT_3,   0,  8, num,        u8) \
	X(3I_INT,  PICA_FMT_3I, 22,  2, uniform_id, u8)   /* i id (LOOP) */ \
	X(3I_DST,  PICA_FMT_3I, 10, 12, target,     u16) \
	X(3I_NUM,  PICA_FMT_3I,  0,  8, num,        u8) \
	X(4_VTX,   PICA_FMT_4,  24,  2, vtx_id,     u8) \
	X(4_PRIM,  PICA_FMT_4,  23,  1, prim,       bool) \
	X(4_INV,   PICA_FMT_4,  22,  1, inv,        bool) /* winding */

enum pica_field_id {
#define PICA_FIELD_ID(id, fmt, lo, w, member, type) PICA_FLD_##id,
	PICA_FIELDS(PICA_FIELD_ID)
#undef PICA_FIELD_ID
	PICA_FLD_COUNT
};

enum pica_field_type { PICA_FT_BOOL, PICA_FT_U8, PICA_FT_U16 };

struct pica_field_row {
	const char *name;            /* "2_DST" */
	enum pica_fmt fmt;
	struct pica_field bits;
	uint16_t offset;             /* of the member in struct pica_inst */
	uint8_t type;                /* enum pica_field_type */
};
extern const struct pica_field_row PICA_FIELD_ROWS[PICA_FLD_COUNT];

/* A flow instruction word with its DST (branch target) or NUM field
 * replaced; the word's format has the field (2, 3, 3i). */
uint32_t pica_word_set_target(uint32_t word, uint32_t target);
uint32_t pica_word_set_num(uint32_t word, uint32_t num);

enum pica_cond {           /* format-2 CONDOP */
	PICA_COND_OR = 0, PICA_COND_AND = 1, PICA_COND_X = 2, PICA_COND_Y = 3,
};
enum pica_cmp_op {         /* format 1c CMPX/CMPY */
	PICA_CMP_EQ, PICA_CMP_NE, PICA_CMP_LT, PICA_CMP_LE, PICA_CMP_GT, PICA_CMP_GE,
	PICA_CMP_UNK6, PICA_CMP_UNK7,
};
enum pica_idx { PICA_IDX_NONE, PICA_IDX_A0X, PICA_IDX_A0Y, PICA_IDX_AL };

/* Register-field ranges. */
#define PICA_SRC_V   0x00
#define PICA_SRC_R   0x10
#define PICA_SRC_C   0x20
#define PICA_DST_O   0x00
#define PICA_DST_R   0x10
#define PICA_NUM_C   96
#define PICA_CODE_MAX   4096    /* 12-bit addresses (pica200.md §1.1) */
#define PICA_VS_CODE_MAX 512    /* libctru upload cap, picasso limit */
#define PICA_OPDESC_MAX 128     /* 7-bit DESC */
#define PICA_MAD_OPDESC_MAX 32  /* MAD/MADI: 5-bit DESC */

#define PICA_SWZ_IDENTITY 0x1B

struct pica_src {
	uint8_t reg;          /* source field value: v 0x00, r 0x10, c 0x20 */
	uint8_t idx;          /* enum pica_idx; only the wide source carries it */
	bool neg;
	uint8_t swz[4];       /* component selected for x, y, z, w (0..3) */
};

/* A decoded instruction: everything a shader unit needs to run it. */
struct pica_inst {
	uint32_t word, desc;       /* raw instruction word and its descriptor */
	enum pica_op op;
	enum pica_fmt fmt;
	uint8_t opcode;            /* 6-bit opcode field (word >> 26) */
	/* ALU formats */
	uint8_t desc_id;
	uint8_t dst;               /* destination field: o 0x00, r 0x10 */
	uint8_t mask;              /* descriptor mask, bit3 = x .. bit0 = w */
	uint8_t nsrc;
	struct pica_src src[3];
	uint8_t cmp_op[2];         /* CMP: x, y */
	/* flow control */
	uint16_t target;           /* DST word address */
	uint8_t num;               /* NUM */
	bool ref_x, ref_y;
	uint8_t cond;              /* enum pica_cond */
	uint8_t uniform_id;        /* b id (CALLU/IFU/JMPU) or i id (LOOP) */
	/* SETEMIT */
	uint8_t vtx_id;
	bool prim, inv;
	uint32_t stray;            /* word bits no field accounts for */
};

/* Opcode -> op (PICA_OP_UNKNOWN for the undocumented values). */
enum pica_op pica_op_of_word(uint32_t word);
/* Descriptor index the word uses, or -1 when it has none. */
int pica_desc_index(uint32_t word);
/* Decode word with its descriptor (ignored when the op has none). */
void pica_decode(uint32_t word, uint32_t desc, struct pica_inst *out);
/* Decode with a descriptor table; a descriptor index past the table decodes
 * with descriptor 0 and returns false. */
bool pica_decode_prog(uint32_t word, const uint32_t *descs, size_t ndesc,
                      struct pica_inst *out);

/* Encode the word from op and fields (desc_id included).  False when a
 * field does not fit its format. */
bool pica_encode(const struct pica_inst *in, uint32_t *word);
/* Pack / unpack the operand descriptor fields of in. */
uint32_t pica_desc_pack(const struct pica_inst *in);
void pica_desc_unpack(uint32_t desc, struct pica_inst *out);

/* The descriptor bits this instruction reads (pica_desc_use rules, with
 * picasso's treatment: CMP ignores the mask). */
uint32_t pica_desc_care(enum pica_op op, uint32_t desc);

/* Swizzle byte <-> selectors. */
uint8_t pica_swz_pack(const uint8_t swz[4]);
void pica_swz_unpack(uint8_t byte, uint8_t swz[4]);

/* Register names: "v3", "r12", "c40"; destination "o2", "r0".  buf >= 8. */
const char *pica_src_name(uint8_t reg, char *buf);
const char *pica_dst_name(uint8_t reg, char *buf);

/* f32 -> f24 bits exactly as picasso/libctru convert constants: mantissa
 * truncated, exponent < 0 -> signed zero, > 0x7F -> signed inf (NaN too). */
uint32_t pica_f24_from_f32(float v);

#endif

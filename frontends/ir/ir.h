/* Target-independent compiler IR: virtual-register vec4 instructions.
 *
 * The PICA200 vertex/geometry backend (frontends/pica/) and the Tegra
 * fragment backend share it.  Pipeline (docs/compiler.md):
 *
 *   tgsi_shader --ir_from_tgsi--> ir_shader --ir_lower(caps)--> base ops
 *     --target legalisation (operand rules, copies)--> ir_zero_undefined
 *     --ir_regalloc(nregs)--> physical registers --target emission
 *
 * Registers.  IR_TEMP n is a virtual vec4 register (TGSI TEMP[n] keeps
 * number n; ir_new_temp adds more).  IN/OUT/CONST/IMM/ADDR/SAMP keep their
 * TGSI numbers: CONST n is CONST[0][n]; IMM n is entry n of `imm` (TGSI
 * IMM[n] keeps n; the lowering appends its own constants after them).
 *
 * Control flow.  Structured, kept as blocks in one instruction array:
 * IF/ELSE/ENDIF and BGNLOOP/ENDLOOP bracket their bodies; BRK and CONT
 * belong to the innermost loop.  ir_resolve_cf() fills each instruction's
 * `open`/`mid`/`close` links (the same meaning as tgsi_instruction's cf_*).
 * Loops are unbounded (they end only through BRK), as in TGSI.
 *
 * Every instruction keeps the TGSI line:col it came from, so a target can
 * refuse an instruction with a diagnostic that names it. */
#ifndef ULP_FRONTENDS_IR_H
#define ULP_FRONTENDS_IR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "frontends/tgsi/tgsi.h"

enum ir_op {
#define IR_OP(name, nsrc, kind, flags) IR_OP_##name,
#include "frontends/ir/ir_ops.def"
#undef IR_OP
	IR_OP_COUNT
};

enum ir_kind { IR_KIND_COMP, IR_KIND_REPL, IR_KIND_CHAN, IR_KIND_FLOW, IR_KIND_TEX };
enum { IR_F_BASE = 1u << 0, IR_F_COMMUTE = 1u << 1 };

typedef struct ir_op_info {
	const char *name;
	uint8_t nsrc, kind, flags;
} ir_op_info;

const ir_op_info *ir_op_get(unsigned op);

enum ir_file {
	IR_NULL, IR_TEMP, IR_INPUT, IR_OUTPUT, IR_CONST, IR_IMM, IR_ADDR, IR_SAMPLER, IR_SYSVAL,
	IR_FILE_COUNT
};

enum { IR_MAX_SRC = 3, IR_MAX_REG_INDEX = 4095 };

typedef struct ir_src {
	uint8_t file;           /* enum ir_file */
	uint8_t swz[4];         /* component read for x, y, z, w (0..3) */
	bool neg, abs;          /* |x| first, then - (as TGSI) */
	bool indirect;          /* index = ADDR[ind_reg].ind_comp + index (CONST) */
	uint8_t ind_reg, ind_comp;
	int32_t index;
	uint16_t dim;           /* GS input: vertex number */
} ir_src;

typedef struct ir_dst {
	uint8_t file;           /* IR_TEMP, IR_OUTPUT, IR_ADDR, IR_NULL */
	uint8_t mask;           /* bit c = component c written */
	int32_t index;
} ir_dst;

/* What an IF tests on src.x.  TGSI's IF is IR_IF_NE0; IR_IF_LT0 comes only
 * from a lowering for a target whose ir_caps.if_lt0 says it can test it. */
enum ir_if_cond {
	IR_IF_NE0,              /* src.x != 0.0 (NaN true) */
	IR_IF_LT0,              /* src.x < 0.0 (NaN false) */
};

typedef struct ir_inst {
	uint16_t op;            /* enum ir_op */
	bool sat;               /* clamp to [0, 1] (NaN -> 0) on write */
	uint8_t cond;           /* IF: enum ir_if_cond */
	uint8_t nsrc;
	ir_dst dst;
	ir_src src[IR_MAX_SRC];
	uint8_t tex_target;     /* enum tgsi_texture_target (TEX ops) */
	uint16_t sampler;
	int32_t open, mid, close;   /* ir_resolve_cf links; -1 where none */
	int line, col;          /* TGSI source position (0 = internal) */
} ir_inst;

/* Why a shader is refused (the diagnostic says which instruction). */
enum ir_refusal {
	IR_OK,
	IR_REFUSE_STAGE,        /* the target has no such shader stage */
	IR_REFUSE_INTEGER,      /* integer opcodes */
	IR_REFUSE_DOUBLE,       /* 64-bit opcodes or immediates */
	IR_REFUSE_OPCODE,       /* an opcode the target cannot run */
	IR_REFUSE_TEXTURE,      /* texture sampling where the stage has none */
	IR_REFUSE_ADDRESSING,   /* indirect addressing the target cannot do */
	IR_REFUSE_REGISTERS,    /* too many live temporaries */
	IR_REFUSE_CONSTANTS,    /* constant file full or index out of range */
	IR_REFUSE_IO,           /* inputs / outputs beyond the target's */
	IR_REFUSE_CONTROL_FLOW, /* subroutines, switch, unsupported nesting */
	IR_REFUSE_LIMITS,       /* code size, descriptors, other target limits */
	IR_REFUSE_MALFORMED,    /* the TGSI itself is wrong (nesting, files) */
	IR_REFUSAL_COUNT
};
const char *ir_refusal_name(unsigned why);

typedef struct ir_error {
	enum ir_refusal why;
	ulp_diag d;
} ir_error;

/* Records a refusal (first one wins) and returns false. */
bool ir_refuse(ir_error *e, enum ir_refusal why, const char *file, int line, int col,
               const char *fmt, ...) __attribute__((format(printf, 6, 7)));

typedef struct ir_output {
	int32_t index;          /* OUT[index] */
	uint8_t semantic;       /* enum tgsi_semantic */
	uint32_t semantic_index;
	uint8_t mask;           /* declared usage mask */
	uint8_t written;        /* components some instruction writes */
} ir_output;

typedef struct ir_shader {
	uint8_t stage;          /* enum tgsi_processor */
	const char *file;       /* for diagnostics (not owned) */
	ir_inst *inst;
	size_t n, cap;
	uint32_t ntemps;        /* virtual registers 0..ntemps-1 */
	uint32_t (*imm)[4];     /* raw 32-bit words, read as f32 */
	size_t nimm, cap_imm;
	size_t nimm_tgsi;       /* the first nimm_tgsi come from TGSI IMM[] */
	uint8_t imm_fill;       /* slots used in the last internal entry */
	ir_output *out;
	size_t nout;
	uint16_t inputs_used;   /* bit n = IN[n] read (n < 16) */
	uint32_t ninputs;       /* highest IN index + 1 */
	int32_t const_count;    /* CONST[0] slots declared or read directly: 0..count-1 */
	uint8_t addr_used;      /* bit n = ADDR[n] written */
	/* GS properties */
	uint8_t gs_in_prim, gs_out_prim;
	uint32_t gs_max_vertices;
} ir_shader;

/* ---- building and editing (ir.c) ---- */
ir_shader *ir_shader_new(uint8_t stage, const char *file);
void ir_shader_free(ir_shader *s);
/* Inserts count zeroed instructions before pos; returns the first or NULL. */
ir_inst *ir_insert(ir_shader *s, size_t pos, size_t count);
ir_inst *ir_append(ir_shader *s);
void ir_remove(ir_shader *s, size_t pos);
uint32_t ir_new_temp(ir_shader *s);
/* A source reading the scalar v (replicated .xxxx-style) from the immediate
 * pool; an existing component with the same bits is reused.  file == IR_NULL
 * when out of memory. */
ir_src ir_imm_scalar(ir_shader *s, float v);
/* Whole-register sources and destinations. */
ir_src ir_src_reg(uint8_t file, int32_t index);
ir_src ir_src_swz(ir_src s, unsigned x, unsigned y, unsigned z, unsigned w);
ir_src ir_src_comp(ir_src s, unsigned c);    /* s.cccc (c of s's own swizzle) */
ir_dst ir_dst_reg(uint8_t file, int32_t index, uint8_t mask);

/* Components of each source an instruction reads (bit c = component c of
 * the register, after the swizzle). */
uint8_t ir_src_reads(const ir_inst *in, unsigned k);

/* Rebuilds open/mid/close from nesting.  False (e) on bad nesting. */
bool ir_resolve_cf(ir_shader *s, ir_error *e);

/* Human-readable listing (malloc'd), one instruction per line, for tests
 * and --ir dumps: "  3: MAD t2.xy, in0.xxxx, c1.yyyy, -t0.xyzw". */
char *ir_dump(const ir_shader *s);

/* ---- TGSI -> IR (ir_build.c) ---- */
/* Translates a parsed, cf-resolved shader.  Refuses (NULL, e set) what no
 * float-only target can run: integer, 64-bit, memory and subroutine
 * opcodes, indirect TEMP/OUT access, CONST buffers other than 0. */
ir_shader *ir_from_tgsi(tgsi_shader *sh, const char *file, ir_error *e);

/* ---- lowering (ir_lower.c) ---- */
typedef struct ir_caps {
	uint64_t native;        /* bit op = IR_OP_op runs natively (BASE ops implied) */
	bool src_abs;           /* |x| source modifier */
	bool sat;               /* _SAT destination modifier */
	bool arl_truncates;     /* address load truncates: ARL gets an FLR first */
	bool texture;           /* TEX/TXB/TXL are native (TXP is always lowered) */
	bool if_lt0;            /* IF can test src.x < 0 (IR_IF_LT0): CMP is lowered to a
	                         * branch per condition component where an operand may be
	                         * NaN (docs/compiler.md "Lowering") */
} ir_caps;

/* Expands every non-native op into base ops, then |x| and _SAT where the
 * target lacks them.  Each expansion writes every component of its final
 * destination exactly once (CMP's branches: once on every path) and never
 * reads it after, so it is safe on outputs. */
bool ir_lower(ir_shader *s, const ir_caps *caps, ir_error *e);

/* Redirects every write (and read) of OUT[n] to a new temporary and copies
 * the temporaries to the outputs before END (in a GS: before each EMIT
 * instead).  With only_needed, outputs that are written at most once per
 * component, outside any IF/loop, and never read keep their direct writes.
 * Components in `mask` never written get 0. */
bool ir_outputs_to_temps(ir_shader *s, bool only_needed, ir_error *e);

/* ---- liveness and allocation (ir_live.c) ---- */
/* Components of temporaries read before any write on some path from the
 * entry get a MOV of 0 at the start (tgsi_exec starts every register at 0). */
bool ir_zero_undefined(ir_shader *s, ir_error *e);

typedef struct ir_interval { int32_t start, end; } ir_interval;
/* Live interval of each temporary over instruction positions (the hull of
 * every position where some component is live, loops included); start = -1
 * for an unused temporary.  live[] has s->ntemps entries (malloc'd). */
bool ir_live_intervals(const ir_shader *s, ir_interval **live, ir_error *e);
/* Linear-scan allocation of the temporaries onto nregs physical registers:
 * map[t] = register (malloc'd, ntemps entries; 0xFFFF = unused), *used =
 * registers used.  Refuses (IR_REFUSE_REGISTERS) when nregs do not suffice. */
bool ir_regalloc(const ir_shader *s, unsigned nregs, uint16_t **map, unsigned *used,
                 ir_error *e);

#endif

/* PICA200 shader execution core: the architectural state of one invocation
 * and the execution of one instruction, with the hardware's flow-control
 * stacks (pica200.md §1.4).  The clocked unit (units/pica/pica_shader.c) wraps it
 * with timing; `ulpsim pica run` and the tests drive it directly too.
 *
 * Registers hold float24 values as host floats (isa/f24.h). */
#ifndef ULP_UNITS_PICA_EXEC_H
#define ULP_UNITS_PICA_EXEC_H

#include <stdbool.h>
#include <stdint.h>

#include "base/diag.h"
#include "isa/f24.h"
#include "isa/pica/pica_isa.h"
#include "isa/pica/shbin.h"
#include "sim/core/config.h"

typedef struct pica_vec4 { float c[4]; } pica_vec4;

/* Uniforms shared by every unit running one program (pica200.md §1.1). */
typedef struct pica_uniforms {
	pica_vec4 c[96];
	uint8_t i[4][4];      /* x = count - 1, y = initial aL, z = step, w */
	bool b[16];
} pica_uniforms;

/* Scoreboard bits: r0-r15 = bits 0-15, then the other written state. */
enum {
	PICA_SB_A0X = 1u << 16, PICA_SB_A0Y = 1u << 17, PICA_SB_AL = 1u << 18,
	PICA_SB_CMP = 1u << 19,
};

typedef struct pica_inst_meta {
	uint32_t reads, writes;   /* scoreboard bits */
	uint8_t cls;              /* enum pica_class (pica_ops.def timing) */
	uint8_t exec;             /* enum pica_exec_kind: the handler pica_step runs */
	bool two_inputs;          /* reads two distinct v registers (hangs, §1.2) */
	bool bad_desc;            /* descriptor index past the table */
	bool is_end;
} pica_inst_meta;

/* What a program needs besides its code: from a DVLE, or from the shader
 * registers (entry point, output map, GS configuration). */
typedef struct pica_program_desc {
	uint32_t entry, end;
	bool is_gs;
	uint8_t gs_mode;                /* enum shbin_gs_mode */
	uint8_t gs_variable_num;        /* variable mode: full vertices */
	uint8_t gs_fixed_start, gs_fixed_num;
	uint8_t out_need[16];           /* configured components (bit 0 = x) per o register */
} pica_program_desc;

/* A program ready to run: code predecoded once, plus its description. */
typedef struct pica_program {
	struct pica_inst *inst;
	pica_inst_meta *meta;
	uint32_t ncode;
	uint32_t entry, end;
	bool is_gs;
	uint8_t gs_mode, gs_variable_num, gs_fixed_start, gs_fixed_num;
	uint16_t out_regs;         /* o registers in the output table */
	uint8_t out_need[16];      /* components (bit 0 = x) the table requires */
	const struct shbin_dvle *dvle;   /* when built from an SHBIN, else NULL */
	struct pica_fast_inst *fast;     /* the fast path's forms (pica_fast.h) */
	struct pica_batch_plan *batch;   /* the batch path's plan, or NULL (pica_batch.h) */
} pica_program;

/* From code memory and operand descriptors (the register-programmed path). */
bool pica_program_from_code(pica_program *p, const uint32_t *code, size_t ncode,
                            const uint32_t *opdesc, size_t nopdesc,
                            const pica_program_desc *desc, const ulp_config *cfg, ulp_diag *d);
/* From one DVLE of an SHBIN. */
bool pica_program_build(pica_program *p, const struct shbin *s, unsigned dvle,
                        const ulp_config *cfg, ulp_diag *d);
void pica_program_free(pica_program *p);
/* The DVLE's constant table into u (done before the case's own uniforms). */
void pica_uniforms_apply_dvle(pica_uniforms *u, const struct shbin_dvle *dvle);

enum { PICA_CALL_DEPTH = 4, PICA_IF_DEPTH = 8, PICA_LOOP_DEPTH = 4 };

typedef struct pica_call_entry { uint16_t trigger, ret; } pica_call_entry;
typedef struct pica_if_entry { uint16_t trigger, target; } pica_if_entry;
typedef struct pica_loop_entry {
	uint16_t trigger, start;
	uint16_t remaining;
	uint8_t step;
	int32_t saved_al;
} pica_loop_entry;

/* Stacks are rings: on overflow the oldest entry is lost (§1.4). */
typedef struct pica_stacks {
	pica_call_entry call[PICA_CALL_DEPTH];
	pica_if_entry ifs[PICA_IF_DEPTH];
	pica_loop_entry loop[PICA_LOOP_DEPTH];
	uint8_t ncall, nif, nloop;       /* live entries (<= depth) */
	uint8_t call_top, if_top, loop_top;
} pica_stacks;

/* Where a GS primitive goes (EMIT with PRIMEMIT). */
typedef void (*pica_emit_fn)(void *ctx, const pica_vec4 vtx[3][16], bool winding_inverted);
typedef void (*pica_warn_fn)(void *ctx, const char *msg);
struct pica_thread;
/* Called by the clocked unit after each instruction (before: the state
 * before it ran).  Used by `ulpsim pica run --trace`. */
typedef void (*pica_trace_fn)(void *ctx, unsigned unit, uint64_t cycle, uint32_t pc,
                              const struct pica_thread *before, const struct pica_thread *after);

typedef struct pica_env {
	f24_mode f24;
	enum pica_undoc_policy undocumented;
	bool permissive;          /* hang conditions warn instead of stopping */
	bool dsti_swapped;        /* knob pica.dsti_operands */
	bool loop_restore_al;     /* knob pica.loop_restore_al */
	bool al_signed;           /* knob pica.al_signed */
	bool general;             /* every instruction ticks through the general path: the
	                           * reference the fast path is tested against (pica_fast.h) */
	uint64_t max_steps;
	pica_emit_fn emit;
	pica_warn_fn warn;
	pica_trace_fn trace;
	void *ctx;
} pica_env;

void pica_env_from_config(pica_env *e, const ulp_config *cfg);

/* One invocation's state.  In a GS, r, a0, aL and cmp persist across
 * invocations (§1.1): pica_thread_start() keeps them. */
typedef struct pica_thread {
	pica_vec4 v[16], r[16];
	pica_vec4 o[2][16];        /* output banks; a VS uses bank 0 */
	uint8_t bank;
	uint8_t o_written[16];     /* components written since END/EMIT */
	int32_t a0[2], al;
	bool cmp[2];
	uint32_t pc;
	pica_stacks st;
	bool last_was_mova;
	pica_vec4 emit_buf[3][16];
	uint8_t emit_vtx;
	bool emit_prim, emit_inv;
	uint64_t steps;
	uint32_t primitives;
} pica_thread;

void pica_thread_reset(pica_thread *t);
void pica_thread_start(pica_thread *t, const pica_program *p);

enum pica_step_result {
	PICA_STEP_OK,
	PICA_STEP_END,             /* END executed */
	PICA_STEP_ERROR,           /* d says why, with PC and instruction */
};

typedef struct pica_step_info {
	uint32_t pc;               /* the instruction executed */
	bool taken;                /* control went somewhere other than pc + 1 */
} pica_step_info;

enum pica_step_result pica_step(pica_thread *t, const pica_program *p, const pica_uniforms *u,
                                const pica_env *env, pica_step_info *info, ulp_diag *d);

/* What follows an instruction at pc: pc + 1 offered to the stacks, else
 * jump (PICA_NO_PC: none).  pica_step ends with it; the fast path
 * (pica_fast.h) calls it with no jump, when it cannot fail. */
#define PICA_NO_PC UINT32_MAX
enum pica_step_result pica_next_pc(pica_thread *t, const pica_program *p, const pica_env *env,
                                   uint32_t pc, uint32_t jump, pica_step_info *info, ulp_diag *d);

/* CMP's comparison of a and b (no flush, pica200.md §2.2), and the
 * condition of a format-2 flow op (JMPC, CALLC, IFC, BREAKC) on cmp.x, cmp.y. */
bool pica_cmp_op(uint8_t op, float a, float b);
bool pica_condition(bool cmpx, bool cmpy, const struct pica_inst *in);
/* Whether a conditional flow op (IF, CALL, BREAK) goes: the cmp condition
 * for the ops that read it (format 2), b[id] for format 3, else always;
 * a JMP: JMPC the condition, JMPU b[id] == !(NUM & 1) (NUM bit 0
 * inverts, §1.3). */
bool pica_flow_go(const struct pica_inst *in, const pica_uniforms *u, bool cmpx, bool cmpy);
bool pica_jump_go(const struct pica_inst *in, const pica_uniforms *u, bool cmpx, bool cmpy);

/* ---- geometry-shader input (picasso Manual.md ".gsh") ----
 * A primitive's vertices arrive as stride registers each (the VS outputs in
 * order).  point: v0 upward, vertex after vertex.  variable: c0 = the vertex
 * count in every component, then the vtxNum full vertices from c1 upward and
 * one position register per further vertex.  fixed: vtxNum vertices from
 * the DVLE's array start register.  After each invocation b15 becomes true
 * (pica200.md §1.1). */
typedef struct pica_gs_prim {
	const pica_vec4 *vtx;      /* nvtx * stride registers */
	unsigned nvtx, stride;
	unsigned pos_reg;          /* which of the stride registers is the position */
} pica_gs_prim;

/* Load one primitive into t (point) or u (variable, fixed).  False with d
 * when it does not fit the registers the mode addresses. */
bool pica_gs_load(const pica_program *p, const pica_gs_prim *prim, pica_thread *t,
                  pica_uniforms *u, ulp_diag *d);
/* What happens between two GS invocations: b15 = true. */
void pica_gs_invocation_done(pica_uniforms *u);

/* Run from the entry point to END (no timing). */
enum pica_step_result pica_run(pica_thread *t, const pica_program *p, const pica_uniforms *u,
                               const pica_env *env, ulp_diag *d);

#endif

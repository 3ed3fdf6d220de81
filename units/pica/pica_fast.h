/* The PICA200 shader unit's fast path (docs/speed.md "Vertices").
 *
 * What an instruction computes is resolved once per program
 * (pica_fast_build, called by pica_program_from_code): the handler, the
 * register file and index of each source, its swizzle and negation, the
 * components written.  pica_fast_step then runs the instruction at the
 * thread's pc with the same float24 helpers (isa/f24.h) and the same
 * effects as pica_step, or declines (no change to the thread) when the
 * general path must run it: flow control, MOVA, CMP, LITP, DST, a GS's
 * END, relative addressing, anything pica_step would diagnose (two inputs,
 * an output written twice or left unwritten, the watchdog).  When it runs
 * an instruction it cannot fail.
 *
 * The clocked unit (pica_shader.c) books the time: it runs a vertex's
 * instructions in one go from the tick that issues the first one and books
 * the cycles a tick per cycle would have counted. */
#ifndef ULP_UNITS_PICA_FAST_H
#define ULP_UNITS_PICA_FAST_H

#include <stdbool.h>
#include <stdint.h>

#include "units/pica/pica_exec.h"

enum pica_fast_kind {
	PICA_FAST_GENERAL = 0,            /* pica_step runs it */
	PICA_FAST_ADD, PICA_FAST_MUL, PICA_FAST_SGE, PICA_FAST_SLT, PICA_FAST_MAX, PICA_FAST_MIN,
	PICA_FAST_DP3, PICA_FAST_DP4, PICA_FAST_DPH,
	PICA_FAST_MOV, PICA_FAST_FLR, PICA_FAST_MAD,
	PICA_FAST_EX2, PICA_FAST_LG2, PICA_FAST_RCP, PICA_FAST_RSQ,
	PICA_FAST_NOP,
	PICA_FAST_END,                    /* a vertex shader's END, its outputs all written */
};

enum pica_fast_file { PICA_FILE_V, PICA_FILE_R, PICA_FILE_C };

typedef struct pica_fast_src {
	uint8_t file;                 /* enum pica_fast_file */
	uint8_t idx;                  /* register index in that file */
	bool neg;
	bool identity;                /* swizzle .xyzw */
	uint8_t swz[4];
} pica_fast_src;

typedef struct pica_fast_inst {
	uint8_t kind;                 /* enum pica_fast_kind */
	uint8_t wmask;                /* components written: bit k = component k (x = bit 0) */
	bool to_o;                    /* destination o[dst], else r[dst] */
	uint8_t dst;
	pica_fast_src src[3];
} pica_fast_inst;

/* The fast forms of p's instructions (p->fast); false when out of memory. */
bool pica_fast_build(pica_program *p);

/* Run the instruction at t->pc (< p->ncode) when it has a fast form: true
 * with info filled as pica_step fills it (an END: what pica_step does
 * before it returns PICA_STEP_END; the caller hands the outputs on);
 * false, with t unchanged, when pica_step must run it. */
bool pica_fast_step(pica_thread *t, const pica_program *p, const pica_uniforms *u,
                    const pica_env *env, pica_step_info *info);

#endif

/* A vertex shader run on PICA_BATCH_LANES vertices at once (docs/speed-history.md
 * "Vertices"): *what* a vertex computes, apart from *when*.
 *
 * A vertex shader's results do not depend on time, so vertex fetch can run
 * the program over a batch of vertices in structure-of-arrays form (one
 * float24 vector operation per component for four vertices, or eight where
 * the CPU has AVX2; isa/f24_vec.h) before it hands the jobs on; each job then carries its outputs and its
 * path (pica_job.shaded, .sig) and the shader unit only books the time
 * (pica_shader.c, a schedule per path computed once).
 *
 * The plan (pica_batch_build, once per program) accepts a vertex shader
 * whose reachable code is forward-only: instructions with a fast form
 * (pica_fast.h), CMP, JMPC, JMPU, IFC and IFU going forward, END; and no
 * output or CMP fed, on any path, by an r component that no write of the
 * vertex made (the previous vertex's on that unit: a result depending on
 * the schedule).  Such stale values may only feed dead values (as
 * fragment_light's MUL r5 reading r14.w).  Anything else (loops, calls,
 * BREAK, MOVA, relative addressing, LITP, DST, two inputs, a path that
 * falls off the code, more than 31 flow ops) declines: vertex fetch shades
 * nothing and the units run as before.  A path that pica_step would
 * diagnose (an output written twice or left unwritten, pica.max_steps, a
 * jump ending an IF block) is found when the unit builds that path's
 * schedule: that vertex runs the ordinary way, from its inputs, and
 * reports the error at its cycle.
 *
 * Every lane equals pica_step's result (the fast forms' arithmetic, lane
 * for lane); tests/units/test_pica_fast.c checks whole runs against the
 * general path. */
#ifndef ULP_UNITS_PICA_BATCH_H
#define ULP_UNITS_PICA_BATCH_H

#include <stdbool.h>
#include <stdint.h>

#include "units/pica/pica_exec.h"

enum { PICA_BATCH_LANES = 16, PICA_BATCH_JUMPS = 31 };

struct pica_job;
struct pica_fast_inst;

typedef struct pica_batch_plan {
	uint32_t *order;          /* the reachable pcs, ascending */
	uint32_t norder;
	uint16_t v_used;          /* v registers read */
	uint16_t r_read;          /* r registers read (the batch zeroes them: stale reads) */
	uint16_t o_used;          /* o registers written on some path */
	uint8_t *jump_bit;        /* per pc: the path bit of a JMP or IF (< PICA_BATCH_JUMPS) */
	struct pica_fast_inst *form;   /* per pc: the fast form; a CMP's sources too */
	uint8_t *plain;           /* per pc: control goes to pc + 1 (no flow op, no IF pop) */
	uint16_t (*row)[3][4];    /* per pc: each source component's lanes (PICA_BATCH_ROW_*) */
	bool wide;                /* the CPU has AVX2: eight lanes an operation (isa/f24_vec.h) */
} pica_batch_plan;

/* Where the lanes of source component k (swizzle applied) are: row
 * 4 * idx + swz[k] of the v registers, PICA_BATCH_ROW_R + that of the r
 * registers, or with PICA_BATCH_ROW_C uniform component 4 * idx + swz[k];
 * PICA_BATCH_ROW_NEG: negated. */
enum { PICA_BATCH_ROW_R = 64, PICA_BATCH_ROW_NEG = 0x4000, PICA_BATCH_ROW_C = 0x8000 };

/* p->batch: the plan, or NULL when p declines (or out of memory: the
 * batch path is an optimisation, so that is no error). */
void pica_batch_build(pica_program *p);
void pica_batch_free(pica_program *p);

/* Whether vertex fetch may shade ahead for units running p under env:
 * p has a plan, and env lets the units use it (not general, no trace, not
 * permissive, not arith=exact). */
bool pica_batch_usable(const pica_program *p, const pica_env *env);

/* Whether to try the tame run (pica_batch.c) first, for the caller's
 * batches in turn: after a batch the tame run sent back, the next `wait`
 * batches skip it, `skip` doubling (up to PICA_BATCH_TAME_SKIP_MAX) while
 * batches keep failing, so that a draw whose operands are not tame pays
 * for one try in that many.  Only the host's work depends on it, never a
 * result.  Zeroed: try the first batch. */
typedef struct pica_batch_luck {
	uint16_t skip, wait;
} pica_batch_luck;

enum { PICA_BATCH_TAME_SKIP_MAX = 256 };

/* Run p over *jobs[0..n) (n <= PICA_BATCH_LANES, v filled): each job's o
 * registers of p->batch->o_used (the components its path wrote; the rest
 * 0), its path bits, shaded = true.  luck: the caller's (NULL: always try
 * the tame run where it may run). */
void pica_batch_shade(const pica_program *p, const pica_uniforms *u, const pica_env *env,
                      struct pica_job *const *jobs, unsigned n, pica_batch_luck *luck);

/* A vertex's way through the code: pica_next_pc for a plan's code (IF
 * entries, no LOOP or CALL).  walk_next moves on from the instruction at
 * w->pc (not END) with its decision go (JMPC, JMPU, IFC, IFU: true when
 * it goes; ignored otherwise); taken as pica_step_info.  False (and
 * w->bad) when pica_step would diagnose the step (a jump as the last
 * instruction of an IF block), or the IF ring would drop an entry: that
 * vertex runs the ordinary way. */
typedef struct pica_batch_walk {
	uint32_t pc;
	uint8_t nif;
	bool bad;
	uint16_t trig[PICA_IF_DEPTH], tgt[PICA_IF_DEPTH];
} pica_batch_walk;

void pica_batch_walk_start(const pica_program *p, pica_batch_walk *w);
bool pica_batch_walk_next(const pica_program *p, pica_batch_walk *w, bool go, bool *taken);

/* pica_cmp_op(op, a[l], b[l]) as bit l, for the PICA_BATCH_LANES lanes. */
uint32_t pica_batch_cmp(uint8_t op, const float *a, const float *b);

/* A path: bit jump_bit[pc] of sig is each flow op's decision; PICA_BATCH_BAD
 * a path walk_next refused. */
#define PICA_BATCH_BAD (UINT32_C(1) << 31)

#endif

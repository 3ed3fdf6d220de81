/* TGSI reference interpreter: one invocation (one vertex or one fragment) of
 * a parsed shader with Mesa 22.3 tgsi_exec semantics in f32 (reference
 * tgsi.md §2).  Registers are 4 x 32-bit untyped words; every file is a set
 * of banks (the dimension: CONST[buf][i], GS IN[vtx][i]; 1-D files use bank
 * 0).  Case loading and JSON output live in tgsi_exec_case.c.
 *
 * Single-lane model: IF/UIF/ELSE/loops/BRK/CONT/CAL/RET act as plain jumps
 * (tgsi_cf_resolve links); DDX/DDY give 0; KILL/KILL_IF end the run with
 * `killed`; texture opcodes return the constant texel given for the sampler
 * (SAMP[n] in the case).  Assumptions: docs/notes/tgsi-assumptions.md. */
#ifndef ULP_FRONTENDS_TGSI_EXEC_H
#define ULP_FRONTENDS_TGSI_EXEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "frontends/tgsi/tgsi.h"

enum { TGSI_EXEC_WRITTEN = 1, TGSI_EXEC_DECLARED = 2 };

typedef struct tgsi_exec_bank {
	uint32_t (*v)[4];
	uint8_t *flags;                 /* TGSI_EXEC_WRITTEN | TGSI_EXEC_DECLARED */
	size_t n;
} tgsi_exec_bank;

typedef struct tgsi_exec_file {
	tgsi_exec_bank *banks;
	size_t nbanks;
} tgsi_exec_file;

typedef struct tgsi_exec_machine {
	tgsi_shader *sh;                /* resolved by tgsi_exec_init */
	tgsi_exec_file files[TGSI_FILE_COUNT];
	bool killed;
	uint64_t steps, max_steps;
	const char *file;               /* for diagnostics */
} tgsi_exec_machine;

/* Resolves control flow and sizes every register file from the shader.
 * Immediates are loaded; everything else starts at 0. */
bool tgsi_exec_init(tgsi_exec_machine *m, tgsi_shader *sh, const char *file, ulp_diag *d);
void tgsi_exec_fini(tgsi_exec_machine *m);

/* Pointer to FILE[bank][index] (grown on demand), or NULL when out of memory
 * or too large (index or bank above 65535). */
uint32_t *tgsi_exec_reg(tgsi_exec_machine *m, unsigned file, size_t bank, size_t index);

/* Runs from instruction 0 to END (or the end of the main body). */
bool tgsi_exec_run(tgsi_exec_machine *m, ulp_diag *d);

/* Operand access, also used by other executors over these machines (the
 * piglit reference quad): read a source with its swizzle, abs and negate
 * (indirect and 2-D addressing resolved; out of range reads 0); write a
 * destination with its mask and saturate (an out-of-range indirect write is
 * dropped; false with d on a file the interpreter does not write). */
void tgsi_exec_fetch(const tgsi_exec_machine *m, const tgsi_src *s, bool int_type, uint32_t v[4]);
bool tgsi_exec_store(tgsi_exec_machine *m, const tgsi_instruction *in, const tgsi_dst *dst,
                     const uint32_t v[4], ulp_diag *d);

/* tgsi_exec_case.c: sets registers from a case JSON object
 *   { "IN[0]": [x, y, z, w], "CONST[0][2]": [...], "CONST[3]": [...],
 *     "SV[0]": [...], "INSTANCEID": [...], "SAMP[0]": [r, g, b, a] }
 * values are numbers (f32) or "0x%08x" bit strings; 1 to 4 of them. */
bool tgsi_exec_load_case(tgsi_exec_machine *m, const char *json, size_t len,
                         const char *case_file, ulp_diag *d);
/* {"outputs": {"OUT[0]": [x, y, z, w], ...}, "killed": false}\n, malloc'd.
 * Values print as %.9g (exact for f32) or, with bits, as "0x%08x". */
char *tgsi_exec_outputs_json(const tgsi_exec_machine *m, bool bits);

#endif

/* TGSI -> PICA200 vertex / geometry shader compiler.
 *
 * tgsi_shader -> IR (frontends/ir/) -> PICA200 lowering and operand rules
 * (pica_legalize.c) -> register allocation (16 r registers) -> picasso
 * assembly text (pica_emit.c) -> pica_assemble() -> SHBIN.  The text is the
 * --asm output.  docs/compiler.md describes the mapping and every hardware
 * constraint it honours.
 *
 * Register mapping (what a driver needs to feed the program):
 *   IN[n]        -> v n (identity attribute permutation; .in "inN" entries)
 *   CONST[0][n]  -> c n (uniform "const0", slot n kept so a driver can upload
 *                   by index)
 *   IMM / internal constants -> c95 downwards (DVLE constant table)
 *   OUT[n]       -> the o register in `outputs` (DVLE output table)
 *   TEMP         -> r0-r15 by the register allocator
 *   ADDR[0].x/.y -> a0.x / a0.y (MOVA) */
#ifndef ULP_FRONTENDS_PICA_COMPILE_H
#define ULP_FRONTENDS_PICA_COMPILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "frontends/ir/ir.h"
#include "frontends/tgsi/tgsi.h"
#include "isa/pica/pica_isa.h"
#include "isa/pica/shbin.h"

enum { PICA_COMPILE_MAX_OUT = 16 };

typedef struct pica_compile_output {
	int32_t tgsi_index;     /* OUT[tgsi_index] */
	uint8_t o_reg;          /* o register */
	uint8_t mask;           /* components in the output table (bit 0 = x) */
	uint8_t type;           /* enum shbin_out_type */
} pica_compile_output;

typedef struct pica_compile_result {
	enum ir_refusal why;    /* IR_OK on success */
	ulp_diag d;             /* the refusal: file:line:col of the TGSI instruction */
	char *asm_text;         /* picasso source (NULL when refused before emission) */
	size_t asm_len;
	struct shbin shbin;     /* valid when why == IR_OK */
	bool have_shbin;
	pica_compile_output outputs[PICA_COMPILE_MAX_OUT];
	unsigned noutputs;
	unsigned temps_used;    /* r registers */
	unsigned code_words;    /* after assembly (padding NOPs included) */
	unsigned imm_regs;      /* c registers taken by immediates from c95 down */
	/* arith=exact (docs/exact.md): the binary32 each immediate's constant
	 * register was filled from (the SHBIN holds float24): c k is ximm[k]
	 * where ximm_has[k] */
	bool ximm_has[PICA_NUM_C];
	float ximm[PICA_NUM_C][4];
} pica_compile_result;

typedef struct pica_compile_opts {
	bool no_shbin;          /* stop after producing the text */
} pica_compile_opts;

/* Compiles a parsed shader (VERT or GEOM).  Always fills res; returns true
 * when res->why == IR_OK.  opts may be NULL.  Free with
 * pica_compile_result_free. */
bool pica_compile(tgsi_shader *sh, const char *file, const pica_compile_opts *opts,
                  pica_compile_result *res);
void pica_compile_result_free(pica_compile_result *res);

/* After pica_compile succeeded on sh: the TGSI semantic of each output
 * register o0..o15 (name[k] = -1 where none; index[k] its semantic index),
 * what a driver's linker matches against the next stage's inputs. */
void pica_compile_output_semantics(const pica_compile_result *res, const tgsi_shader *sh, int16_t name[16],
                                   uint32_t index[16]);

/* ---- internal, shared by pica_legalize.c and pica_emit.c ---- */
/* The IR lowering capabilities of the PICA200 shader unit. */
void pica_ir_caps(ir_caps *caps);
/* Operand rules: one distinct v per instruction, at most one c (constant
 * or immediate) per instruction and none as an IF value, address registers
 * a0.x/a0.y only; refusals for what the unit cannot do. */
bool pica_legalize(ir_shader *s, ir_error *e);

#endif

/* picasso-compatible PICA200 shader assembler.
 *
 * Several source files link into one SHBIN exactly as picasso 2.7 does:
 * code is concatenated in file order, procedures are global, vertex-shader
 * uniforms are shared, constants are per file (allocated top down), operand
 * descriptors are shared and merged, MAD descriptors are kept below 32, and
 * padding NOPs are inserted where flow control needs them.  The language is
 * described in docs/pica-isa.md. */
#ifndef ULP_ISA_PICA_ASM_H
#define ULP_ISA_PICA_ASM_H

#include <stdbool.h>
#include <stddef.h>

#include "base/diag.h"
#include "isa/pica/shbin.h"

struct pica_asm_file {
	const char *path;      /* name used in diagnostics */
	const char *text;      /* source text (need not be NUL-terminated) */
	size_t len;
};

struct pica_asm_opts {
	bool no_nop;           /* picasso --no-nop: do not insert padding NOPs */
};

/* Assemble files[0..n) into out (free with shbin_free).  On error fills d
 * with file:line:col and returns false. */
bool pica_assemble(const struct pica_asm_file *files, size_t n,
                   const struct pica_asm_opts *opts, struct shbin *out, ulp_diag *d);

#endif

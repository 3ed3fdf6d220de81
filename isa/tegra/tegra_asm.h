/* Assembler for grate's Tegra fragment-program language (tegra-fp.md §2.2,
 * corpus README "Notes for a compatible assembler").  Produces the same
 * words as grate's assembler, quirks included; programs grate refuses are
 * refused with file:line:col. */
#ifndef ULP_ISA_TEGRA_ASM_H
#define ULP_ISA_TEGRA_ASM_H

#include <stdbool.h>
#include <stddef.h>

#include "base/diag.h"
#include "isa/tegra/tegra_prog.h"

/* Assembles src[0..len) (NUL bytes are ordinary, invalid characters).
 * file names the source in diagnostics.  out is fully overwritten. */
bool tegra_asm_assemble(const char *src, size_t len, const char *file,
                        tegra_fp_program *out, ulp_diag *d);

#endif

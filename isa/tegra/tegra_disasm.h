/* Disassembler for Tegra GR3D fragment programs, in grate's syntax.
 *
 * Default output re-assembles (tegra_asm.h) to the same words and header:
 * it adds .constants/.uniforms/.asm sections, prints raw hex for any word
 * grate's text would lose bits of (with the decoded text in a comment), and
 * decodes in comments what grate leaves raw (PSEQ, unknown TEX/DW bits and
 * ALU_COMPLEMENT with t30 register-database names; register 74).
 *
 * TEGRA_DISASM_GRATE reproduces grate's fragment_pipeline_disassemble()
 * text byte for byte (the corpus .disasm format), lossy where grate is. */
#ifndef ULP_ISA_TEGRA_DISASM_H
#define ULP_ISA_TEGRA_DISASM_H

#include "base/diag.h"
#include "isa/tegra/tegra_prog.h"

enum { TEGRA_DISASM_GRATE = 1u << 0 };

/* malloc'd NUL-terminated text; NULL with d filled when p is invalid or
 * memory runs out.  file names p in diagnostics (may be NULL). */
char *tegra_disasm(const tegra_fp_program *p, unsigned flags, const char *file, ulp_diag *d);

#endif

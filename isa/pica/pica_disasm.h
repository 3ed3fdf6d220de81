/* PICA200 disassembler: prints an SHBIN in picasso syntax.  Each DVLE's
 * header, tables and constants are printed as comments; the code follows as
 * procedures with if/else/for blocks and labels, one instruction per line
 * with its word address.  For SHBINs picasso produced, the text assembles
 * back to the same code words and operand descriptors. */
#ifndef ULP_ISA_PICA_DISASM_H
#define ULP_ISA_PICA_DISASM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "base/diag.h"
#include "isa/pica/pica_isa.h"
#include "isa/pica/shbin.h"

/* Text of one instruction ("dp4 o0.x, c0, r0").  target: name to print for
 * a branch or call target (NULL: the word address).  Returns false when the
 * instruction has no exact picasso spelling (text is still printed). */
bool pica_disasm_inst(const struct pica_inst *in, const char *target, char *buf, size_t n);

/* Whole program.  Returns false (with d) only on write errors; *exact is set
 * false when some construct cannot be re-assembled bit-exactly. */
bool pica_disasm(const struct shbin *s, FILE *f, bool *exact, ulp_diag *d);

#endif

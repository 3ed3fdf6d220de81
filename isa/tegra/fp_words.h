/* tegra-fp-words v1: the text listing of a fragment program's header and
 * upload words (format: shared corpus tegra/README.md, ".words format").
 *
 *   # tegra-fp-words v1                    comment lines start with '#'
 *   .alu_buffer_size N                     header lines start with '.'
 *   ... .exec_count .mfu_count .alu_packet_count .discards_fragment
 *   .const I XXXXXXXX                      non-zero FP_CONST initial values
 *   .uniform I fp20|l|h "name"
 *   .reg 0520|0546|0E20 XXXXXXXX           derived draw-time values
 *   LABEL XXXXXXXX  # exec|mfu|packet K    words in upload order */
#ifndef ULP_ISA_TEGRA_FP_WORDS_H
#define ULP_ISA_TEGRA_FP_WORDS_H

#include <stddef.h>

#include "base/diag.h"
#include "isa/tegra/tegra_prog.h"

#define TEGRA_FP_WORDS_TAG "# tegra-fp-words v1"

/* malloc'd text; source (may be NULL) goes into the "# source:" line.
 * NULL on out of memory. */
char *tegra_fp_words_write(const tegra_fp_program *p, const char *source);

/* Parses text[0..len); out is fully overwritten; errors carry file:line:col. */
bool tegra_fp_words_read(const char *text, size_t len, const char *file,
                         tegra_fp_program *out, ulp_diag *d);

#endif

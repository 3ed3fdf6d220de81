/* The GPU's register spaces together: a stream of writes to either block,
 * printed with each block's register names. */
#ifndef ULP_UNITS_REGS_H
#define ULP_UNITS_REGS_H

#include <stdio.h>

#include "sim/core/regstream.h"

/* "pica 0x2cb f 00000000  VSH_CODETRANSFER_INDEX" and
 * "gr3d 0x520 20006001  FP_PSEQ_ENGINE_INST" per line. */
void reg_stream_dump(const reg_stream *s, FILE *f);

#endif

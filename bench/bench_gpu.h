/* The whole-pipeline bench's traces, built in memory (bench_gpu_trace.c). */
#ifndef ULP_BENCH_GPU_H
#define ULP_BENCH_GPU_H

#include <stdbool.h>

#include "traces/trace.h"

/* traces/samples/textured_cube.json with its framebuffer and viewport at w x h. */
bool bench_gpu_cube(trace *t, unsigned w, unsigned h);
/* A full-screen quad at w x h running the corpus's 30-EXEC blend_saturate
 * (tex0, tex1 bound; the destination read back by PSEQ). */
bool bench_gpu_fill30(trace *t, unsigned w, unsigned h);

#endif

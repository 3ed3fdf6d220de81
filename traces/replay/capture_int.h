/* Inside the capture (capture.h): capture.c mirrors, capture_write.c
 * writes a frame's file. */
#ifndef ULP_REPLAY_CAPTURE_INT_H
#define ULP_REPLAY_CAPTURE_INT_H

#include "base/image.h"
#include "traces/replay/capture.h"

enum { CAP_MAX_CBUFS = 8 };

/* A set of resources and shaders (the mirror, or a frame's start). */
typedef struct cap_set {
	trace_resource *res;
	size_t nres;
	trace_shader *sh;
	size_t nsh;
	struct cJSON *state;      /* the last state command of each kind, in the order given */
} cap_set;

/* DIR/frame-NNNN.json of frame n (ctxK-frame-NNNN.json for context K > 0): resources start then extra, shaders
 * the same, start's state commands, the render targets' contents at the
 * start (cb0[k], zs0: top row first, as write_target takes them) where the
 * frame reads them, the frame's log, and a checkpoint expecting `last`
 * (colour buffer 0 at the end as presented: top row first) and `cycles`. */
bool capture_write_frame(const char *dir, const char *name, const char *gpu, unsigned ctx, unsigned n,
                          const cap_set *start,
                          const cap_set *extra, const struct cJSON *log, ulp_image *const *cb0, unsigned ncb0,
                          const ulp_image *zs0, const ulp_image *last, uint64_t cycles, ulp_diag *d);

#endif

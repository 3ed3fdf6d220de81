/* The trace's `blend` command as the blend state the driver compiles into
 * the fragment program (frontends/tgsi/tgsi_blend.h; docs/trace-format.md). */
#ifndef ULP_SIM_REPLAY_BLEND_H
#define ULP_SIM_REPLAY_BLEND_H

#include <cjson/cJSON.h>

#include "frontends/tgsi/tgsi_blend.h"

/* Blending off, every channel written (Gallium's defaults). */
void replay_blend_default(tgsi_blend_state *b);

/* c: a validated `blend` command.  Functions default to add, factors to
 * one (source) and zero (destination), the alpha equation to the colour
 * one, colormask to 15 and the blend colour to (0, 0, 0, 0). */
void replay_blend_state(const cJSON *c, tgsi_blend_state *b);

#endif

/* A 2x2 quad of fragment-shader lanes for the reference renderer
 * (piglit_exec.c). */
#ifndef ULP_FRONTENDS_PIGLIT_EXEC_H
#define ULP_FRONTENDS_PIGLIT_EXEC_H

#include <stdbool.h>
#include <stddef.h>

#include "traces/piglit/piglit.h"
#include "frontends/tgsi/tgsi_exec.h"

/* Lanes: 0 (x, y), 1 (x+1, y), 2 (x, y+1), 3 (x+1, y+1), y up. */
typedef struct pg_quad {
	tgsi_exec_machine m[4];
	const pg_texture *units[PG_MAX_UNITS];
} pg_quad;

/* Clears TEMP, OUT and ADDR of every lane (inputs are set by the caller). */
void pg_quad_reset(pg_quad *q);
/* Runs the shader on all four lanes; m[l].killed tells discarded lanes. */
bool pg_quad_run(pg_quad *q, char *reason, size_t n);

#endif

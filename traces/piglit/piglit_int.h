/* Internal to frontends/piglit. */
#ifndef ULP_FRONTENDS_PIGLIT_INT_H
#define ULP_FRONTENDS_PIGLIT_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "traces/piglit/piglit.h"

enum pg_arb_kind { PG_ARB_CONST, PG_ARB_LOCAL, PG_ARB_ENV, PG_ARB_MATRIX };

typedef struct pg_arb_param {
	enum pg_arb_kind kind;
	float v[4];                 /* CONST */
	unsigned ncomp;
	bool scalars;               /* a slot of packed scalar literals */
	int index;                  /* LOCAL/ENV */
	char what[48];              /* MATRIX: "mvp", "mvp.transpose", "projection.inverse" ... */
	int row;
} pg_arb_param;

typedef struct pg_arb_list {
	pg_arb_param *v;
	size_t n, cap;
} pg_arb_list;

/* Vertices in one `draw arrays` (docs/robustness.md). */
#define PG_MAX_DRAW_ROWS 100000

/* A float the test wrote where an integer is meant (a probe's pixel, a
 * draw's first row), truncated as shader_runner's (int) cast does but
 * clamped into [lo, hi] first, so that 1e30, -inf or NaN (NaN gives lo)
 * never reach an out-of-range conversion. */
static inline int pg_trunc(float v, int lo, int hi)
{
	if (!(v >= (float)lo))
		return lo;
	if (v >= (float)hi)
		return hi;
	return (int)v;
}

/* piglit_state.c: slots of a GLSL struct declared in the test's shaders */
bool pg_struct_slots(const pg_test *t, const char *type, unsigned *slots);

/* piglit_arb.c */
bool pg_arb_params(const char *text, pg_arb_list *out, char *reason, size_t rn);

#endif

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

/* piglit_state.c: slots of a GLSL struct declared in the test's shaders */
bool pg_struct_slots(const pg_test *t, const char *type, unsigned *slots);

/* piglit_arb.c */
bool pg_arb_params(const char *text, pg_arb_list *out, char *reason, size_t rn);

#endif

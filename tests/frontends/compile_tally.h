/* The compile conformance tests' corpus walk and score (test_compile_pica.c,
 * test_compile_tegra.c): every corpus shader of one stage is compiled and
 * checked against the reference interpreter; this counts the outcomes. */
#ifndef ULP_TESTS_COMPILE_TALLY_H
#define ULP_TESTS_COMPILE_TALLY_H

#include <stdint.h>

#include "frontends/ir/ir.h"

enum { COMPILE_TALLY_OUTCOMES = 8 };

typedef struct compile_tally {
	const char *const *outcome;        /* the outcome names; from index 2 on, failures */
	unsigned nout, match, refused;     /* how many, and which is a match, a refusal */
	unsigned total, compiled, matching;
	unsigned by_out[COMPILE_TALLY_OUTCOMES], by_why[IR_REFUSAL_COUNT];
} compile_tally;

/* Counts one shader; anything but a match is logged with msg. */
void compile_tally_add(compile_tally *T, unsigned outcome, enum ir_refusal why, const char *msg);

/* "<label>: compiled c/t, matching m/c" on stderr and in the log, then the
 * refusals by category and the failing outcomes. */
void compile_tally_print(const compile_tally *T, const char *label);

/* fn for every <corpus>/<set>/<folder>/<file> that exists, in folder order,
 * with a seed made from the folder's index. */
void compile_corpus_each(const char *set, const char *file,
                         void (*fn)(void *ctx, const char *path, uint32_t seed), void *ctx);

#endif

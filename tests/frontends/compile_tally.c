/* The compile conformance tests' corpus walk and score (compile_tally.h). */
#include "tests/frontends/compile_tally.h"

#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <stdio.h>
#include <stdlib.h>

#include "tests/test_util.h"

void compile_tally_add(compile_tally *T, unsigned outcome, enum ir_refusal why, const char *msg)
{
	T->total++;
	T->by_out[outcome]++;
	if (outcome != T->refused)
		T->compiled++;
	else
		T->by_why[why]++;
	if (outcome == T->match) {
		T->matching++;
		return;
	}
	if (outcome == T->refused)
		cr_log_info("refused [%s] %s", ir_refusal_name(why), msg);
	else
		cr_log_info("%s: %s", T->outcome[outcome], msg);
	fprintf(stderr, "  %s [%s] %s\n", T->outcome[outcome],
	        outcome == T->refused ? ir_refusal_name(why) : "-", msg);
}

void compile_tally_print(const compile_tally *T, const char *label)
{
	fprintf(stderr, "%s: compiled %u/%u, matching %u/%u\n", label, T->compiled, T->total, T->matching,
	        T->compiled);
	cr_log_info("%s: compiled %u/%u, matching %u/%u", label, T->compiled, T->total, T->matching,
	            T->compiled);
	for (unsigned k = 1; k < IR_REFUSAL_COUNT; k++)
		if (T->by_why[k])
			fprintf(stderr, "  refusals [%s]: %u\n", ir_refusal_name(k), T->by_why[k]);
	for (unsigned k = 2; k < T->nout; k++)
		if (T->by_out[k])
			fprintf(stderr, "  %s: %u\n", T->outcome[k], T->by_out[k]);
}

void compile_corpus_each(const char *set, const char *file,
                         void (*fn)(void *ctx, const char *path, uint32_t seed), void *ctx)
{
	char *dir = test_corpus_path(set);
	cr_assert(dir);
	size_t n;
	char **names = test_list_dir(dir, false, &n);
	for (size_t i = 0; i < n; i++) {
		char path[1024];
		snprintf(path, sizeof path, "%s/%s/%s", dir, names[i], file);
		FILE *f = fopen(path, "r");
		if (!f)
			continue;
		fclose(f);
		fn(ctx, path, 0x9E3779B9u ^ (uint32_t)(i * 2654435761u));
	}
	test_free_names(names, n);
	free(dir);
}

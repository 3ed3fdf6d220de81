/* Shared helpers for the Criterion suite. */
#ifndef ULP_TEST_UTIL_H
#define ULP_TEST_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct replay_opts;
struct replay_result;
struct ulp_diag;

/* A xorshift32 generator for reproducible test inputs (seed it non-zero). */
typedef struct test_rng { uint32_t s; } test_rng;
uint32_t test_rnd(test_rng *r);

/* A float's bits and back (register files hold untyped words). */
uint32_t test_f_bits(float f);
float test_bits_f(uint32_t u);

/* Six probes around FP20 code's value v (as the fragment units read it,
 * gr3d_fp20): v and its binary64 neighbours, the midpoint to the next code up
 * (a tie under rounding to nearest) and its neighbours.  False for a NaN. */
bool test_fp20_probes(uint32_t code, double out[6]);

/* Parses a trace's JSON (name for messages, resources relative to base, side
 * files from any path: trace_load_opts.allow_paths) and
 * replays it with o into *res: false with the parse's or the replay's
 * message in d. */
bool test_replay_json(const char *json, const char *name, const char *base, const struct replay_opts *o,
                      struct replay_result *res, struct ulp_diag *d);

/* Path of the shared corpus (env ULPSIM_CORPUS, default ../shared/corpus). */
const char *test_corpus_dir(void);
/* Corpus-relative path joined into a static-per-call malloc'd string. */
char *test_corpus_path(const char *rel);

/* The entries of dir without dot files (only folders when dirs_only), sorted
 * by name; malloc'd array of malloc'd names, *n set.  Asserts. */
char **test_list_dir(const char *dir, bool dirs_only, size_t *n);
void test_free_names(char **names, size_t n);

/* The corpus files ending in `ext` one folder below `sub` (e.g. "pica",
 * ".shbin": pica/<program>/<file>.shbin), as full paths in name order;
 * free with test_free_names. */
char **test_corpus_files(const char *sub, const char *ext, size_t *n);

/* Run "ulpsim <args>" (env ULPSIM_BIN, default build/ulpsim) through the
 * shell; captures stdout and stderr (malloc'd, NUL-terminated) and returns
 * the exit status (-1 when it did not exit normally). */
int test_run_cli(const char *args, char **out, char **err);

/* Writes text to dir/name and returns the path (malloc'd); asserts. */
char *test_write_file(const char *dir, const char *name, const char *text);

/* A fresh temporary directory under /tmp (malloc'd path). */
char *test_tmpdir(void);

/* A full-screen, fill-bound trace (JSON, malloc'd): a 4-EXEC grate program
 * over every pixel of a 128x128 target, `draws` draws (at most 8). */
char *test_fill_trace(unsigned draws);

#endif

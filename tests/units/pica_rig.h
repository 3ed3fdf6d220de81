/* A test rig for the PICA200 shader unit: assemble picasso text, build the
 * program, run it.  Shared by tests/test_pica_unit*.c. */
#ifndef ULP_TESTS_PICA_RIG_H
#define ULP_TESTS_PICA_RIG_H

#include <stdint.h>

#include "isa/pica/pica_asm.h"
#include "tests/test_replay_pair.h"
#include "units/gpu.h"

typedef struct rig {
	struct shbin s;
	pica_program p;
	pica_uniforms u;
	pica_thread t;
	pica_env env;
	ulp_config cfg;
	ulp_diag d;
	unsigned prims;
	pica_vec4 prim[4][3][16];
	bool inv[4];
	unsigned warnings;
} rig;

void pica_rig_on_emit(void *ctx, const pica_vec4 vtx[3][16], bool inverted);
void pica_rig_on_warn(void *ctx, const char *msg);
/* Assemble src (one .v.pica or .g.pica file) and build DVLE 0; asserts. */
rig *build(const char *src);
/* The same rig with its code replaced by hand-placed words. */
rig *build_words(const uint32_t *words, unsigned n);
void unbuild(rig *r);
void set4(pica_vec4 *v, float x, float y, float z, float w);
enum pica_step_result run(rig *r);
/* Run with v0 = (x, y, z, w); asserts the run reaches END. */
void run_with_v0(rig *r, float x, float y, float z, float w);
/* Each component equal (NaN expects NaN). */
void expect4(const pica_vec4 *v, float x, float y, float z, float w, const char *what);

/* Results kept in order (pica_batch_run's on_result: pica_rig_keep). */
typedef struct outs {
	pica_result *r;
	size_t n, cap;
} outs;
void pica_rig_keep(void *ctx, const pica_result *r);
/* A job whose inputs vary per vertex and register, with zeros, negatives
 * and large values (no NaN: a NaN input is still exact, but rare in
 * shaders); a make_job for pica_batch_run (ctx unused). */
void pica_rig_vary_job(void *ctx, uint32_t id, pica_job *job);

/* One pica_batch_run: its verdict, message, figures, results and (with a
 * timeline) events. */
typedef struct pica_rig_run {
	bool ok;
	char msg[ULP_DIAG_MSG_MAX];
	pica_batch_stats st;
	outs o;
	test_ev_log ev;
} pica_rig_run;
/* pica_batch_run of n jobs of make_job on the general or the fast path,
 * with a timeline when record, into out; on_result's (and make_job's)
 * context is ctx, or out's results when ctx is NULL.  Free with
 * pica_rig_run_free. */
void pica_rig_run_jobs(const pica_program *p, const pica_uniforms *u, const ulp_config *cfg, bool general,
                       bool record, unsigned units, uint32_t n,
                       void (*make_job)(void *ctx, uint32_t id, pica_job *job),
                       void (*on_result)(void *ctx, const pica_result *r), void *ctx, pica_rig_run *out);
void pica_rig_run_free(pica_rig_run *r);
/* Two runs alike: verdict, message, cycles, every unit figure, the
 * results in order (not the events). */
void pica_rig_expect_same(const pica_rig_run *a, const pica_rig_run *b, const char *what);

/* Each vertex shader (each DVLE not a geometry shader) of the corpus's
 * SHBINs, built under each of the settings (NULL: the defaults), with its
 * DVLE's constants, every float constant's component i % 4 raised by 1 and
 * integer uniforms (2 + i, 0, 1): fn sees the program, the uniforms, the
 * config, the setting's index and a name for messages.  Returns how many
 * shaders it ran. */
typedef void pica_rig_case_fn(void *ctx, const pica_program *p, const pica_uniforms *u,
                              const ulp_config *cfg, size_t setting, const char *what);
unsigned pica_rig_each_corpus_vs(const char *const *settings, size_t nsettings, pica_rig_case_fn *fn,
                                 void *ctx);

#define OUTS ".out o0 position\n.out o1 color\n.out o2 texcoord0\n.out o3 texcoord1\n"

/* Hand-encoded flow-control words (pica200.md §1.2, format 2). */
#define W_NOP 0x84000000u
#define W_END 0x88000000u
/* format 2: op << 26 | DST << 10 | NUM */
#define W_CALL(dst, num) (0x24u << 26 | (uint32_t)(dst) << 10 | (uint32_t)(num))
#define W_IFC_X1(dst, num) (0x28u << 26 | 1u << 25 | 2u << 22 | (uint32_t)(dst) << 10 | (uint32_t)(num))

#endif

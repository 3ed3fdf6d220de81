/* A test rig for the PICA200 shader unit: assemble picasso text, build the
 * program, run it.  Shared by tests/test_pica_unit*.c. */
#ifndef ULP_TESTS_PICA_RIG_H
#define ULP_TESTS_PICA_RIG_H

#include <stdint.h>

#include "isa/pica/pica_asm.h"
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

#define OUTS ".out o0 position\n.out o1 color\n.out o2 texcoord0\n.out o3 texcoord1\n"

/* Hand-encoded flow-control words (pica200.md §1.2, format 2). */
#define W_NOP 0x84000000u
#define W_END 0x88000000u
/* format 2: op << 26 | DST << 10 | NUM */
#define W_CALL(dst, num) (0x24u << 26 | (uint32_t)(dst) << 10 | (uint32_t)(num))
#define W_IFC_X1(dst, num) (0x28u << 26 | 1u << 25 | 2u << 22 | (uint32_t)(dst) << 10 | (uint32_t)(num))

#endif

/* The batch's tame run (units/pica/pica_batch.c, docs/speed-s17-vtx.md):
 * in the truncating mode a batch of sixteen vertices first runs MUL, ADD,
 * MAD and the dot products in their tame forms (no range rules), and runs
 * again with the general forms when one operand was not tame
 * (+-0 or 2^-23 <= |x| < 2^30).  Its results must be the general path's
 * (env.general: pica_step, one tick a cycle) bit for bit, in batches that
 * are all tame, batches with one lane off (just outside either bound, a
 * float24 subnormal, an infinity, a NaN), results that cancel to zero
 * (the -0 the tame forms make +0) and products near the bounds. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "tests/units/pica_rig.h"
#include "units/pica/pica_batch.h"

/* Every operand kind the tame forms take: MUL, MAD (its product and sum),
 * ADD with a negated source, DP3, DP4, DPH, MAX, MIN, MOV, RSQ, a uniform
 * operand (k, m) and r registers fed from earlier results. */
static const char SRC[] =
	".out o0 position\n.out o1 color\n.out o2 texcoord0\n.out o3 texcoord1\n"
	".constf k(0.5, -2.0, 3.0, 0.0)\n.constf m(1.5, 0.0, -0.25, 1000.0)\n.proc main\n"
	"  mov r6, v1\n"
	"  mov r7, v2\n"
	"  mul r0, k, v0\n"
	"  mad r1, r6, v0, r0\n"
	"  add r2, r1, -r7\n"
	"  dp3 r3.x, r2, v0\n"
	"  dp4 r3.y, r1, r6\n"
	"  dph r3.z, m, r7\n"
	"  max r3.w, k.wwww, r2.xxxx\n"
	"  min r4, r2, r6\n"
	"  rsq r5.x, v0.wwww\n"
	"  mad r5.yzw, r4, m, r7\n"
	"  mul o0, r3, r5\n"
	"  mad o1, r0, r7, -r0\n"
	"  add o2, r2, r4\n"
	"  add o3.xy, v0, -v0\n"
	"  mov o3.zw, r3\n"
	"  end\n.end\n";

/* Without dot products (whose forms look at every operand themselves):
 * only the component-wise forms' operand test sends a batch back. */
static const char SRC_CW[] =
	".out o0 position\n.out o1 color\n.out o2 texcoord0\n.out o3 texcoord1\n"
	".constf k(0.5, -2.0, 3.0, 0.0)\n.constf m(1.5, 0.0, -0.25, 1000.0)\n.proc main\n"
	"  mov r6, v1\n"
	"  mul o0, k, v0\n"
	"  mad o1, r6, m, v0\n"
	"  add o2, v0, -r6\n"
	"  mul o3, r6, v0\n"
	"  end\n.end\n";

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	return x ^ (x >> 33);
}

/* A tame value: +-0 now and then, else 2^e with e in [-12, 12) and a
 * random 17-bit significand (a float24 value) or a 24-bit one (binary32,
 * as ulpsim-bench's inputs), either sign. */
static float tame_value(uint64_t h)
{
	if (h % 13 == 0)
		return (h >> 8) & 1 ? -0.0f : 0.0f;
	const int e = (int)((h >> 4) % 24) - 12;
	const uint32_t bits = (h >> 9) & 1 ? 0x7FFFFFu : 0x7F0000u;
	const float sig = 1.0f + (float)((uint32_t)(h >> 10) & bits) * 0x1p-23f;
	const float v = ldexpf(sig, e);
	return (h >> 40) & 1 ? -v : v;
}

/* The off values: just outside either bound, float24 subnormals and the
 * smallest normal, the largest values, infinities, NaN. */
static const float OFF[] = { 0x1.fffffep-24f, -0x1p-24f, 0x1p30f, -0x1.5p31f, 0x1p-70f, 0x1p-62f,
                             0x1.fffep63f, INFINITY, -INFINITY, NAN, 0x1p-40f, 0x1p45f };

/* Batch b (vertex id / 16): one in eight with one lane's component off
 * (b % 8 == 7: after such a batch the next one skips the tame run,
 * pica_batch_luck, and the six after it try it again), the others all
 * tame (b % 8 == 2 with v0 = v1 = v2 on some lanes, so that sums
 * cancel). */
static void tame_job(void *ctx, uint32_t id, pica_job *job)
{
	(void)ctx;
	const uint32_t b = id / PICA_BATCH_LANES;
	for (int r = 0; r < 3; r++)
		for (int k = 0; k < 4; k++) {
			const uint64_t h = mix((uint64_t)id * 64 + (uint64_t)r * 4 + (uint64_t)k + 1);
			job->v[r].c[k] = (b % 8 == 2 && id % 3 == 0) ? tame_value(mix(id * 4u + (unsigned)k))
			                                             : tame_value(h);
		}
	job->v[0].c[3] = fabsf(job->v[0].c[3]) + 1.0f;   /* rsq of a positive value */
	if (b % 8 == 7 && id % PICA_BATCH_LANES == (b / 8 * 7 + 3) % PICA_BATCH_LANES) {
		const uint64_t h = mix(id);
		job->v[h % 3].c[(h >> 8) % 4] = OFF[(b / 8) % (sizeof OFF / sizeof OFF[0])];
	}
}

static void compare_paths(const rig *r, const ulp_config *cfg, unsigned units, uint32_t n, const char *what)
{
	pica_rig_run g, f;
	pica_rig_run_jobs(&r->p, &r->u, cfg, true, false, units, n, tame_job, pica_rig_keep, NULL, &g);
	pica_rig_run_jobs(&r->p, &r->u, cfg, false, false, units, n, tame_job, pica_rig_keep, NULL, &f);
	cr_assert(g.ok, "%s: %s", what, g.msg);
	pica_rig_expect_same(&g, &f, what);
	pica_rig_run_free(&g);
	pica_rig_run_free(&f);
}

static void both_paths(const char *src, int prog)
{
	rig *r = build(src);
	cr_assert(r->p.batch, "the batch plan should accept program %d", prog);
	compare_paths(r, &r->cfg, 4, 16 * 8 * 24, "defaults");
	compare_paths(r, &r->cfg, 1, 16 * 6 + 5, "one unit");
	ulp_config cfg = r->cfg;
	cr_assert(ulp_config_set(&cfg, "f24.round=nearest-even", &r->d), "%s", r->d.msg);
	compare_paths(r, &cfg, 4, 16 * 24, "nearest-even");
	r->p.batch->wide = false;                  /* four lanes: no tame run */
	compare_paths(r, &r->cfg, 4, 16 * 24, "four lanes");
	unbuild(r);
}

Test(pica_tame, tame_and_general_batches_match_the_general_path)
{
	both_paths(SRC, 0);
	both_paths(SRC_CW, 1);
}

/* The values the job makes are what the test means: seven batches in
 * eight all tame, the eighth one lane off. */
Test(pica_tame, the_jobs_are_tame_where_meant)
{
	unsigned tame_batches = 0, off_batches = 0;
	for (uint32_t b = 0; b < 8 * 24; b++) {
		bool tame = true;
		for (uint32_t l = 0; l < PICA_BATCH_LANES; l++) {
			pica_job j;
			memset(&j, 0, sizeof j);
			tame_job(NULL, b * PICA_BATCH_LANES + l, &j);
			for (int r = 0; r < 3; r++)
				for (int k = 0; k < 4; k++) {
					const float a = fabsf(j.v[r].c[k]);
					tame = tame && (a == 0.0f || (a >= 0x1p-23f && a < 0x1p30f));
				}
		}
		tame ? tame_batches++ : off_batches++;
		cr_assert_eq(tame, b % 8 != 7, "batch %u", b);
	}
	cr_assert_eq(tame_batches, 7 * 24);
	cr_assert_eq(off_batches, 24);
}

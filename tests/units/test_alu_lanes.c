/* The ALU's lane helpers that a build for AVX2 forms another way
 * (units/gr3d/alu_lanes.h, docs/speed.md): fp20_f64_normal, the binary64
 * bits of four normal FP20 words formed from their bits (alu_batch.c
 * read_fp20_soa, alu.c q_fetch), must be gr3d_fp20's value of every normal
 * code; narrow_u64x4 must give the low words of four 64-bit lanes, by its
 * shuffle (wide) as by the conversion.  Each is run in a plain function and,
 * where the host has AVX2, in one built for it (as the ALU's builds are).
 * FP20_LANES_ODD must name the codes fp20_is_special names, and
 * fp20_far_lanes' 64-bit rule (wide) the lanes its 32-bit rule names.  The batch's
 * pairs of saturated FX10 halves (alu_batch.c write_soa, fx10_unit_lanes)
 * must write what alu_exec writes, quad by quad.  The ALU's other paths are
 * compared with its general path by test_alu_plan.c, test_alu_quad.c and
 * test_ahead.c. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "tests/test_util.h"
#include "tests/units/alu_rig.h"
#include "units/gr3d/alu_lanes.h"

/* Every normal FP20 code (exponent 1..62) in lanes of four, each lane
 * compared with gr3d_fp20; returns the codes that differ. */
static inline __attribute__((always_inline)) unsigned normal_codes(void)
{
	unsigned bad = 0;
	for (uint32_t base = 0; base < (1u << 20); base += GR3D_PIXELS) {
		uint32_t w[GR3D_PIXELS];
		for (unsigned p = 0; p < GR3D_PIXELS; p++)   /* the lanes in another order, bits above 20 set */
			w[p] = (base + (p * 3u & 3u)) | (p == 1 ? 0xFFF00000u : 0u);
		q_u64x4 b;
		fp20_f64_normal(w, &b);
		for (unsigned p = 0; p < GR3D_PIXELS; p++) {
			const uint32_t e = fp20_exp(w[p]);
			if (e == 0 || e == FP20_EXP_MAX)
				continue;
			const double want = gr3d_fp20(w[p] & 0xFFFFFu);
			uint64_t wb;
			memcpy(&wb, &want, sizeof wb);
			bad += b[p] != wb;
		}
	}
	return bad;
}

/* narrow_u64x4 both ways on n random vectors; returns the lanes that are
 * not the low words. */
static inline __attribute__((always_inline)) unsigned narrow_lanes(unsigned n)
{
	test_rng g = { 0x2545F491u };
	unsigned bad = 0;
	for (unsigned i = 0; i < n; i++) {
		q_u64x4 b;
		for (unsigned p = 0; p < 4; p++)
			b[p] = (uint64_t)test_rnd(&g) << 32 | test_rnd(&g);
		const alu_u32x4 w = narrow_u64x4(&b, true), c = narrow_u64x4(&b, false);
		for (unsigned p = 0; p < 4; p++)
			bad += (w[p] != (uint32_t)b[p]) + (c[p] != (uint32_t)b[p]);
	}
	return bad;
}

/* FP20_LANES_ODD on every code (bits above 20 set in some lanes); returns
 * the lanes that differ from fp20_is_special. */
static inline __attribute__((always_inline)) unsigned odd_codes(void)
{
	typedef uint32_t u32x8 __attribute__((vector_size(32)));
	unsigned bad = 0;
	for (uint32_t base = 0; base < (1u << 20); base += 8) {
		u32x8 w;
		for (unsigned p = 0; p < 8; p++)
			w[p] = (base + p) | (p & 1u ? 0xABC00000u : 0u);
		const u32x8 m = FP20_LANES_ODD(w, u32x8);
		for (unsigned p = 0; p < 8; p++)
			bad += (m[p] != 0) != fp20_is_special(w[p] & 0xFFFFFu) || (m[p] != 0 && m[p] != ~0u);
	}
	return bad;
}

/* fp20_far_lanes' two rules (wide: 64-bit compares; else the 32-bit words)
 * on random values and on each side of the range's ends, with either sign;
 * returns the lanes where they differ. */
static inline __attribute__((always_inline)) unsigned far_lanes(void)
{
	test_rng g = { 0x7F4A7C15u };
	const uint64_t ends[] = { 0, 1, (uint64_t)(1023 - 29) << 52, (uint64_t)(1023 + 31) << 52, UINT64_C(0x7FF) << 52 };
	unsigned bad = 0;
	for (unsigned i = 0; i < 20000; i++) {
		q_u64x4 b;
		for (unsigned p = 0; p < 4; p++) {
			const uint64_t r = (uint64_t)test_rnd(&g) << 32 | test_rnd(&g);
			const uint64_t e = ends[test_rnd(&g) % 5] + (uint64_t)(test_rnd(&g) % 5) - 2u;
			b[p] = (i & 1u ? r : e & ~(UINT64_C(1) << 63)) ^ (r & UINT64_C(1) << 63);
		}
		const alu_u32x4 w = fp20_far_lanes(&b, true), n = fp20_far_lanes(&b, false);
		for (unsigned p = 0; p < 4; p++)
			bad += (w[p] != 0) != (n[p] != 0);
	}
	return bad;
}

static unsigned far_lanes_plain(void) { return far_lanes(); }
static unsigned odd_codes_plain(void) { return odd_codes(); }
static unsigned normal_codes_plain(void) { return normal_codes(); }
static unsigned narrow_lanes_plain(void) { return narrow_lanes(4096); }
#if defined(__x86_64__)
__attribute__((target("avx2"))) static unsigned normal_codes_avx2(void) { return normal_codes(); }
__attribute__((target("avx2"))) static unsigned odd_codes_avx2(void) { return odd_codes(); }
__attribute__((target("avx2"))) static unsigned far_lanes_avx2(void) { return far_lanes(); }
__attribute__((target("avx2"))) static unsigned narrow_lanes_avx2(void) { return narrow_lanes(4096); }
#endif

/* Each check counts the lanes that differ: none in the plain build, nor in
 * the AVX2 one where the host has it. */
#if defined(__x86_64__)
#define BOTH_BUILDS(name) both_builds(name##_plain, name##_avx2, #name)
#else
#define BOTH_BUILDS(name) both_builds(name##_plain, NULL, #name)
#endif
static void both_builds(unsigned (*plain)(void), unsigned (*avx2)(void), const char *what)
{
	cr_assert_eq(plain(), 0u, "%s, plain build: lanes differ", what);
#if defined(__x86_64__)
	if (avx2 && __builtin_cpu_supports("avx2"))
		cr_assert_eq(avx2(), 0u, "%s, AVX2 build: lanes differ", what);
#endif
}

Test(alu_lanes, fp20_f64_normal_is_gr3d_fp20) { BOTH_BUILDS(normal_codes); }
Test(alu_lanes, narrow_gives_the_low_words) { BOTH_BUILDS(narrow_lanes); }
Test(alu_lanes, fp20_lanes_odd_is_fp20_is_special) { BOTH_BUILDS(odd_codes); }
Test(alu_lanes, far_lanes_wide_is_the_32_bit_rule) { BOTH_BUILDS(far_lanes); }

/* Saturated FX10 pairs (fs_lit's last packet; a condition's pair, a pair
 * in a group and a pair with one slot saturated beside them) on batches of random quads, against
 * alu_exec quad by quad. */
static const char PAIR_PROG[] =
	"alu_buffer_size = 2\n.asm\nEXEC\n ALU:\n"
	"  ALU0: MAD r2.l*, r1, g0, r0 (sat)\n"
	"  ALU1: MAD r2.*h, r2, g4, r0 (sat)\n"
	"  ALU2: MAD r3.l*, r3, r6, r0 (sat)\n"
	"  ALU3: MAD r3.*h, #1, #1, #0 (sat)\n"
	" ALU:\n"
	"  ALU0: MAD r4.l*, r1, r0, #0 (ge)\n"
	"  ALU1: MAD r4.*h, r2, r0, #0 (gt)\n"
	"  ALU2: MAD r5.l*, r1, r0, #0 (sat) (this)\n"
	"  ALU3: MAD r5.*h, r2, r0, #0 (sat) (other)\n"
	" ALU:\n"
	"  ALU0: MAD r6.l*, r1, r0, #0 (sat)\n"
	"  ALU1: MAD r6.*h, r2, r0, #0\n;\n";

static void check_pairs(enum ulp_round fx10, bool wrap)
{
	alu_rig *r = alu_rig_new(PAIR_PROG, "pairs.asm",
	                         (alu_rig_modes){ ULP_ROUND_NEAREST_EVEN, fx10, wrap, true, true });
	test_rng g = { 0x51ED27u ^ (uint32_t)fx10 << 4 ^ wrap << 8 };
	static gr3d_quad fast[ALU_BATCH_MAX], ref[ALU_BATCH_MAX];
	unsigned batched = 0;
	for (unsigned round = 0; round < 300; round++) {
		const unsigned nq = 1 + test_rnd(&g) % ALU_BATCH_MAX;
		gr3d_quad *qs[ALU_BATCH_MAX];
		for (unsigned k = 0; k < nq; k++) {
			alu_rig_quad(&g, &ref[k], round * ALU_BATCH_MAX + k);
			fast[k] = ref[k];
			qs[k] = &fast[k];
			r->unit.s.exec(&r->unit.s, &ref[k], 0);
		}
		static alu_lanes l;
		alu_lanes_begin(&l, qs, nq);
		if (!alu_batch_exec(&r->unit, &l, 0))
			continue;
		batched++;
		alu_lanes_to_quads(&l, ~UINT64_C(0));
		for (unsigned k = 0; k < nq; k++)
			cr_assert(!memcmp(fast[k].r, ref[k].r, sizeof ref[k].r), "round %u, quad %u of %u: rows differ", round,
			          k, nq);
	}
	cr_assert_gt(batched, 100, "the batch ran %u times", batched);
	free(r);
}

Test(alu_lanes, batch_saturated_pairs_match_alu_exec)
{
	check_pairs(ULP_ROUND_NEAREST_AWAY, false);
	check_pairs(ULP_ROUND_TRUNCATE, true);
	check_pairs(ULP_ROUND_NEAREST_EVEN, false);   /* not fx10_lanes: fx10_quad */
}

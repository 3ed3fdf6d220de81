/* The ALU's lane helpers that a build for AVX2 forms another way
 * (units/gr3d/alu_lanes.h, docs/speed.md): fp20_f64_normal, the binary64
 * bits of four normal FP20 words formed from their bits (alu_batch.c
 * read_fp20_soa, alu.c q_fetch), must be gr3d_fp20's value of every normal
 * code; narrow_u64x4 must give the low words of four 64-bit lanes, by its
 * shuffle (wide) as by the conversion.  Each is run in a plain function and,
 * where the host has AVX2, in one built for it (as the ALU's builds are).
 * The ALU's own paths are compared with its general path by test_alu_plan.c,
 * test_alu_quad.c and test_ahead.c. */
#include <criterion/criterion.h>
#include <string.h>

#include "tests/test_util.h"
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

static unsigned normal_codes_plain(void) { return normal_codes(); }
static unsigned narrow_lanes_plain(void) { return narrow_lanes(4096); }
#if defined(__x86_64__)
__attribute__((target("avx2"))) static unsigned normal_codes_avx2(void) { return normal_codes(); }
__attribute__((target("avx2"))) static unsigned narrow_lanes_avx2(void) { return narrow_lanes(4096); }
#endif

Test(alu_lanes, fp20_f64_normal_is_gr3d_fp20)
{
	cr_assert_eq(normal_codes_plain(), 0u, "plain build: codes differ");
#if defined(__x86_64__)
	if (__builtin_cpu_supports("avx2"))
		cr_assert_eq(normal_codes_avx2(), 0u, "AVX2 build: codes differ");
#endif
}

Test(alu_lanes, narrow_gives_the_low_words)
{
	cr_assert_eq(narrow_lanes_plain(), 0u, "plain build: lanes differ");
#if defined(__x86_64__)
	if (__builtin_cpu_supports("avx2"))
		cr_assert_eq(narrow_lanes_avx2(), 0u, "AVX2 build: lanes differ");
#endif
}

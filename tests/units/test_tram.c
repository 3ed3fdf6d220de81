/* TRAM's FP20 load (units/gr3d/tram.c: twelve words decoded side by side,
 * the special exponents after) against its word-by-word rule
 * (gr3d_tram_load_rule): every field of every row, bit for bit, on random
 * words with every exponent class (0 with and without a mantissa, +-0 among
 * normal words, 1..62, 63: inf and NaN), both signs, bits above FP20's twenty, and on the words
 * of both FX10 halves' extremes; the binary32 words of arith=exact too. */
#include <criterion/criterion.h>
#include <string.h>

#include "isa/fp20.h"
#include "units/gr3d/tram.h"

static uint32_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return (uint32_t)(*s >> 11);
}

/* A word: random, or with exponent 0 / 63, or an FX10 extreme.  In a
 * "normal" round one word in 64 is special, so most rows have none (the
 * lanes' row with no fix-up) and some have one. */
static uint32_t word(uint64_t *s, bool normal)
{
	uint32_t w = rnd(s);
	if (normal) {
		if (rnd(s) % 64 == 0)
			return rnd(s) % 2 ? w | FP20_EXP_MASK : w & ~FP20_EXP_MASK;
		if (rnd(s) % 16 == 0)                     /* +-0: on the lanes, no fix-up */
			return w & ~(FP20_MASK & ~FP20_SIGN_MASK);
		const uint32_t e = 1u + rnd(s) % (FP20_EXP_MAX - 1u);   /* 1..62 */
		return (w & ~FP20_EXP_MASK) | e << FP20_EXP_SHIFT;
	}
	switch (rnd(s) % 8) {
	case 0: return w & ~FP20_EXP_MASK;                       /* exponent 0: zero or subnormal */
	case 1: return w | FP20_EXP_MASK;                        /* exponent 63: inf or NaN */
	case 2: return (w & ~FP20_EXP_MASK & ~0x1FFFu) | (rnd(s) % 2 ? FP20_EXP_MASK : 0u);   /* 0, inf */
	case 3: {
		static const uint32_t X[] = { 0x000u, 0x1FFu, 0x200u, 0x3FFu };
		return X[rnd(s) % 4] | X[rnd(s) % 4] << 10 | (w & 0xFFF00000u);
	}
	default: return w;
	}
}

static void compare_loads(bool f32_words, uint64_t seed, unsigned rounds)
{
	static gr3d_tram a, b;
	cr_assert(gr3d_tram_init(&a, 4));
	cr_assert(gr3d_tram_init(&b, 4));
	a.f32_words = b.f32_words = f32_words;
	unsigned specials = 0, clean_rows = 0, zero_rows = 0;
	for (unsigned n = 0; n < rounds; n++) {
		const bool normal = n % 2;
		static uint32_t rows[3][GR3D_TRAM_ROWS][4];
		for (unsigned i = 0; i < 3; i++)
			for (unsigned r = 0; r < GR3D_TRAM_ROWS; r++)
				for (unsigned k = 0; k < 4; k++) {
					rows[i][r][k] = word(&seed, normal);
					specials += fp20_is_special(rows[i][r][k] & FP20_MASK);
				}
		for (unsigned r = 0; r < GR3D_TRAM_ROWS; r++) {
			bool any = false, zero = false;
			for (unsigned i = 0; i < 3; i++)
				for (unsigned k = 0; k < 4; k++) {
					const uint32_t m = rows[i][r][k] & FP20_MASK & ~FP20_SIGN_MASK;
					any |= fp20_is_special(rows[i][r][k] & FP20_MASK) && m != 0;
					zero |= m == 0;
				}
			clean_rows += !any;
			zero_rows += !any && zero;
		}
		const uint32_t (*v[3])[4] = { rows[0], rows[1], rows[2] };
		const unsigned slot = n % 4;
		/* stale contents the loads must overwrite, different in each */
		memset(&a.tri[slot], 0x11, sizeof a.tri[slot]);
		memset(&b.tri[slot], 0x77, sizeof b.tri[slot]);
		gr3d_tram_load(&a, slot, v);
		gr3d_tram_load_rule(&b, slot, v);
		for (unsigned r = 0; r < GR3D_TRAM_ROWS; r++) {
			cr_assert(memcmp(a.tri[slot].v[r], b.tri[slot].v[r], sizeof a.tri[slot].v[r]) == 0, "round %u row %u: words", n, r);
			cr_assert(memcmp(a.tri[slot].f[r], b.tri[slot].f[r], sizeof a.tri[slot].f[r]) == 0, "round %u row %u: FP20", n, r);
			cr_assert(memcmp(a.tri[slot].fx[r], b.tri[slot].fx[r], sizeof a.tri[slot].fx[r]) == 0, "round %u row %u: FX10", n, r);
		}
		/* the ring's fill loads fill_rows rows the same way */
		a.fill_rows = 1 + n % GR3D_TRAM_ROWS;
		memset(&a.tri[a.next], 0x33, sizeof a.tri[a.next]);
		const unsigned s2 = gr3d_tram_fill(&a, v);
		gr3d_tram_load_rule(&b, s2, v);
		for (unsigned r = 0; r < a.fill_rows; r++)
			cr_assert(memcmp(&a.tri[s2].f[r], &b.tri[s2].f[r], sizeof a.tri[s2].f[r]) == 0 &&
			          memcmp(&a.tri[s2].fx[r], &b.tri[s2].fx[r], sizeof a.tri[s2].fx[r]) == 0 &&
			          memcmp(&a.tri[s2].v[r], &b.tri[s2].v[r], sizeof a.tri[s2].v[r]) == 0,
			          "round %u: fill row %u", n, r);
		/* the rows past fill_rows keep what they held (no store spills into them) */
		gr3d_tram_tri stale;
		memset(&stale, 0x33, sizeof stale);
		for (unsigned r = a.fill_rows; r < GR3D_TRAM_ROWS; r++)
			cr_assert(memcmp(&a.tri[s2].f[r], &stale.f[r], sizeof stale.f[r]) == 0 &&
			          memcmp(&a.tri[s2].fx[r], &stale.fx[r], sizeof stale.fx[r]) == 0 &&
			          memcmp(&a.tri[s2].v[r], &stale.v[r], sizeof stale.v[r]) == 0,
			          "round %u: row %u past fill_rows %u written", n, r, a.fill_rows);
		gr3d_tram_release(&a, s2);
	}
	cr_assert_gt(specials, rounds * 20u, "special exponents: %u", specials);
	cr_assert_gt(clean_rows, rounds * 2u, "rows without a special word but +-0: %u", clean_rows);
	cr_assert_gt(zero_rows, rounds / 2u, "rows with a +-0 and no other special word: %u", zero_rows);
	gr3d_tram_fini(&a);
	gr3d_tram_fini(&b);
}

Test(tram, fp20_load_matches_the_word_by_word_rule)
{
	compare_loads(false, 0x7a3c5eedu, 2000);
}

Test(tram, binary32_load_matches_the_word_by_word_rule)
{
	compare_loads(true, 0x5eedf32u, 200);
}

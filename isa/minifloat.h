/* Generic small floating-point formats on raw bits: FP20 (Tegra) and float24
 * (PICA200) are both  sign | exponent | mantissa  with a bias.
 *
 *   bit  N-1        N-2 .. mbits      mbits-1 .. 0
 *       +------+-------------------+----------------+
 *       | sign | exponent (ebits)  | mantissa (mbits)|
 *       +------+-------------------+----------------+
 *
 * exponent all ones = inf (mantissa 0) / NaN; exponent 0 = zero, or a
 * subnormal when the format has them.  Rounding is explicit (ulp_round). */
#ifndef ULP_ISA_MINIFLOAT_H
#define ULP_ISA_MINIFLOAT_H

#include <stdbool.h>
#include <stdint.h>

/* How a value that does not fit the mantissa is rounded.  Where the hardware's
 * rounding is not publicly known the mode is a config knob (docs/ASSUMPTIONS.md). */
enum ulp_round {
	ULP_ROUND_NEAREST_EVEN = 0,
	ULP_ROUND_TRUNCATE,      /* toward zero */
	ULP_ROUND_NEAREST_AWAY,  /* nearest, ties away from zero: floor(|x| + 0.5) */
};

typedef struct ulp_minifloat {
	const char *name;
	uint8_t ebits, mbits;
	int bias;
	bool subnormals;     /* exponent 0 encodes subnormals (else: zero) */
	bool neg_zero;       /* -0 exists (else -0 encodes and decodes as +0) */
} ulp_minifloat;

/* Round a non-negative value to an integer under r. */
double ulp_round_int(double x, enum ulp_round r);

/* Encode v: NaN -> positive canonical NaN (top mantissa bit set); overflow
 * after rounding -> inf; values below the smallest code -> zero. */
uint32_t mf_encode(const ulp_minifloat *f, double v, enum ulp_round r);
double mf_decode(const ulp_minifloat *f, uint32_t code);

/* Round v to the format's precision and range, staying in double. */
double mf_round(const ulp_minifloat *f, double v, enum ulp_round r);

/* The canonical code set: decode(encode(x)) == x and encode(decode(c)) == c
 * for every canonical c.  Non-canonical codes are NaN payloads other than the
 * canonical NaN, -0 where the format has none, and nonzero mantissas under a
 * zero exponent where the format has no subnormals. */
bool mf_is_canonical(const ulp_minifloat *f, uint32_t code);

bool ulp_round_parse(const char *s, enum ulp_round *r);

#endif

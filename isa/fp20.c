#include "isa/fp20.h"

/* tegra-fp.md §2.4: sign 19, exponent 13..18 bias 31, mantissa 0..12; no
 * denormals (grate's decoder); -0 is a distinct code (sign bit alone). */
const ulp_minifloat FP20_FORMAT = {
	.name = "fp20", .ebits = 6, .mbits = 13, .bias = 31,
	.subnormals = false, .neg_zero = true,
};

float fp20_decode(uint32_t bits) { return (float)mf_decode(&FP20_FORMAT, bits & FP20_MASK); }

uint32_t fp20_encode(float v, enum ulp_round r) { return fp20_encode_f64(v, r); }

float fp20_round(double v, enum ulp_round r) { return (float)mf_round(&FP20_FORMAT, v, r); }

/* Tegra GR3D FP20: sign bit 19, exponent bits 13..18 (bias 31), mantissa
 * bits 0..12.  1.0 = 0x3E000.  Exponent 63 = inf/NaN; exponent 0 = zero
 * (no subnormals: tegra-fp.md §2.4, grate's decoder has none).
 * Registers carry FP20 values as host floats (every FP20 is exact in binary32). */
#ifndef ULP_ISA_FP20_H
#define ULP_ISA_FP20_H

#include <stdint.h>

#include "isa/minifloat.h"

extern const ulp_minifloat FP20_FORMAT;

#define FP20_ONE 0x3E000u
#define FP20_MASK 0xFFFFFu

float fp20_decode(uint32_t bits);
uint32_t fp20_encode(float v, enum ulp_round r);
/* Round a double to an FP20 value (mantissa 13 bits, overflow -> inf, below
 * 2^-30 -> zero keeping the sign). */
float fp20_round(double v, enum ulp_round r);

#endif

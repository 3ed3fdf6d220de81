/* Tegra GR3D FX10: 10-bit two's complement, 8 fraction bits, range [-2, 2).
 * value = sext10(code) / 256.  (tegra-fp.md §2.4)
 *
 * The colour path (tegra-fp.md §7, hw-expected.md, an inference that
 * reproduces every hardware-verified pixel):
 *   - an FP20 result written to an FX10 half rounds to nearest with ties up:
 *     floor(v*256 + 0.5) (ULP_ROUND_NEAREST_AWAY; 1/512 -> 1 is a verified tie)
 *   - DW converts FX10 to UNORM8 as (fx10*255 + 127) >> 8, clamped to 0..255 */
#ifndef ULP_ISA_FX10_H
#define ULP_ISA_FX10_H

#include <stdbool.h>
#include <stdint.h>

#include "isa/minifloat.h"

/* The layout: 10 bits, two's complement, 8 fraction bits; a 20-bit
 * register holds two, .l in bits 0..9 and .h in 10..19. */
#define FX10_BITS 10
#define FX10_FRAC_BITS 8
#define FX10_MASK ((1u << FX10_BITS) - 1u)                  /* 0x3FF */
#define FX10_SIGN (1u << (FX10_BITS - 1))                   /* 0x200 */
#define FX10_ONE (1u << FX10_FRAC_BITS)                     /* 0x100 = 1.0 */
#define FX10_HIGH_SHIFT FX10_BITS                           /* .h half of a register */

/* One half of a 20-bit register word. */
static inline uint32_t fx10_half(uint32_t word, bool high)
{
	return (high ? word >> FX10_HIGH_SHIFT : word) & FX10_MASK;
}

/* sext10 with no branch (also on vector lanes): -512..511. */
static inline int32_t fx10_sext(uint32_t code)
{
	return (int32_t)((code & FX10_MASK) ^ FX10_SIGN) - (int32_t)FX10_SIGN;
}

/* Out-of-range values saturate to -2 or 511/256, or wrap modulo 4 when
 * wrap is set (knob fx10.overflow, docs/ASSUMPTIONS.md).  NaN encodes as 0. */
uint16_t fx10_encode_ovf(double v, enum ulp_round r, bool wrap);
/* The saturating form (the knob's default). */
uint16_t fx10_encode(double v, enum ulp_round r);
float fx10_decode(uint32_t code);          /* low 10 bits used */
int fx10_to_int(uint32_t code);            /* sext10: -512..511 */

uint32_t fp20_to_fx10(uint32_t fp20, enum ulp_round r);
uint32_t fx10_to_fp20(uint32_t fx10);      /* exact */

uint8_t fx10_to_unorm8(uint32_t fx10);     /* DW: (fx10*255 + 127) >> 8, clamped */
/* b + (b >> 7): round(b*256/255).  Inline: TEX and PSEQ convert every
 * channel they read (fx10.c holds the external definition). */
inline uint16_t unorm8_to_fx10(uint8_t b) { return (uint16_t)(b + (b >> 7)); }

#endif

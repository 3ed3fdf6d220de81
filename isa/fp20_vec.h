/* FP20 words on four lanes (GCC/Clang vector types), for the GR3D units'
 * vector paths (the ALU's reads, the MFU's register SFU ops, TEX's
 * coordinates).  The format is isa/fp20.h's; these are its normal-number
 * rules written once for lanes:
 * - FP20_LANES_ODD: the lanes whose exponent is 0 or 63 (not a normal
 *   number), as a comparison's mask;
 * - fp20v_f64_bits_normal: a normal word's value as binary64 bits, formed
 *   straight from the code (fp20_f64_bits' rule), with no binary32 step.
 * tests/units/test_alu_lanes.c, test_mfu_pair.c and test_tex_quad.c compare
 * them with gr3d_fp20 and fp20_is_special on every code. */
#ifndef ULP_ISA_FP20_VEC_H
#define ULP_ISA_FP20_VEC_H

#include <stdint.h>

#include "isa/fp20.h"

typedef uint32_t fp20v_u32x4 __attribute__((vector_size(16)));
typedef uint32_t fp20v_u32x8 __attribute__((vector_size(32)));
typedef uint64_t fp20v_u64x4 __attribute__((vector_size(32)));

/* The lanes of FP20 words w (a vector of unsigned type) whose exponent is
 * 0 or 63, as a comparison's mask: the exponent plus one (mod 64) is 0 or
 * 1, so bits 14..18 of w + 2^13 are clear (the mantissa below does not
 * carry into them; a carry out of the exponent goes to the sign, which is
 * not looked at).  An add, an and and a compare for equality on any width:
 * SSE2 and AVX2 have no unsigned compare, which the test as a range
 * needed. */
#define FP20_LANES_ODD(w, type) \
	((type)((((w) + (1u << FP20_EXP_SHIFT)) & (FP20_EXP_MASK & ~(1u << FP20_EXP_SHIFT))) == 0u))


/* The binary64 bits of four FP20 words that are normal numbers: the
 * exponent re-biased, the mantissa moved up, the sign to bit 63.  Built for
 * AVX2 the widening of the words is one vpmovzxdq (GCC 12 converts four
 * binary32 lanes to binary64 in six instructions there, not one
 * vcvtps2pd).  (Through a pointer: a 32-byte vector returned by value
 * changes the ABI without AVX.) */
static inline __attribute__((always_inline)) void fp20v_f64_bits_normal(fp20v_u32x4 w, fp20v_u64x4 *out)
{
	const fp20v_u32x4 zero = { 0, 0, 0, 0 };
	const fp20v_u64x4 x = (fp20v_u64x4)(fp20v_u32x8)__builtin_shufflevector(w, zero, 0, 4, 1, 4, 2, 4, 3, 4);
	*out = (((x & (FP20_SIGN_MASK - 1u)) << FP20_F64_SHIFT) + ((uint64_t)FP20_F64_REBIAS << 52)) |
	       (x & FP20_SIGN_MASK) << (63 - FP20_SIGN_SHIFT);
}

#endif

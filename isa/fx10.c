#include "isa/fx10.h"

#include <math.h>

#include "isa/fp20.h"

uint16_t fx10_encode(double v, enum ulp_round r) { return fx10_encode_ovf(v, r, false); }

uint16_t fx10_encode_ovf(double v, enum ulp_round r, bool wrap)
{
	if (isnan(v))
		return 0;
	double s = fabs(v) * 256.0;
	double q = ulp_round_int(s, r);
	if (v < 0)
		q = -q;
	if (wrap && !isinf(q))
		return (uint16_t)((int64_t)fmod(q, 1024.0) & (int64_t)FX10_MASK);
	/* Saturate (knob fx10.overflow = clamp; docs/ASSUMPTIONS.md). */
	if (q < -512.0)
		q = -512.0;
	if (q > 511.0)
		q = 511.0;
	return (uint16_t)((int)q & (int)FX10_MASK);
}

int fx10_to_int(uint32_t code)
{
	code &= FX10_MASK;
	return (code & 0x200u) ? (int)code - 1024 : (int)code;
}

float fx10_decode(uint32_t code) { return (float)fx10_to_int(code) / 256.0f; }

uint32_t fp20_to_fx10(uint32_t fp20, enum ulp_round r) { return fx10_encode(fp20_decode(fp20), r); }

uint32_t fx10_to_fp20(uint32_t fx10) { return fp20_encode(fx10_decode(fx10), ULP_ROUND_NEAREST_EVEN); }

/* hw-expected.md: DW byte = (fx10*255 + 127) >> 8; 1.0 (256) -> 255. */
uint8_t fx10_to_unorm8(uint32_t fx10)
{
	int v = fx10_to_int(fx10);
	if (v <= 0)
		return 0;
	int b = (v * 255 + 127) >> 8;
	return (uint8_t)(b > 255 ? 255 : b);
}

/* The exact inverse of the DW rule on 0..255: b + (b >> 7) == round(b*256/255). */
extern inline uint16_t unorm8_to_fx10(uint8_t b);   /* the external definition (fx10.h) */

#include "isa/minifloat.h"

#include <math.h>
#include <string.h>

static uint32_t field_mask(unsigned bits) { return (1u << bits) - 1u; }

/* Round a non-negative value to an integer. */
double ulp_round_int(double x, enum ulp_round r)
{
	double fl = floor(x);
	if (r == ULP_ROUND_TRUNCATE)
		return fl;
	double frac = x - fl;
	if (frac > 0.5 || (frac == 0.5 && (r == ULP_ROUND_NEAREST_AWAY || fmod(fl, 2.0) != 0.0)))
		return fl + 1.0;
	return fl;
}

uint32_t mf_encode(const ulp_minifloat *f, double v, enum ulp_round r)
{
	const uint32_t emax = field_mask(f->ebits);
	const uint32_t sign = signbit(v) ? 1u << (f->ebits + f->mbits) : 0;
	const double one_m = ldexp(1.0, f->mbits);   /* implicit leading one */

	if (isnan(v))
		return emax << f->mbits | 1u << (f->mbits - 1);
	if (v == 0.0)
		return f->neg_zero ? sign : 0;
	if (isinf(v))
		return sign | emax << f->mbits;

	double a = fabs(v);
	int e2;
	frexp(a, &e2);                  /* a = m * 2^e2, m in [0.5, 1) */
	int biased = e2 - 1 + f->bias;
	double q;
	if (biased >= 1) {
		q = ulp_round_int(ldexp(a, f->mbits - (e2 - 1)), r);  /* in [2^m, 2^(m+1)] */
		if (q >= 2.0 * one_m) {
			q /= 2.0;
			biased++;
		}
		if ((uint32_t)biased >= emax)
			return sign | emax << f->mbits;
		return sign | (uint32_t)biased << f->mbits | (uint32_t)(q - one_m);
	}
	/* Below the smallest normal: value = q * 2^(1 - bias - mbits). */
	q = ulp_round_int(ldexp(a, f->bias - 1 + f->mbits), r);
	if (q >= one_m)                  /* rounded up to the smallest normal */
		return sign | 1u << f->mbits;
	if (q == 0.0 || !f->subnormals)
		return f->neg_zero ? sign : 0;
	return sign | (uint32_t)q;
}

double mf_decode(const ulp_minifloat *f, uint32_t code)
{
	const uint32_t emax = field_mask(f->ebits);
	const uint32_t m = code & field_mask(f->mbits);
	const uint32_t e = (code >> f->mbits) & emax;
	const bool neg = (code >> (f->ebits + f->mbits)) & 1u;
	double v;
	if (e == emax)
		v = m ? NAN : INFINITY;
	else if (e == 0)
		v = f->subnormals ? ldexp((double)m, 1 - f->bias - f->mbits) : 0.0;
	else
		v = ldexp((double)(m | 1u << f->mbits), (int)e - f->bias - f->mbits);
	if (isnan(v))
		return v;
	if (v == 0.0 && !f->neg_zero)
		return 0.0;
	return neg ? -v : v;
}

double mf_round(const ulp_minifloat *f, double v, enum ulp_round r)
{
	return mf_decode(f, mf_encode(f, v, r));
}

bool mf_is_canonical(const ulp_minifloat *f, uint32_t code)
{
	const uint32_t emax = field_mask(f->ebits);
	const uint32_t m = code & field_mask(f->mbits);
	const uint32_t e = (code >> f->mbits) & emax;
	const bool neg = (code >> (f->ebits + f->mbits)) & 1u;
	if (code >> (1 + f->ebits + f->mbits))
		return false;
	if (e == emax && m)
		return code == (emax << f->mbits | 1u << (f->mbits - 1));
	if (e == 0 && m && !f->subnormals)
		return false;
	if (e == 0 && !m && neg && !f->neg_zero)
		return false;
	return true;
}

bool ulp_round_parse(const char *s, enum ulp_round *r)
{
	if (strcmp(s, "truncate") == 0 || strcmp(s, "trunc") == 0)
		*r = ULP_ROUND_TRUNCATE;
	else if (strcmp(s, "nearest-away") == 0)
		*r = ULP_ROUND_NEAREST_AWAY;
	else if (strcmp(s, "nearest-even") == 0 || strcmp(s, "nearest") == 0 || strcmp(s, "rne") == 0)
		*r = ULP_ROUND_NEAREST_EVEN;
	else
		return false;
	return true;
}

/* Per-opcode arithmetic of the TGSI interpreter, following Mesa 22.3
 * tgsi_exec (reference tgsi.md §2): plain C f32 expressions, no fused
 * multiply-add (-std=c17 keeps -ffp-contract=off).  Conversions and integer
 * corner cases that are undefined in C are given the x86-64 results; see
 * docs/notes/tgsi-assumptions.md. */
#include <math.h>

#include "frontends/tgsi/tgsi_exec_ops.h"

static uint32_t i2u(int32_t i)
{
	uint32_t u;
	memcpy(&u, &i, sizeof u);
	return u;
}

static uint32_t bool_mask(bool b)
{
	return b ? 0xffffffffu : 0u;
}

static uint32_t bool_float(bool b)
{
	return tx_f2u(b ? 1.0f : 0.0f);
}

/* (int)x as x86-64 cvttss2si does: NaN and out-of-range give INT32_MIN. */
static int32_t f2i(float x)
{
	if (!(x >= -2147483648.0f && x < 2147483648.0f))
		return INT32_MIN;
	return (int32_t)x;
}

/* (unsigned)x as gcc compiles it on x86-64: via a 64-bit conversion. */
static uint32_t f2u32(float x)
{
	if (!(x > -9.2e18f && x < 9.2e18f))
		return 0;
	return (uint32_t)(int64_t)x;
}

static float lg2(float x)
{
	return logf(x) * 1.442695f;
}

static float ex2(float x)
{
	return powf(2.0f, x);
}

bool tx_int_sources(unsigned op)
{
	switch (op) {
	case TGSI_OPCODE_UARL: case TGSI_OPCODE_I2F: case TGSI_OPCODE_U2F:
	case TGSI_OPCODE_NOT: case TGSI_OPCODE_AND: case TGSI_OPCODE_OR: case TGSI_OPCODE_XOR:
	case TGSI_OPCODE_SHL: case TGSI_OPCODE_ISHR: case TGSI_OPCODE_USHR:
	case TGSI_OPCODE_UADD: case TGSI_OPCODE_UMUL: case TGSI_OPCODE_UMAD:
	case TGSI_OPCODE_IMAX: case TGSI_OPCODE_IMIN: case TGSI_OPCODE_UMAX: case TGSI_OPCODE_UMIN:
	case TGSI_OPCODE_ISLT: case TGSI_OPCODE_ISGE: case TGSI_OPCODE_USLT: case TGSI_OPCODE_USGE:
	case TGSI_OPCODE_USEQ: case TGSI_OPCODE_USNE: case TGSI_OPCODE_INEG: case TGSI_OPCODE_IABS:
	case TGSI_OPCODE_ISSG: case TGSI_OPCODE_UCMP: case TGSI_OPCODE_IDIV: case TGSI_OPCODE_UDIV:
	case TGSI_OPCODE_UMOD: case TGSI_OPCODE_MOD: case TGSI_OPCODE_IMUL_HI:
	case TGSI_OPCODE_UMUL_HI: case TGSI_OPCODE_UIF: case TGSI_OPCODE_SWITCH:
	case TGSI_OPCODE_CASE:
		return true;
	default:
		return false;
	}
}

/* Replicated scalar ops: one value from the x channels. */
static bool repl(unsigned op, const uint32_t s[][4], float *v)
{
	float a = tx_u2f(s[0][0]), b = tx_u2f(s[1][0]);
	float d;
	switch (op) {
	case TGSI_OPCODE_RCP: *v = 1.0f / a; return true;
	case TGSI_OPCODE_RSQ: *v = 1.0f / sqrtf(a); return true;
	case TGSI_OPCODE_SQRT: *v = sqrtf(a); return true;
	case TGSI_OPCODE_EX2: *v = ex2(a); return true;
	case TGSI_OPCODE_LG2: *v = lg2(a); return true;
	case TGSI_OPCODE_POW: *v = powf(a, b); return true;
	case TGSI_OPCODE_SIN: *v = sinf(a); return true;
	case TGSI_OPCODE_COS: *v = cosf(a); return true;
	case TGSI_OPCODE_DP2:
	case TGSI_OPCODE_DP3:
	case TGSI_OPCODE_DP4:
	case TGSI_OPCODE_DPH: {
		int n = op == TGSI_OPCODE_DP2 ? 2 : op == TGSI_OPCODE_DP4 ? 4 : 3;
		d = a * b;
		for (int c = 1; c < n; c++) {
			float p = tx_u2f(s[0][c]) * tx_u2f(s[1][c]);
			d = p + d;
		}
		if (op == TGSI_OPCODE_DPH)
			d = d + tx_u2f(s[1][3]);
		*v = d;
		return true;
	}
	default:
		return false;
	}
}

/* Ops whose channels follow their own formulas. */
static bool chan(unsigned op, const uint32_t s[][4], uint32_t r[4])
{
	float x = tx_u2f(s[0][0]), y = tx_u2f(s[0][1]), z = tx_u2f(s[0][2]), w = tx_u2f(s[0][3]);
	float o[4];
	switch (op) {
	case TGSI_OPCODE_LIT: {
		float mx = fmaxf(x, 0.0f);
		float p = powf(fmaxf(y, 0.0f), fminf(fmaxf(w, -128.0f), 128.0f));
		o[0] = 1.0f;
		o[1] = mx;
		o[2] = 0.0f < mx ? p : 0.0f;
		o[3] = 1.0f;
		break;
	}
	case TGSI_OPCODE_EXP: {
		float fl = floorf(x);
		o[0] = ex2(fl);
		o[1] = x - fl;
		o[2] = ex2(x);
		o[3] = 1.0f;
		break;
	}
	case TGSI_OPCODE_LOG: {
		float a = fabsf(x), l = lg2(a), fl = floorf(l);
		o[0] = fl;
		o[1] = a / ex2(fl);
		o[2] = l;
		o[3] = 1.0f;
		break;
	}
	case TGSI_OPCODE_DST:
		o[0] = 1.0f;
		o[1] = y * tx_u2f(s[1][1]);
		o[2] = z;
		o[3] = tx_u2f(s[1][3]);
		break;
	case TGSI_OPCODE_XPD: {
		float bx = tx_u2f(s[1][0]), by = tx_u2f(s[1][1]), bz = tx_u2f(s[1][2]);
		o[0] = y * bz - z * by;
		o[1] = z * bx - x * bz;
		o[2] = x * by - y * bx;
		o[3] = 1.0f;
		break;
	}
	case TGSI_OPCODE_SCS:
		o[0] = cosf(x);
		o[1] = sinf(x);
		o[2] = 0.0f;
		o[3] = 1.0f;
		break;
	default:
		return false;
	}
	for (int c = 0; c < 4; c++)
		r[c] = tx_f2u(o[c]);
	return true;
}

/* Per-component float ops. */
static bool comp_float(unsigned op, float a, float b, float c, uint32_t *out)
{
	float v;
	switch (op) {
	case TGSI_OPCODE_MOV: v = a; break;
	case TGSI_OPCODE_ABS: v = fabsf(a); break;
	case TGSI_OPCODE_ADD: v = a + b; break;
	case TGSI_OPCODE_SUB: v = a - b; break;
	case TGSI_OPCODE_MUL: v = a * b; break;
	case TGSI_OPCODE_DIV: v = a / b; break;
	case TGSI_OPCODE_MAD: { float p = a * b; v = p + c; break; }
	case TGSI_OPCODE_LRP: { float t = a * (b - c); v = t + c; break; }
	case TGSI_OPCODE_MIN: v = fminf(a, b); break;
	case TGSI_OPCODE_MAX: v = fmaxf(a, b); break;
	case TGSI_OPCODE_CLAMP: v = fminf(fmaxf(a, b), c); break;
	case TGSI_OPCODE_FRC: v = a - floorf(a); break;
	case TGSI_OPCODE_FLR: v = floorf(a); break;
	case TGSI_OPCODE_CEIL: v = ceilf(a); break;
	case TGSI_OPCODE_TRUNC: v = truncf(a); break;
	case TGSI_OPCODE_ROUND: v = nearbyintf(a); break;   /* half to even */
	case TGSI_OPCODE_SSG: v = a < 0.0f ? -1.0f : a > 0.0f ? 1.0f : 0.0f; break;
	case TGSI_OPCODE_CMP: v = a < 0.0f ? b : c; break;
	case TGSI_OPCODE_DDX: case TGSI_OPCODE_DDY:
	case TGSI_OPCODE_DDX_FINE: case TGSI_OPCODE_DDY_FINE:
		v = 0.0f;       /* one lane: every quad neighbour is this one */
		break;
	case TGSI_OPCODE_SLT: *out = bool_float(a < b); return true;
	case TGSI_OPCODE_SGE: *out = bool_float(a >= b); return true;
	case TGSI_OPCODE_SEQ: *out = bool_float(a == b); return true;
	case TGSI_OPCODE_SNE: *out = bool_float(a != b); return true;
	case TGSI_OPCODE_SGT: *out = bool_float(a > b); return true;
	case TGSI_OPCODE_SLE: *out = bool_float(a <= b); return true;
	case TGSI_OPCODE_FSLT: *out = bool_mask(a < b); return true;
	case TGSI_OPCODE_FSGE: *out = bool_mask(a >= b); return true;
	case TGSI_OPCODE_FSEQ: *out = bool_mask(a == b); return true;
	case TGSI_OPCODE_FSNE: *out = bool_mask(a != b); return true;
	case TGSI_OPCODE_ARL: *out = i2u(f2i(floorf(a))); return true;
	case TGSI_OPCODE_ARR: *out = i2u(f2i(floorf(a + 0.5f))); return true;
	case TGSI_OPCODE_F2I: *out = i2u(f2i(a)); return true;
	case TGSI_OPCODE_F2U: *out = f2u32(a); return true;
	default:
		return false;
	}
	*out = tx_f2u(v);
	return true;
}

/* Per-component integer ops on raw words. */
static bool comp_int(unsigned op, uint32_t a, uint32_t b, uint32_t c, uint32_t *out)
{
	int32_t ia = tx_u2i(a), ib = tx_u2i(b);
	switch (op) {
	case TGSI_OPCODE_UARL: *out = a; return true;
	case TGSI_OPCODE_I2F: *out = tx_f2u((float)ia); return true;
	case TGSI_OPCODE_U2F: *out = tx_f2u((float)a); return true;
	case TGSI_OPCODE_NOT: *out = ~a; return true;
	case TGSI_OPCODE_AND: *out = a & b; return true;
	case TGSI_OPCODE_OR: *out = a | b; return true;
	case TGSI_OPCODE_XOR: *out = a ^ b; return true;
	case TGSI_OPCODE_SHL: *out = a << (b & 31); return true;
	case TGSI_OPCODE_USHR: *out = a >> (b & 31); return true;
	case TGSI_OPCODE_ISHR: {
		unsigned n = b & 31;
		*out = (a >> n) | (ia < 0 && n ? ~(0xffffffffu >> n) : 0u);
		return true;
	}
	case TGSI_OPCODE_UADD: *out = a + b; return true;
	case TGSI_OPCODE_UMUL: *out = a * b; return true;
	case TGSI_OPCODE_UMAD: *out = a * b + c; return true;
	case TGSI_OPCODE_IMAX: *out = ia > ib ? a : b; return true;
	case TGSI_OPCODE_IMIN: *out = ia < ib ? a : b; return true;
	case TGSI_OPCODE_UMAX: *out = a > b ? a : b; return true;
	case TGSI_OPCODE_UMIN: *out = a < b ? a : b; return true;
	case TGSI_OPCODE_ISLT: *out = bool_mask(ia < ib); return true;
	case TGSI_OPCODE_ISGE: *out = bool_mask(ia >= ib); return true;
	case TGSI_OPCODE_USLT: *out = bool_mask(a < b); return true;
	case TGSI_OPCODE_USGE: *out = bool_mask(a >= b); return true;
	case TGSI_OPCODE_USEQ: *out = bool_mask(a == b); return true;
	case TGSI_OPCODE_USNE: *out = bool_mask(a != b); return true;
	case TGSI_OPCODE_INEG: *out = 0u - a; return true;
	case TGSI_OPCODE_IABS: *out = ia < 0 ? 0u - a : a; return true;
	case TGSI_OPCODE_ISSG: *out = i2u(ia < 0 ? -1 : ia > 0 ? 1 : 0); return true;
	case TGSI_OPCODE_UCMP: *out = a ? b : c; return true;
	case TGSI_OPCODE_UDIV: *out = b ? a / b : 0xffffffffu; return true;
	case TGSI_OPCODE_UMOD: *out = b ? a % b : 0xffffffffu; return true;
	case TGSI_OPCODE_IDIV:
		*out = ib == 0 ? 0xffffffffu : (ia == INT32_MIN && ib == -1) ? a : i2u(ia / ib);
		return true;
	case TGSI_OPCODE_MOD:
		*out = ib == 0 ? 0xffffffffu : (ia == INT32_MIN && ib == -1) ? 0u : i2u(ia % ib);
		return true;
	case TGSI_OPCODE_IMUL_HI:
		*out = (uint32_t)((uint64_t)((int64_t)ia * (int64_t)ib) >> 32);
		return true;
	case TGSI_OPCODE_UMUL_HI:
		*out = (uint32_t)(((uint64_t)a * (uint64_t)b) >> 32);
		return true;
	default:
		return false;
	}
}

bool tx_alu(unsigned op, const uint32_t s[][4], uint32_t r[4])
{
	const tgsi_opcode_info *info = tgsi_get_opcode_info((enum tgsi_opcode)op);
	if (!info || info->num_dst != 1)
		return false;
	float v;
	if (repl(op, s, &v)) {
		for (int c = 0; c < 4; c++)
			r[c] = tx_f2u(v);
		return true;
	}
	if (chan(op, s, r))
		return true;
	if (op == TGSI_OPCODE_MOV) {   /* a bit copy: integer data passes unchanged */
		memcpy(r, s[0], 4 * sizeof *r);
		return true;
	}
	unsigned n = info->num_src;
	for (int c = 0; c < 4; c++) {
		uint32_t a = s[0][c], b = n > 1 ? s[1][c] : 0, cc = n > 2 ? s[2][c] : 0;
		bool ok = tx_int_sources(op) ? comp_int(op, a, b, cc, &r[c])
		                             : comp_float(op, tx_u2f(a), tx_u2f(b), tx_u2f(cc), &r[c]);
		if (!ok)
			return false;
	}
	return true;
}

/* ---- texture sampling (see tgsi_exec_ops.h) ---- */

/* floorf(u) as an integer: NaN gives 0, magnitudes are capped at 2^40 (far
 * beyond any image, so the wraps stay exact). */
static int64_t ifloor(float u)
{
	if (isnan(u))
		return 0;
	float f = floorf(u);
	if (f < -1099511627776.0f)
		return -1099511627776LL;
	if (f > 1099511627776.0f)
		return 1099511627776LL;
	return (int64_t)f;
}

static int64_t wrap(int64_t i, uint32_t size, uint8_t mode)
{
	int64_t n = size;
	switch (mode) {
	case TGSI_EXEC_CLAMP_TO_EDGE:
		return i < 0 ? 0 : i >= n ? n - 1 : i;
	case TGSI_EXEC_MIRRORED_REPEAT: {
		int64_t m = ((i % (2 * n)) + 2 * n) % (2 * n) - n;
		return (n - 1) - (m >= 0 ? m : -(1 + m));
	}
	default:
		return ((i % n) + n) % n;
	}
}

static bool compare(uint8_t op, float ref, float d)
{
	switch (op) {
	case TGSI_EXEC_LESS: return ref < d;
	case TGSI_EXEC_EQUAL: return ref == d;
	case TGSI_EXEC_LEQUAL: return ref <= d;
	case TGSI_EXEC_GREATER: return ref > d;
	case TGSI_EXEC_NOTEQUAL: return ref != d;
	case TGSI_EXEC_GEQUAL: return ref >= d;
	case TGSI_EXEC_ALWAYS: return true;
	default: return false;          /* NEVER */
	}
}

/* Texel (i, j) after wrapping, or its compare result. */
static void texel_at(const tgsi_exec_texture *tex, int64_t i, int64_t j, float ref, float r[4])
{
	i = wrap(i, tex->width, tex->wrap[0]);
	j = wrap(j, tex->height, tex->wrap[1]);
	const float *p = tex->texels[(size_t)j * tex->width + (size_t)i];
	if (tex->compare == TGSI_EXEC_COMPARE_NONE) {
		memcpy(r, p, 4 * sizeof *r);
		return;
	}
	float v = compare(tex->compare, ref, p[0]) ? 1.0f : 0.0f;
	r[0] = r[1] = r[2] = r[3] = v;
}

static float lerp(float a, float x, float y)
{
	return x + a * (y - x);
}

static float frac_weight(float u)
{
	float a = u - floorf(u);
	return isfinite(a) ? a : 0.0f;
}

void tx_sample(const tgsi_exec_texture *tex, const float st[2], bool one_d, bool unnormalised,
               const int32_t off[2], float ref, float r[4])
{
	if (tex->compare != TGSI_EXEC_COMPARE_NONE)
		ref = fminf(fmaxf(ref, 0.0f), 1.0f);
	float u = unnormalised ? st[0] : st[0] * (float)tex->width;
	float v = unnormalised ? st[1] : st[1] * (float)tex->height;
	if (tex->filter == TGSI_EXEC_NEAREST) {
		int64_t j = one_d ? 0 : ifloor(v) + off[1];
		texel_at(tex, ifloor(u) + off[0], j, ref, r);
	} else {
		u -= 0.5f;
		v -= 0.5f;
		int64_t i0 = ifloor(u) + off[0], j0 = one_d ? 0 : ifloor(v) + off[1];
		int64_t j1 = one_d ? 0 : j0 + 1;
		float a = frac_weight(u), b = one_d ? 0.0f : frac_weight(v);
		float t00[4], t10[4], t01[4], t11[4];
		texel_at(tex, i0, j0, ref, t00);
		texel_at(tex, i0 + 1, j0, ref, t10);
		texel_at(tex, i0, j1, ref, t01);
		texel_at(tex, i0 + 1, j1, ref, t11);
		for (int c = 0; c < 4; c++)
			r[c] = lerp(b, lerp(a, t00[c], t10[c]), lerp(a, t01[c], t11[c]));
	}
	if (tex->compare != TGSI_EXEC_COMPARE_NONE)
		r[3] = 1.0f;
}

void tx_fetch(const tgsi_exec_texture *tex, int64_t x, int64_t y, float r[4])
{
	if (x < 0 || y < 0 || x >= tex->width || y >= tex->height) {
		r[0] = r[1] = r[2] = r[3] = 0.0f;
		return;
	}
	memcpy(r, tex->texels[(size_t)y * tex->width + (size_t)x], 4 * sizeof *r);
}

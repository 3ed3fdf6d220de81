/* The interpreter's per-opcode arithmetic (tgsi_exec_ops.c), the
 * counterpart of tgsi_exec's micro_* functions, texture sampling, and
 * bit-cast helpers. */
#ifndef ULP_FRONTENDS_TGSI_EXEC_OPS_H
#define ULP_FRONTENDS_TGSI_EXEC_OPS_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "frontends/tgsi/tgsi.h"
#include "frontends/tgsi/tgsi_exec.h"

static inline float tx_u2f(uint32_t u)
{
	float f;
	memcpy(&f, &u, sizeof f);
	return f;
}

static inline uint32_t tx_f2u(float f)
{
	uint32_t u;
	memcpy(&u, &f, sizeof u);
	return u;
}

static inline int32_t tx_u2i(uint32_t u)
{
	int32_t i;
	memcpy(&i, &u, sizeof i);
	return i;
}

/* Sources of op are fetched as integers (integer negate/abs modifiers). */
bool tx_int_sources(unsigned op);

/* r = op(s) for the arithmetic opcodes (not control flow, textures, kills).
 * False when the interpreter does not implement op. */
bool tx_alu(unsigned op, const uint32_t s[][4], uint32_t r[4]);

/* Texture sampling from one image level (the texel-centre convention of the
 * GL spec, §8.14): texel (i, j) covers u = s * width in [i, i + 1) and
 * v = t * height in [j, j + 1), its centre at ((i + 0.5) / width,
 * (j + 0.5) / height); row 0 is at t = 0.  Nearest takes texel
 * (floor(u), floor(v)); linear blends texels floor(u - 0.5) and the next
 * with weight frac(u - 0.5), first along s, then t:
 * lerp(b, lerp(a, T00, T10), lerp(a, T01, T11)), lerp(a, x, y) = x + a*(y-x).
 * Wraps apply to integer texel coordinates: repeat i mod n, clamp-to-edge
 * clamp(i, 0, n-1), mirrored repeat (n-1) - mirror((i mod 2n) - n).
 *   st: s, t (t unused when one_d); texel units when unnormalised (RECT)
 *   off: integer texel offsets added to u, v
 *   with tex->compare, each texel's r is compared as `ref OP r` (ref clamped
 *   to [0, 1]), the 0/1 results are filtered and returned as (v, v, v, 1). */
void tx_sample(const tgsi_exec_texture *tex, const float st[2], bool one_d, bool unnormalised,
               const int32_t off[2], float ref, float r[4]);

/* Texel (x, y) without filtering or wrapping (TXF); (0, 0, 0, 0) outside. */
void tx_fetch(const tgsi_exec_texture *tex, int64_t x, int64_t y, float r[4]);

#endif

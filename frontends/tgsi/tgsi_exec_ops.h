/* The interpreter's per-opcode arithmetic (tgsi_exec_ops.c), the
 * counterpart of tgsi_exec's micro_* functions, and bit-cast helpers. */
#ifndef ULP_FRONTENDS_TGSI_EXEC_OPS_H
#define ULP_FRONTENDS_TGSI_EXEC_OPS_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "frontends/tgsi/tgsi.h"

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

#endif

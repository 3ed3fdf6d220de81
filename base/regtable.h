/* What the register tables (isa/pica/pica_regs.def, isa/tegra/gr3d_regs.def)
 * generate their accessors and names from: bit fields of a 32-bit register
 * word by position and width, and a register array's element name. */
#ifndef ULP_BASE_REGTABLE_H
#define ULP_BASE_REGTABLE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* width low bits set (width 1..32). */
static inline uint32_t ulp_bits_ones(unsigned width)
{
	return width >= 32 ? 0xFFFFFFFFu : (1u << width) - 1u;
}

/* The mask of bits lo .. lo + width - 1 (lo + width <= 32). */
static inline uint32_t ulp_bits_mask(unsigned lo, unsigned width) { return ulp_bits_ones(width) << lo; }

/* The field at lo of width bits, read from v. */
static inline uint32_t ulp_bits_get(uint32_t v, unsigned lo, unsigned width)
{
	return (v >> lo) & ulp_bits_ones(width);
}

/* x (truncated to width bits) placed at lo, for or-ing into a word. */
static inline uint32_t ulp_bits_put(uint32_t x, unsigned lo, unsigned width)
{
	return (x & ulp_bits_ones(width)) << lo;
}

/* v with the field at lo replaced by x. */
static inline uint32_t ulp_bits_set(uint32_t v, unsigned lo, unsigned width, uint32_t x)
{
	return (v & ~ulp_bits_mask(lo, width)) | ulp_bits_put(x, lo, width);
}

/* The name of element k of a table row: prefix, then dump with its "%u"
 * (if any) replaced by k.  A lone register without a prefix is dump
 * itself; otherwise the name is written to buf (n bytes). */
static inline const char *ulp_reg_elem_name(const char *prefix, const char *dump, unsigned k, char *buf,
                                            size_t n)
{
	const char *at = strstr(dump, "%u");
	if (!prefix && !at)
		return dump;
	if (!at)
		snprintf(buf, n, "%s%s", prefix ? prefix : "", dump);
	else
		snprintf(buf, n, "%s%.*s%u%s", prefix ? prefix : "", (int)(at - dump), dump, k, at + 2);
	return buf;
}

#endif

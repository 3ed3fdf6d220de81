/* Internal to isa/tegra: a growable text buffer for the text writers. */
#ifndef ULP_ISA_TEGRA_TEXT_H
#define ULP_ISA_TEGRA_TEXT_H

#include <stdbool.h>
#include <stddef.h>

typedef struct sbuf {
	char *s;
	size_t len, cap;
	bool oom;      /* an allocation failed; s holds what was written before */
} sbuf;

void sb_printf(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif

/* A growable text buffer for the text writers (disassemblers, listings,
 * emitters).  An allocation failure sets oom and stops further writes; s
 * holds what was written before. */
#ifndef ULP_BASE_STRBUF_H
#define ULP_BASE_STRBUF_H

#include <stdbool.h>
#include <stddef.h>

typedef struct ulp_strbuf {
	char *s;          /* NUL-terminated once anything was written; free() it */
	size_t len, cap;
	bool oom;
} ulp_strbuf;

void ulp_strbuf_printf(ulp_strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif

/* Diagnostics: library code never prints or exits; it fills a ulp_diag and
 * returns failure.  The CLI prints it as  ulpsim: <file>:<line>:<col>: <msg>
 * (or <file>: byte <offset>: <msg> for binary inputs). */
#ifndef ULP_BASE_DIAG_H
#define ULP_BASE_DIAG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

enum { ULP_DIAG_MSG_MAX = 512, ULP_DIAG_FILE_MAX = 256 };

typedef struct ulp_diag {
	bool set;                         /* an error has been recorded */
	char file[ULP_DIAG_FILE_MAX];     /* "" when no file is involved */
	int line, col;                    /* 1-based; 0 = unknown */
	long offset;                      /* byte offset in a binary; -1 = none */
	char msg[ULP_DIAG_MSG_MAX];
} ulp_diag;

void ulp_diag_clear(ulp_diag *d);

/* Record the first error only (later calls are ignored while d->set).
 * Always returns false so callers can write  return ulp_diag_at(...);  */
bool ulp_diag_at(ulp_diag *d, const char *file, int line, int col,
                 const char *fmt, ...) __attribute__((format(printf, 5, 6)));
bool ulp_diag_byte(ulp_diag *d, const char *file, long offset,
                   const char *fmt, ...) __attribute__((format(printf, 4, 5)));
bool ulp_diag_vat(ulp_diag *d, const char *file, int line, int col, long offset,
                  const char *fmt, va_list ap);

/* "ulpsim: file:line:col: msg\n" to f. */
void ulp_diag_print(const ulp_diag *d, FILE *f);
/* The same text without the "ulpsim: " prefix and newline, into buf. */
void ulp_diag_format(const ulp_diag *d, char *buf, size_t n);

#endif

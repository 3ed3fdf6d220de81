#include "base/diag.h"

#include <string.h>

void ulp_diag_clear(ulp_diag *d)
{
	memset(d, 0, sizeof *d);
	d->offset = -1;
}

bool ulp_diag_vat(ulp_diag *d, const char *file, int line, int col, long offset,
                  const char *fmt, va_list ap)
{
	if (!d || d->set)
		return false;
	d->set = true;
	snprintf(d->file, sizeof d->file, "%s", file ? file : "");
	d->line = line;
	d->col = col;
	d->offset = offset;
	vsnprintf(d->msg, sizeof d->msg, fmt, ap);
	return false;
}

bool ulp_diag_at(ulp_diag *d, const char *file, int line, int col, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	ulp_diag_vat(d, file, line, col, -1, fmt, ap);
	va_end(ap);
	return false;
}

bool ulp_diag_byte(ulp_diag *d, const char *file, long offset, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	ulp_diag_vat(d, file, 0, 0, offset, fmt, ap);
	va_end(ap);
	return false;
}

void ulp_diag_format(const ulp_diag *d, char *buf, size_t n)
{
	if (!d->file[0])
		snprintf(buf, n, "%s", d->msg);
	else if (d->offset >= 0)
		snprintf(buf, n, "%s: byte %ld: %s", d->file, d->offset, d->msg);
	else if (d->line > 0 && d->col > 0)
		snprintf(buf, n, "%s:%d:%d: %s", d->file, d->line, d->col, d->msg);
	else if (d->line > 0)
		snprintf(buf, n, "%s:%d: %s", d->file, d->line, d->msg);
	else
		snprintf(buf, n, "%s: %s", d->file, d->msg);
}

void ulp_diag_print(const ulp_diag *d, FILE *f)
{
	char buf[ULP_DIAG_MSG_MAX + ULP_DIAG_FILE_MAX + 64];
	ulp_diag_format(d, buf, sizeof buf);
	fprintf(f, "ulpsim: %s\n", buf);
}

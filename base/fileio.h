/* Whole-file reads and atomic writes (temp file + rename: a failed run never
 * leaves a partial output file). */
#ifndef ULP_BASE_FILEIO_H
#define ULP_BASE_FILEIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "base/diag.h"

/* Reads all of path into a malloc'd buffer with a NUL appended (not counted
 * in *len).  "-" reads stdin.  On failure fills d and returns NULL. */
char *ulp_read_file(const char *path, size_t *len, ulp_diag *d);

/* Atomic output: open a temp file beside path, write, then commit (fsync-free
 * rename) or abort (unlink).  "-" writes to stdout directly, and so does an
 * existing path that is not a regular file (/dev/null, a FIFO): in place. */
typedef struct ulp_out {
	FILE *f;
	char path[1024];
	char tmp[1040];
	bool is_stdout;
	bool in_place;            /* a device or FIFO: no temp file, no rename */
} ulp_out;

bool ulp_out_open(ulp_out *o, const char *path, ulp_diag *d);
bool ulp_out_commit(ulp_out *o, ulp_diag *d);
void ulp_out_abort(ulp_out *o);

/* Convenience: write len bytes atomically. */
bool ulp_write_file(const char *path, const void *data, size_t len, ulp_diag *d);

#endif

/* The output file of a timeline writer (tl_chrome, tl_vcd, tl_kanata):
 * written to a temporary beside its path and renamed on close when nothing
 * failed (base/fileio.h); the first error is kept and reported on close. */
#ifndef ULP_SIM_TL_FILE_H
#define ULP_SIM_TL_FILE_H

#include <stdbool.h>
#include <stdlib.h>

#include "base/diag.h"
#include "base/fileio.h"

typedef struct tl_file {
	ulp_out out;
	bool failed;
	ulp_diag err;            /* the first error, when failed */
} tl_file;

static inline bool tl_file_open(tl_file *f, const char *path, ulp_diag *d)
{
	f->failed = false;
	ulp_diag_clear(&f->err);
	return ulp_out_open(&f->out, path, d);
}

/* A writer (tl_chrome, tl_vcd, tl_kanata) whose struct begins with its
 * tl_file: `size` zeroed bytes with the file open at path.  NULL with d. */
static inline void *tl_file_new_writer(size_t size, const char *path, ulp_diag *d)
{
	tl_file *f = calloc(1, size);
	if (!f) {
		ulp_diag_at(d, path, 0, 0, "out of memory");
		return NULL;
	}
	if (!tl_file_open(f, path, d)) {
		free(f);
		return NULL;
	}
	return f;
}

/* Marks the file failed with msg unless it already failed; returns false. */
static inline bool tl_file_fail(tl_file *f, const char *msg)
{
	if (!f->failed) {
		f->failed = true;
		ulp_diag_at(&f->err, f->out.path, 0, 0, "%s", msg);
	}
	return false;
}

/* After a batch of writes: false once the file has failed (a stdio error
 * included). */
static inline bool tl_file_check(tl_file *f)
{
	if (!f->failed && ferror(f->out.f))
		tl_file_fail(f, "write error");
	return !f->failed;
}

/* Renames the file into place, or removes it and reports the first error. */
static inline bool tl_file_close(tl_file *f, ulp_diag *d)
{
	if (f->failed) {
		ulp_out_abort(&f->out);
		return ulp_diag_at(d, f->err.file, 0, 0, "%s", f->err.msg);
	}
	return ulp_out_commit(&f->out, d);
}

#endif

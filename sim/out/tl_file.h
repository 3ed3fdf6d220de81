/* The output file of a timeline writer (tl_chrome, tl_vcd, tl_kanata):
 * written to a temporary beside its path and renamed on close when nothing
 * failed (base/fileio.h); the first error is kept and reported on close.
 *
 * The writers format their text into the file's buffer with the tl_put*
 * helpers (plain copies and integer digits, no printf), and the buffer goes
 * to the file in one fwrite when full and after each chunk of events
 * (tl_file_check), so an I/O error is seen at the same chunk as before
 * (docs/speed.md "Recording"). */
#ifndef ULP_SIM_TL_FILE_H
#define ULP_SIM_TL_FILE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/fileio.h"

enum { TL_TEXT_BUF = 1 << 16 };

typedef struct tl_file {
	ulp_out out;
	bool failed;
	ulp_diag err;            /* the first error, when failed */
	size_t tn;               /* bytes in tb */
	char tb[TL_TEXT_BUF];    /* text not yet written */
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

/* Writes the buffered text to the file (dropped once the file failed). */
static inline void tl_text_flush(tl_file *f)
{
	if (f->tn && !f->failed && fwrite(f->tb, 1, f->tn, f->out.f) != f->tn)
		tl_file_fail(f, "write error");
	f->tn = 0;
}

/* Room for `need` (<= TL_TEXT_BUF) more bytes at the returned pointer; the
 * caller adds what it wrote to f->tn. */
static inline char *tl_room(tl_file *f, size_t need)
{
	if (TL_TEXT_BUF - f->tn < need)
		tl_text_flush(f);
	return f->tb + f->tn;
}

static inline void tl_put(tl_file *f, const char *s, size_t n)
{
	if (n > TL_TEXT_BUF - f->tn) {
		tl_text_flush(f);
		if (n > TL_TEXT_BUF) {
			if (!f->failed && fwrite(s, 1, n, f->out.f) != n)
				tl_file_fail(f, "write error");
			return;
		}
	}
	memcpy(f->tb + f->tn, s, n);
	f->tn += n;
}

/* A string literal, its length known at compile time. */
#define TL_PUT_LIT(f, lit) tl_put((f), "" lit, sizeof(lit) - 1)

static inline void tl_puts(tl_file *f, const char *s) { tl_put(f, s, strlen(s)); }

static inline void tl_putc(tl_file *f, char c)
{
	tl_room(f, 1)[0] = c;
	f->tn++;
}

/* Decimal digits of v at p (at most 20), two at a time; returns their
 * count. */
static inline size_t tl_fmt_u64(char *p, uint64_t v)
{
	static const char D[201] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	                           "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	                           "8081828384858687888990919293949596979899";
	static const uint64_t P10[20] = {
		1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull, 100000000ull,
		1000000000ull, 10000000000ull, 100000000000ull, 1000000000000ull, 10000000000000ull,
		100000000000000ull, 1000000000000000ull, 10000000000000000ull, 100000000000000000ull,
		1000000000000000000ull, 10000000000000000000ull,
	};
	/* floor(log10(v)) from the bit length (1233 / 4096 ~ log10 2), then
	 * corrected: the digit count, at least 1 */
	unsigned t = ((64u - (unsigned)__builtin_clzll(v | 1u)) * 1233u) >> 12;
	size_t n = t + 1u - (v < P10[t]);
	n += n == 0;
	char *q = p + n;
	while (v >= 100) {
		size_t r = (size_t)(v % 100);
		v /= 100;
		q -= 2;
		memcpy(q, D + 2 * r, 2);
	}
	if (v >= 10) {
		q -= 2;
		memcpy(q, D + 2 * v, 2);
	} else {
		*--q = (char)('0' + v);
	}
	return n;
}

/* Cursor form, for a record whose size is bounded: reserve with tl_room,
 * write with these (each returns the new end), then tl_done. */
static inline char *tl_cpy(char *p, const char *s, size_t n)
{
	memcpy(p, s, n);
	return p + n;
}
#define TL_LIT(p, lit) tl_cpy((p), "" lit, sizeof(lit) - 1)
static inline char *tl_u64(char *p, uint64_t v) { return p + tl_fmt_u64(p, v); }
static inline void tl_done(tl_file *f, char *p) { f->tn = (size_t)(p - f->tb); }

/* As printf's %llu. */
static inline void tl_put_u64(tl_file *f, uint64_t v)
{
	f->tn += tl_fmt_u64(tl_room(f, 20), v);
}

/* After a batch of writes: the buffered text goes to the file; false once
 * the file has failed (a stdio error included). */
static inline bool tl_file_check(tl_file *f)
{
	tl_text_flush(f);
	if (!f->failed && ferror(f->out.f))
		tl_file_fail(f, "write error");
	return !f->failed;
}

/* Renames the file into place, or removes it and reports the first error. */
static inline bool tl_file_close(tl_file *f, ulp_diag *d)
{
	tl_file_check(f);
	if (f->failed) {
		ulp_out_abort(&f->out);
		return ulp_diag_at(d, f->err.file, 0, 0, "%s", f->err.msg);
	}
	return ulp_out_commit(&f->out, d);
}

#endif

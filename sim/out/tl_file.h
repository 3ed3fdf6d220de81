/* The output file of a timeline writer (tl_chrome, tl_vcd, tl_kanata):
 * written to a temporary beside its path and renamed on close when nothing
 * failed (base/fileio.h); the first error is kept and reported on close.
 *
 * The writers format their text into the file's buffer with the tl_put*
 * helpers (plain copies and integer digits, no printf), and the buffer goes
 * to the file in one fwrite when full and after each chunk of events
 * (tl_file_check), so an I/O error is seen at the same chunk as before
 * (docs/speed-history.md "Recording"). */
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
	if (!ulp_out_open(&f->out, path, d))
		return false;
	/* the text is buffered here (tb): each flush is one write, not a fill
	 * of stdio's buffer, a write of the rest and a copy of its tail */
	setvbuf(f->out.f, NULL, _IONBF, 0);
	return true;
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

/* The formatting helpers are always inlined: each event's fields are a few
 * of them in a row, and calls would cost more than the work. */
#define TL_INLINE static inline __attribute__((always_inline))

/* "00" "01" ... "99": the two digits of every value below 100. */
static const char tl_d2[201] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                               "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                               "8081828384858687888990919293949596979899";

/* The 8 decimal digits of v < 10^8 as byte values 0..9, the most
 * significant in the lowest byte (the first in memory), all at once: the two
 * halves of 4 digits side by side in 32-bit lanes, split into pairs in
 * 16-bit lanes and the pairs into digits (divisions by 100 and 10 done as
 * multiplications that are exact below 10^4 and 10^2). */
TL_INLINE uint64_t tl_digits8(uint32_t v)
{
	uint64_t m = (uint64_t)(v / 10000u) | (uint64_t)(v % 10000u) << 32;
	uint64_t hundreds = ((m * 10486u) >> 20) & 0x0000007f0000007full;
	uint64_t pairs = ((m - 100u * hundreds) << 16) + hundreds;
	uint64_t tens = ((pairs * 103u) >> 10) & 0x000f000f000f000full;
	return tens + ((pairs - 10u * tens) << 8);
}

/* The digits of 1 <= v < 10^8 at p, without leading zeros; stores 8 bytes
 * (what follows the digits is left for the caller to overwrite); returns
 * the count. */
TL_INLINE size_t tl_fmt_var8(char *p, uint32_t v)
{
	uint64_t d = tl_digits8(v);
	unsigned lead = (unsigned)__builtin_ctzll(d) & ~7u;   /* 8 bits per leading zero */
	d = (d + 0x3030303030303030ull) >> lead;
	memcpy(p, &d, 8);
	return 8u - lead / 8u;
}

/* All 8 digits of v < 10^8, leading zeros too. */
TL_INLINE void tl_fmt_full8(char *p, uint32_t v)
{
	uint64_t d = tl_digits8(v) + 0x3030303030303030ull;
	memcpy(p, &d, 8);
}

/* Decimal digits of v at p, as printf's %llu; returns their count (at most
 * 20).  It may store past the digits, up to p + 20: the caller has room for
 * 20 bytes and writes what follows the digits over the rest. */
TL_INLINE size_t tl_fmt_u64(char *p, uint64_t v)
{
	if (v < 100u) {
		if (v < 10u) {
			p[0] = (char)('0' + v);
			return 1;
		}
		memcpy(p, tl_d2 + 2 * v, 2);
		return 2;
	}
	if (v < 100000000u)
		return tl_fmt_var8(p, (uint32_t)v);
	if (v < 10000000000000000ull) {
		size_t n = tl_fmt_var8(p, (uint32_t)(v / 100000000u));
		tl_fmt_full8(p + n, (uint32_t)(v % 100000000u));
		return n + 8;
	}
	uint64_t low = v % 10000000000000000ull;
	size_t n = tl_fmt_var8(p, (uint32_t)(v / 10000000000000000ull));   /* at most 1844 */
	tl_fmt_full8(p + n, (uint32_t)(low / 100000000u));
	tl_fmt_full8(p + n + 8, (uint32_t)(low % 100000000u));
	return n + 16;
}

/* Cursor form, for a record whose size is bounded: reserve with tl_room,
 * write with these (each returns the new end), then tl_done. */
TL_INLINE char *tl_cpy(char *p, const char *s, size_t n)
{
	memcpy(p, s, n);
	return p + n;
}
#define TL_LIT(p, lit) tl_cpy((p), "" lit, sizeof(lit) - 1)
TL_INLINE char *tl_u64(char *p, uint64_t v) { return p + tl_fmt_u64(p, v); }
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

#define _POSIX_C_SOURCE 200809L
#include "base/fileio.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char *ulp_read_file(const char *path, size_t *len, ulp_diag *d)
{
	bool is_stdin = strcmp(path, "-") == 0;
	FILE *f = is_stdin ? stdin : fopen(path, "rb");
	if (!f) {
		ulp_diag_at(d, path, 0, 0, "cannot open: %s", strerror(errno));
		return NULL;
	}
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap + 1);
	while (buf) {
		size_t got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (n < cap)
			break;
		cap *= 2;
		char *nb = realloc(buf, cap + 1);
		if (!nb) {
			free(buf);
			buf = NULL;
		} else {
			buf = nb;
		}
	}
	bool err = ferror(f);
	if (!is_stdin)
		fclose(f);
	if (!buf) {
		ulp_diag_at(d, path, 0, 0, "out of memory reading file");
		return NULL;
	}
	if (err) {
		free(buf);
		ulp_diag_at(d, path, 0, 0, "read error");
		return NULL;
	}
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

bool ulp_out_open(ulp_out *o, const char *path, ulp_diag *d)
{
	memset(o, 0, sizeof *o);
	if (strcmp(path, "-") == 0) {
		o->f = stdout;
		o->is_stdout = true;
		return true;
	}
	if (snprintf(o->path, sizeof o->path, "%s", path) >= (int)sizeof o->path)
		return ulp_diag_at(d, path, 0, 0, "output path too long");
	/* An existing file that is not a regular one (/dev/null, a FIFO, a
	 * terminal) is written in place: a rename would replace the device
	 * node itself with a file (as root, /dev/null). */
	struct stat st;
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		o->f = fopen(path, "wb");
		if (!o->f)
			return ulp_diag_at(d, path, 0, 0, "cannot open output: %s", strerror(errno));
		o->in_place = true;
		return true;
	}
	snprintf(o->tmp, sizeof o->tmp, "%s.tmpXXXXXX", path);
	int fd = mkstemp(o->tmp);
	if (fd < 0)
		return ulp_diag_at(d, path, 0, 0, "cannot create output: %s", strerror(errno));
	fchmod(fd, 0644); /* mkstemp creates 0600; outputs are ordinary files */
	o->f = fdopen(fd, "wb");
	if (!o->f) {
		close(fd);
		unlink(o->tmp);
		return ulp_diag_at(d, path, 0, 0, "cannot open output: %s", strerror(errno));
	}
	return true;
}

bool ulp_out_commit(ulp_out *o, ulp_diag *d)
{
	if (o->is_stdout)
		return fflush(stdout) == 0 || ulp_diag_at(d, "-", 0, 0, "write error on stdout");
	bool ok = !ferror(o->f);
	ok = (fclose(o->f) == 0) && ok;
	o->f = NULL;
	if (o->in_place)
		return ok || ulp_diag_at(d, o->path, 0, 0, "write error");
	if (!ok) {
		unlink(o->tmp);
		return ulp_diag_at(d, o->path, 0, 0, "write error");
	}
	if (rename(o->tmp, o->path) != 0) {
		int e = errno;
		unlink(o->tmp);
		return ulp_diag_at(d, o->path, 0, 0, "cannot write: %s", strerror(e));
	}
	return true;
}

void ulp_out_abort(ulp_out *o)
{
	if (o->is_stdout || !o->f)
		return;
	fclose(o->f);
	o->f = NULL;
	if (!o->in_place)
		unlink(o->tmp);
}

bool ulp_write_file(const char *path, const void *data, size_t len, ulp_diag *d)
{
	ulp_out o;
	if (!ulp_out_open(&o, path, d))
		return false;
	if (len && fwrite(data, 1, len, o.f) != len) {
		ulp_out_abort(&o);
		return ulp_diag_at(d, path, 0, 0, "write error");
	}
	return ulp_out_commit(&o, d);
}

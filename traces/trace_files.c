/* A trace's side files (trace.h "Side files", docs/trace-format.md): which
 * names a trace may use and what they may be.  Traces are shared between
 * people, so by default a trace reads only regular files inside its own
 * folder, each under a size cap; trace_load_opts.allow_paths widens the
 * names (never the kind of file or the cap). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/fileio.h"
#include "traces/trace_int.h"

/* A relative name with no ".." component (and no empty name). */
static bool name_stays_inside(const char *name)
{
	if (!name[0] || name[0] == '/')
		return false;
	for (const char *p = name; *p;) {
		const char *e = strchr(p, '/');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		if (n == 2 && p[0] == '.' && p[1] == '.')
			return false;
		p += n;
		while (*p == '/')
			p++;
	}
	return true;
}

/* full resolves (symlinks followed) to a path under the folder dir. */
static bool resolves_inside(const char *dir, const char *full)
{
	char rdir[PATH_MAX], rfile[PATH_MAX];
	if (!realpath(dir[0] ? dir : ".", rdir) || !realpath(full, rfile))
		return false;
	size_t n = strlen(rdir);
	if (n == 1 && rdir[0] == '/')
		return true;
	return strncmp(rdir, rfile, n) == 0 && rfile[n] == '/';
}

char *trace_resolve(trace_ctx *c, const char *name, const char *jpath)
{
	const trace_load_opts *o = &c->t->opts;
	if (!o->allow_paths && !name_stays_inside(name)) {
		trace_err(c, jpath, "'%s': a side file is named relative to the trace's folder, without '..' "
		          "(--allow-paths takes other paths)", name);
		return NULL;
	}
	size_t n = strlen(c->t->dir) + strlen(name) + 2;
	char *p = malloc(n);
	if (!p) {
		trace_err(c, jpath, "out of memory%s", "");
		return NULL;
	}
	if (name[0] == '/' || !c->t->dir[0])
		snprintf(p, n, "%s", name);
	else
		snprintf(p, n, "%s/%s", c->t->dir, name);
	struct stat st;
	const char *why = NULL;
	char size[96];
	if (stat(p, &st) != 0)
		why = strerror(errno);
	else if (!S_ISREG(st.st_mode))
		why = "not a regular file";
	else if ((uint64_t)st.st_size > o->max_file_bytes) {
		snprintf(size, sizeof size, "%lld bytes, over the side-file cap of %llu bytes", (long long)st.st_size,
		         (unsigned long long)o->max_file_bytes);
		why = size;
	} else if (!o->allow_paths && !resolves_inside(c->t->dir, p))
		why = "a link out of the trace's folder (--allow-paths follows it)";
	if (why) {
		trace_err(c, jpath, "cannot open '%s': %s", name, why);
		free(p);
		return NULL;
	}
	return p;
}

bool trace_file_check(trace_ctx *c, const char *name, const char *jpath)
{
	char *p = trace_resolve(c, name, jpath);
	free(p);
	return p != NULL;
}

uint8_t *trace_read_side_file(trace_ctx *c, const char *name, const char *jpath, size_t *len)
{
	char *full = trace_resolve(c, name, jpath);
	if (!full)
		return NULL;
	ulp_diag inner;
	ulp_diag_clear(&inner);
	uint8_t *bytes = (uint8_t *)ulp_read_file(full, len, &inner);
	free(full);
	if (!bytes)
		trace_err(c, jpath, "cannot read '%s'", name);
	return bytes;
}

bool trace_parse_side_file_cap(const char *s, uint64_t *bytes)
{
	if (!s || s[0] < '0' || s[0] > '9')
		return false;
	char *end;
	errno = 0;
	unsigned long long n = strtoull(s, &end, 10);
	unsigned shift = 0;
	if (*end == 'K' || *end == 'k')
		shift = 10;
	else if (*end == 'M' || *end == 'm')
		shift = 20;
	else if (*end == 'G' || *end == 'g')
		shift = 30;
	if (shift)
		end++;
	if (errno || *end || n == 0 || n > (TRACE_MAX_SIDE_FILE_CAP >> shift))
		return false;
	*bytes = (uint64_t)n << shift;
	return true;
}

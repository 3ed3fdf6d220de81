/* Shared by the trace harnesses: side files ("file", "png", "tgsi_file")
 * resolve in FUZZ_TRACE_DIR (default traces/samples, run from the tree's
 * top; fuzz/run.sh sets a folder with the samples' and the bundled
 * captures' side files, so that capture frames load).  An input that could
 * name a path with '/' or '\\' is skipped (fuzz_trace_skip): which paths a
 * trace may read is issue #13's side-file policy, not a parser property,
 * and a fuzzer must not read the host's files (docs/robustness.md). */
#ifndef ULP_FUZZ_TRACE_H
#define ULP_FUZZ_TRACE_H

#include <stdbool.h>

#include "fuzz/fuzz.h"
#include "traces/replay/replay.h"
#include "traces/trace.h"

static inline const char *fuzz_trace_dir(void)
{
	const char *dir = getenv("FUZZ_TRACE_DIR");
	return dir && *dir ? dir : "traces/samples";
}

/* Skipped: a '/' anywhere, or a backslash that starts anything but one of
 * the escapes \n \t \r \b \f \" (a "\/", "\\" or "\u002f" decodes to a path
 * character).  Inline TGSI text, as every captured frame has, is full of
 * "\n": refusing every backslash skipped the captures. */
static inline bool fuzz_trace_skip(const uint8_t *data, size_t size)
{
	if (memchr(data, '/', size))
		return true;
	for (size_t i = 0; i < size; i++) {
		if (data[i] != '\\')
			continue;
		if (i + 1 == size || !data[i + 1] || !strchr("ntrbf\"", data[i + 1]))
			return true;
		i++;                                 /* the escaped character is not a backslash */
	}
	return false;
}

/* The input parsed as a trace into *t (side files from fuzz_trace_dir()):
 * false when it is skipped or refused (t is then freed).  *json holds the
 * text the trace points into until the caller frees it. */
static inline bool fuzz_trace_parse(const uint8_t *data, size_t size, trace *t, char **json)
{
	*json = NULL;
	if (fuzz_trace_skip(data, size) || !(*json = fuzz_text(data, size)))
		return false;
	ulp_diag d;
	ulp_diag_clear(&d);
	if (trace_parse(t, *json, "fuzz.json", fuzz_trace_dir(), &d))
		return true;
	trace_free(t);
	return false;
}

/* The budget of every harness that replays: a short watchdog and at most
 * 200,000 cycles (--max-cycles), so each input stays fast. */
static inline void fuzz_replay_setup(ulp_config *cfg, replay_opts *o)
{
	ulp_config_defaults(cfg);
	cfg->watchdog_cycles = 20000;
	memset(o, 0, sizeof *o);
	o->cfg = cfg;
	o->max_cycles = 200000;
}

#endif

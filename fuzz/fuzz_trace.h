/* Shared by the trace harnesses: side files ("file", "png", "tgsi_file")
 * resolve in FUZZ_TRACE_DIR (default traces/samples, run from the tree's
 * top).  An input naming a path with '/' or '\' is skipped: which paths a
 * trace may read is issue #13's side-file policy, not a parser property,
 * and a fuzzer must not read the host's files (docs/robustness.md). */
#ifndef ULP_FUZZ_TRACE_H
#define ULP_FUZZ_TRACE_H

#include "fuzz/fuzz.h"

static inline const char *fuzz_trace_dir(void)
{
	const char *dir = getenv("FUZZ_TRACE_DIR");
	return dir && *dir ? dir : "traces/samples";
}

static inline bool fuzz_trace_skip(const uint8_t *data, size_t size)
{
	return memchr(data, '/', size) || memchr(data, '\\', size);
}

#endif

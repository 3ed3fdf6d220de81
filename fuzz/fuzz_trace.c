/* The trace loader: JSON, validation, and the side files it reads. */
#include <stdbool.h>
#include "fuzz/fuzz_trace.h"
#include "traces/trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (fuzz_trace_skip(data, size))
		return 0;
	char *json = fuzz_text(data, size);
	if (!json)
		return 0;
	trace t;
	ulp_diag d;
	ulp_diag_clear(&d);
	trace_parse(&t, json, "fuzz.json", fuzz_trace_dir(), &d);
	trace_free(&t);
	free(json);
	return 0;
}

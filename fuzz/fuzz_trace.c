/* The trace loader: JSON, validation, and the side files it reads. */
#include "fuzz/fuzz_trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	trace t;
	char *json;
	if (fuzz_trace_parse(data, size, &t, &json))
		trace_free(&t);
	free(json);
	return 0;
}

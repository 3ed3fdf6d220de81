/* libFuzzer harnesses (docs/robustness.md): one per input ulpsim reads.
 * Each file defines LLVMFuzzerTestOneInput; `make fuzz` builds them with
 * clang, -fsanitize=fuzzer,address,undefined,float-cast-overflow.  A harness
 * only feeds bytes to the library: every finding is the library's. */
#ifndef ULP_FUZZ_H
#define ULP_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A NUL-terminated copy of the input (NULL when out of memory). */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	if (s) {
		memcpy(s, data, size);
		s[size] = '\0';
	}
	return s;
}

#endif

/* SHBIN (picasso's binary): the reader, then the writer on what it read. */
#include "fuzz/fuzz.h"
#include "isa/pica/shbin.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct shbin s;
	ulp_diag d;
	ulp_diag_clear(&d);
	memset(&s, 0, sizeof s);
	if (shbin_read(data, size, "fuzz.shbin", &s, &d)) {
		uint8_t *buf = NULL;
		size_t len = 0;
		if (shbin_write(&s, &buf, &len, &d))
			free(buf);
	}
	shbin_free(&s);
	return 0;
}

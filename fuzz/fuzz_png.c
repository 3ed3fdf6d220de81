/* PNG loading (libpng through base/image.c). */
#include "fuzz/fuzz.h"
#include "base/image.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	ulp_image_free(ulp_image_decode_png(data, size, "fuzz.png", &d));
	return 0;
}

/* The Gallium driver's shader and state entry points without Mesa: TGSI
 * text added as create_vs/create_fs add it, then a stream of state and
 * draw calls turned into session commands by the driver's translation
 * (fuzz/fuzz_gl.h, traces/gl/gl_state.h). */
#include "fuzz/fuzz_gl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	fuzz_gl_feed(data, size, &d);
	return 0;
}

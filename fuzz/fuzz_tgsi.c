/* TGSI text: the parser, the printer and the control-flow matcher. */
#include "fuzz/fuzz.h"
#include "frontends/tgsi/tgsi.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	tgsi_shader *sh = tgsi_parse((const char *)data, size, "fuzz.tgsi", NULL, &d);
	if (!sh)
		return 0;
	size_t n;
	free(tgsi_dump_str(sh, TGSI_DUMP_FLOATS_AS_WRITTEN, &n));
	free(tgsi_dump_str(sh, TGSI_DUMP_FLOATS_HEX, &n));
	tgsi_cf_resolve(sh, "fuzz.tgsi", &d);
	tgsi_shader_free(sh);
	return 0;
}

/* TGSI -> PICA200 on whatever parses (VERT and GEOM shaders). */
#include "fuzz/fuzz.h"
#include "frontends/pica/pica_compile.h"
#include "frontends/tgsi/tgsi.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	tgsi_shader *sh = tgsi_parse((const char *)data, size, "fuzz.tgsi", NULL, &d);
	if (!sh)
		return 0;
	if (sh->processor == TGSI_PROCESSOR_VERTEX || sh->processor == TGSI_PROCESSOR_GEOMETRY) {
		pica_compile_result res;
		pica_compile(sh, "fuzz.tgsi", NULL, &res);
		pica_compile_result_free(&res);
	}
	tgsi_shader_free(sh);
	return 0;
}

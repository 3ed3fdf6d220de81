/* The picasso-syntax PICA200 assembler (one source file). */
#include "fuzz/fuzz.h"
#include "isa/pica/pica_asm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pica_asm_file f = { "fuzz.v.pica", (const char *)data, size };
	struct shbin s;
	ulp_diag d;
	ulp_diag_clear(&d);
	memset(&s, 0, sizeof s);
	struct pica_asm_opts o = { .no_nop = size > 0 && (data[0] & 1) };
	if (pica_assemble(&f, 1, &o, &s, &d))
		shbin_free(&s);
	return 0;
}

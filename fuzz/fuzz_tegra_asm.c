/* The grate-syntax Tegra fragment-program assembler. */
#include "fuzz/fuzz.h"
#include "isa/tegra/tegra_asm.h"
#include "isa/tegra/fp_words.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	tegra_fp_program *p = malloc(sizeof *p);
	if (!p)
		return 0;
	ulp_diag d;
	ulp_diag_clear(&d);
	if (tegra_asm_assemble((const char *)data, size, "fuzz.asm", p, &d))
		free(tegra_fp_words_write(p, "fuzz.asm"));   /* what it assembled prints */
	free(p);
	return 0;
}

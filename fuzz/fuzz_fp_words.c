/* The words reader ("# tegra-fp-words v1"). */
#include "fuzz/fuzz.h"
#include "isa/tegra/fp_words.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	tegra_fp_program *p = malloc(sizeof *p);
	if (!p)
		return 0;
	ulp_diag d;
	ulp_diag_clear(&d);
	tegra_fp_words_read((const char *)data, size, "fuzz.words", p, &d);
	free(p);
	return 0;
}

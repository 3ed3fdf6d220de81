/* The .fp binary container (and the words/container sniffing loader). */
#include "fuzz/fuzz.h"
#include "isa/tegra/fp_container.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	tegra_fp_program *p = malloc(sizeof *p);
	if (!p)
		return 0;
	ulp_diag d;
	ulp_diag_clear(&d);
	if (tegra_fp_container_read(data, size, "fuzz.fp", p, &d)) {
		size_t len;
		free(tegra_fp_container_write(p, &len));
	}
	ulp_diag_clear(&d);
	tegra_fp_load_buffer(data, size, "fuzz.fp", p, &d);
	free(p);
	return 0;
}

/* ulpsim replay --merge: shard reports read, checked and merged, the merge
 * printed and written, and what is written read back (fuzz/fuzz_report.h). */
#include "fuzz/fuzz_report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	if (fuzz_report_feed(data, size, &d) < 0)
		abort();                               /* the writer and the reader disagree */
	return 0;
}

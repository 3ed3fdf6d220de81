/* A whole replay of whatever trace loads, with a small cycle budget
 * (--max-cycles) and a short watchdog, so that each input stays fast. */
#include "fuzz/fuzz_trace.h"
#include "base/image.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	trace t;
	char *json;
	if (fuzz_trace_parse(data, size, &t, &json)) {
		ulp_config cfg;
		replay_opts o;
		fuzz_replay_setup(&cfg, &o);
		o.keep_image = true;
		replay_result res;
		memset(&res, 0, sizeof res);
		ulp_diag d;
		ulp_diag_clear(&d);
		replay_run(&t, &o, &res, &d);
		ulp_image_free(res.image);
		free(res.depth);
		trace_free(&t);
	}
	free(json);
	return 0;
}

/* A whole replay of whatever trace loads, with a small cycle budget
 * (--max-cycles) and a short watchdog, so that each input stays fast. */
#include <stdbool.h>
#include "fuzz/fuzz_trace.h"
#include "base/image.h"
#include "traces/replay/replay.h"
#include "traces/trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (fuzz_trace_skip(data, size))
		return 0;
	char *json = fuzz_text(data, size);
	if (!json)
		return 0;
	trace t;
	ulp_diag d;
	ulp_diag_clear(&d);
	if (trace_parse(&t, json, "fuzz.json", fuzz_trace_dir(), &d)) {
		ulp_config cfg;
		ulp_config_defaults(&cfg);
		cfg.watchdog_cycles = 20000;
		replay_opts o;
		memset(&o, 0, sizeof o);
		o.cfg = &cfg;
		o.max_cycles = 200000;
		o.keep_image = true;
		replay_result res;
		memset(&res, 0, sizeof res);
		replay_run(&t, &o, &res, &d);
		ulp_image_free(res.image);
		free(res.depth);
	}
	trace_free(&t);
	free(json);
	return 0;
}

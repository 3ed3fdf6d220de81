/* The driver's way into the simulator: what frontends/gallium does with a
 * streaming session (traces/replay/session.h), without Mesa.  A trace that
 * loads is fed as the driver feeds it: a lazy unit list, every resource
 * and shader added by id, each TGSI shader checked as at link time, then
 * the commands one at a time, each validated as a driver's command is.
 * Between commands the input's own bytes decide whether a resource or a
 * shader is removed (and added back, or not: a command naming it must then
 * fail cleanly), as a driver does when the program deletes an object. */
#include "fuzz/fuzz_trace.h"
#include "base/image.h"
#include "traces/replay/session.h"

/* What happens before command i: taken from the input's bytes, so the
 * fuzzer steers it. */
static unsigned schedule(const uint8_t *data, size_t size, size_t i)
{
	return size ? data[(i * 7919u) % size] : 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	trace t;
	char *json;
	if (!fuzz_trace_parse(data, size, &t, &json)) {
		free(json);
		return 0;
	}
	ulp_config cfg;
	replay_opts o;
	fuzz_replay_setup(&cfg, &o);
	replay_result res;
	memset(&res, 0, sizeof res);
	ulp_diag d;
	ulp_diag_clear(&d);
	replay_session_units u = { .lazy = true };
	replay_session *s = replay_session_open(&o, &u, "gl", t.dir, &res, &d);
	if (!s)
		goto out;
	bool ok = true;
	for (size_t k = 0; ok && k < t.nres; k++)
		ok = replay_session_resource(s, &t.res[k], &d);
	for (size_t k = 0; ok && k < t.nsh; k++) {
		ok = replay_session_shader(s, &t.sh[k], &d);
		if (ok && t.sh[k].code == TRACE_TGSI)
			replay_session_check_shader(s, t.sh[k].id, &d);   /* a refusal is an answer */
	}
	for (size_t i = 0; ok && i < t.ncmd; i++) {
		const unsigned op = schedule(data, size, i);
		if ((op & 0xF0) == 0xA0 && t.nres) {
			const trace_resource *r = &t.res[op % t.nres];
			replay_session_remove_resource(s, r->id);
			if (op & 1)
				replay_session_resource(s, r, &d);
		} else if ((op & 0xF0) == 0xB0 && t.nsh) {
			const trace_shader *sh = &t.sh[op % t.nsh];
			replay_session_remove_shader(s, sh->id);
			if (op & 1)
				replay_session_shader(s, sh, &d);
		}
		ulp_diag_clear(&d);
		/* an error is an answer; the session stays usable (session.h), but
		 * a run past its cycle budget ends, as the driver's would */
		if (!replay_session_command(s, t.cmd[i], &d) && res.cycles >= o.max_cycles)
			break;
	}
	if (ok)
		replay_session_finish(s, &d);
	ulp_image_free(res.image);
	free(res.depth);
	replay_session_close(s);
out:
	trace_free(&t);
	free(json);
	return 0;
}

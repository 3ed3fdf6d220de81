/* Setup's look after a dropped triangle (units/geom/geom_idle.h): without a
 * timeline it sleeps until its input's next triangle and owes the clock the
 * pass at now + 1 instead of ticking there to find its input empty; with a
 * timeline it ticks as before.  The replays of draws whose triangles are
 * culled (back faces), off the target or visible, in random order and
 * sizes, the last ones culled or all of them, with and without a timeline,
 * must give the same results: cycles (the run's end where the owed pass is
 * its last), every unit's stats, the ports' marks, the image; also under a
 * cycle budget that stops the draws, and on Tegra 3 (one and two host
 * threads); half the rounds with longer geometry latencies and deeper FIFOs
 * (triangles in flight in setup's input when it drops one). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/test_replay_pair.h"
#include "traces/trace.h"

static uint32_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return (uint32_t)(*s >> 11);
}

static float frand(uint64_t *s, float lo, float hi)
{
	return lo + (hi - lo) * (float)(rnd(s) % 100000u) / 100000.0f;
}

/* n triangles (a list) at 64x64, back faces culled: kind per triangle from
 * `mix` (0: random, 1: all culled, 2: the last eight culled). */
static char *make_trace(uint64_t *seed, unsigned n, unsigned mix)
{
	size_t cap = 8192 + (size_t)n * 3 * 8 * 16;
	char *s = malloc(cap), *p = s;
	cr_assert(s);
	p += sprintf(p, "{\"format\": \"ulpsim-trace\", \"version\": 1, \"name\": \"idle\", "
	                "\"resources\": {\"vb\": {\"type\": \"buffer\", \"f32\": [");
	for (unsigned t = 0; t < n; t++) {
		const unsigned kind = mix == 1 || (mix == 2 && t + 8 >= n) ? 0 : rnd(seed) % 4;
		const float cx = kind == 3 ? 3.0f : frand(seed, -0.9f, 0.9f), cy = frand(seed, -0.9f, 0.9f);
		const float r = rnd(seed) % 4 ? frand(seed, 0.01f, 0.1f) : frand(seed, 0.1f, 0.6f);
		/* kind 0: clockwise (a back face: culled); else counter-clockwise */
		const float x[3] = { cx - r, cx + r, cx }, y[3] = { cy - r, cy - r, cy + r };
		static const unsigned ccw[3] = { 0, 1, 2 }, cw[3] = { 0, 2, 1 };
		for (unsigned k = 0; k < 3; k++) {
			const unsigned i = kind == 0 ? cw[k] : ccw[k];
			p += sprintf(p, "%s%.7g, %.7g, %.7g, 1, %.3g, %.3g, 0.5, 1", t || k ? ", " : "", (double)x[i],
			             (double)y[i], (double)frand(seed, -0.5f, 0.5f), (double)frand(seed, 0, 1),
			             (double)frand(seed, 0, 1));
		}
	}
	p += sprintf(p, "]}}, \"shaders\": {"
	    "\"vs\": {\"stage\": \"vertex\", \"tgsi\": \"VERT\\nDCL IN[0]\\nDCL IN[1]\\n"
	    "DCL OUT[0], POSITION\\nDCL OUT[1], COLOR\\n"
	    "  0: MOV OUT[0], IN[0]\\n  1: MOV OUT[1], IN[1]\\n  2: END\\n\"},"
	    "\"fs\": {\"stage\": \"fragment\", \"tgsi\": \"FRAG\\nDCL IN[0], COLOR, COLOR\\n"
	    "DCL OUT[0], COLOR\\n  0: MOV OUT[0], IN[0]\\n  1: END\\n\"}}, \"commands\": ["
	    "{\"cmd\": \"framebuffer\", \"width\": 64, \"height\": 64, \"cbufs\": [{\"format\": \"RGBA8888\"}]},"
	    "{\"cmd\": \"viewport\", \"scale\": [32, 32, 0.5], \"translate\": [32, 32, 0.5]},"
	    "{\"cmd\": \"rasterizer\", \"cull\": \"back\"},"
	    "{\"cmd\": \"bind_shaders\", \"vs\": \"vs\", \"fs\": \"fs\"},"
	    "{\"cmd\": \"vertex_elements\", \"elements\": ["
	    "{\"buffer\": \"vb\", \"offset\": 0, \"stride\": 32, \"format\": \"R32G32B32A32_FLOAT\"},"
	    "{\"buffer\": \"vb\", \"offset\": 16, \"stride\": 32, \"format\": \"R32G32B32A32_FLOAT\"}]},"
	    "{\"cmd\": \"clear\", \"color\": [0, 0, 0, 1]},"
	    "{\"cmd\": \"draw\", \"mode\": \"triangles\", \"start\": 0, \"count\": %u},"
	    "{\"cmd\": \"draw\", \"mode\": \"triangles\", \"start\": 0, \"count\": %u},"
	    "{\"cmd\": \"checkpoint\", \"name\": \"f\"}]}", 3 * n, 3 * (n / 2));
	cr_assert_lt((size_t)(p - s), cap);
	return s;
}

Test(setup_idle, dropped_triangles_give_the_results_of_the_idle_tick, .timeout = 120)
{
	uint64_t seed = 0x1d1e7a5cu;
	unsigned rounds = 0;
	uint64_t culled = 0;
	for (unsigned setting = 0; setting < 3; setting++) {
		ulp_config c;
		test_gpu_setting(&c, setting);
		for (unsigned round = 0; round < 12; round++) {
			const unsigned n = 1 + rnd(&seed) % 60, mix = round % 3;
			/* half the rounds with a longer geometry latency and a deeper
			 * FIFO: triangles in flight in setup's input when it drops one */
			char knob[64];
			ulp_diag kd;
			snprintf(knob, sizeof knob, "gpu.latency.geometry=%u", round % 2 ? 2 + rnd(&seed) % 6 : 1);
			cr_assert(ulp_config_set(&c, knob, &kd), "%s", kd.msg);
			snprintf(knob, sizeof knob, "gpu.fifo_triangles=%u", round % 2 ? 2 + rnd(&seed) % 4 : 2);
			cr_assert(ulp_config_set(&c, knob, &kd), "%s", kd.msg);
			snprintf(knob, sizeof knob, "setup.cycles_per_triangle=%u", 1 + rnd(&seed) % 8);
			cr_assert(ulp_config_set(&c, knob, &kd), "%s", kd.msg);
			char *json = make_trace(&seed, n, mix);
			trace t;
			ulp_diag d;
			ulp_diag_clear(&d);
			const trace_load_opts lo = { .allow_paths = true };
			cr_assert(trace_parse_with(&t, json, "idle.trace.json", ".", &lo, &d), "%s", d.msg);
			/* no budget, then one that stops the replay in its draws */
			for (unsigned b = 0; b < 2; b++) {
				test_run off, on;
				test_replay_run(&t, &c, false, 0, &off);
				const uint64_t budget = b ? 1 + off.res.cycles * (1 + rnd(&seed) % 9) / 10 : 0;
				if (b) {
					test_run_free(&off);
					test_replay_run(&t, &c, false, budget, &off);
				}
				test_replay_run(&t, &c, true, budget, &on);
				char what[96];
				snprintf(what, sizeof what, "setting %u round %u (%u triangles, mix %u) budget %llu", setting, round,
				         n, mix, (unsigned long long)budget);
				cr_assert_eq(off.ok, on.ok, "%s: %s / %s", what, off.msg, on.msg);
				cr_assert_str_eq(off.msg, on.msg, "%s", what);
				if (off.ok) {
					test_results_same(&off.res, &on.res, what);
					for (unsigned k = 0; k < off.res.nunits; k++)
						if (!strcmp(off.res.unit[k].name, "setup"))
							culled += off.res.unit[k].stats.counter[1];   /* SETUP_CTR_CULLED */
				}
				test_run_free(&off);
				test_run_free(&on);
				rounds++;
			}
			trace_free(&t);
			free(json);
		}
	}
	cr_assert_eq(rounds, 72u);
	cr_assert_gt(culled, 500u, "culled triangles: %llu", (unsigned long long)culled);
}

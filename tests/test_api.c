/* The public interface (include/ulpsim/ulpsim.h). */
#include <criterion/criterion.h>
#include <string.h>

#include "ulpsim/ulpsim.h"

Test(api, replay_image_timeline_summary)
{
	char err[512] = "";
	ulpsim *s = ulpsim_open("traces/samples/triangle.json", NULL, 0, err, sizeof err);
	cr_assert(s, "%s", err);
	cr_assert_str_eq(ulpsim_trace_name(s), "triangle");
	cr_assert(ulpsim_run(s, 0, err, sizeof err), "%s", err);
	uint32_t w, h;
	const uint8_t *px = ulpsim_image(s, &w, &h);
	cr_assert(px && w == 64 && h == 64);
	cr_assert_eq(px[0], 26, "clear colour in the top-left corner");
	ulpsim_summary sum = ulpsim_get_summary(s);
	cr_assert_eq(sum.draws, 1);
	cr_assert_gt(sum.events, 100);
	cr_assert_eq(sum.events_dropped, 0);
	const ulpsim_event *ev = ulpsim_events(s);
	size_t n = ulpsim_event_count(s);
	bool saw_vsh = false, saw_alu = false;
	for (unsigned l = 0; l < ulpsim_lane_count(s); l++) {
		saw_vsh |= strcmp(ulpsim_lane_name(s, l), "vsh0") == 0;
		saw_alu |= strcmp(ulpsim_lane_name(s, l), "alu") == 0;
	}
	cr_assert(saw_vsh && saw_alu, "lanes of both sides");
	for (size_t i = 1; i < n; i++)
		cr_assert_geq(ev[i].cycle, ev[i - 1].cycle, "events in cycle order at %zu", i);
	cr_assert_leq(ev[n - 1].cycle, sum.cycles, "one cycle axis for the whole run");
	cr_assert_str_eq(ulpsim_activity_name(ULPSIM_ACT_BUSY), "busy");
	ulpsim_close(s);

	const char *bad[] = { "pica.units=9" };
	cr_assert_null(ulpsim_open("traces/samples/triangle.json", bad, 1, err, sizeof err));
	cr_assert(strstr(err, "pica.units"), "%s", err);
	cr_assert_null(ulpsim_open("/nonexistent.json", NULL, 0, err, sizeof err));
}

Test(api, event_cap_bounds_memory)
{
	char err[512] = "";
	ulpsim *s = ulpsim_open("traces/samples/triangle.json", NULL, 0, err, sizeof err);
	cr_assert(s, "%s", err);
	cr_assert(ulpsim_run(s, 50, err, sizeof err), "%s", err);
	ulpsim_summary sum = ulpsim_get_summary(s);
	cr_assert_eq(sum.events, 50);
	cr_assert_gt(sum.events_dropped, 0);
	ulpsim_close(s);
}

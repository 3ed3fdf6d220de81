/* The public interface (include/ulpsim/ulpsim.h). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
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

static int lane_of(const ulpsim *s, const char *name)
{
	for (unsigned l = 0; l < ulpsim_lane_count(s); l++)
		if (!strcmp(ulpsim_lane_name(s, l), name))
			return (int)l;
	return -1;
}

/* The frame at a cycle (ulpsim_image_at): the clear colour before the first
 * store, the final image at the end, and in between exactly the quads DW
 * had taken by then (one triangle: no pixel is written twice), computed here
 * from the rasterizer's positions and DW's BEGIN events. */
Test(api, image_at_rebuilds_the_frame_at_a_cycle)
{
	char err[512] = "";
	ulpsim *s = ulpsim_open("traces/samples/triangle.json", NULL, 0, err, sizeof err);
	cr_assert(s, "%s", err);
	uint8_t probe[4];
	cr_assert(!ulpsim_image_at(s, 0, probe, err, sizeof err), "no frame before a run");
	cr_assert(ulpsim_run(s, 0, err, sizeof err), "%s", err);
	uint32_t w, h;
	const uint8_t *fin = ulpsim_image(s, &w, &h);
	const size_t bytes = (size_t)w * h * 4;
	ulpsim_summary sum = ulpsim_get_summary(s);
	cr_assert_gt(sum.writes, 1000, "DW's colour writes were logged");
	cr_assert_eq(sum.writes_dropped, 0);
	uint8_t *at = malloc(bytes), *want = malloc(bytes);
	cr_assert(at && want);
	cr_assert(ulpsim_image_at(s, sum.cycles - 1, at, err, sizeof err), "%s", err);
	cr_assert(!memcmp(at, fin, bytes), "the frame at the last cycle is the final image");
	cr_assert(ulpsim_image_at(s, 0, at, err, sizeof err), "%s", err);
	for (size_t p = 0; p < (size_t)w * h; p++)
		cr_assert(!memcmp(at + 4 * p, fin, 4), "cycle 0: the clear colour everywhere (pixel %zu)", p);
	/* DW's first and last store; the cycle halfway */
	const ulpsim_event *ev = ulpsim_events(s);
	const size_t n = ulpsim_event_count(s);
	const int raster = lane_of(s, "raster"), dw = lane_of(s, "dw");
	cr_assert(raster >= 0 && dw >= 0);
	uint64_t first = UINT64_MAX, last = 0;
	for (size_t i = 0; i < n; i++)
		if (ev[i].lane == dw && ev[i].kind == ULPSIM_EV_BEGIN) {
			first = first < ev[i].cycle ? first : ev[i].cycle;
			last = ev[i].cycle;
		}
	const uint64_t mid = first + (last - first) / 2;
	for (size_t p = 0; p < (size_t)w * h; p++)
		memcpy(want + 4 * p, fin, 4);
	unsigned written = 0;
	for (size_t i = 0; i < n; i++) {
		if (ev[i].lane != raster || ev[i].kind != ULPSIM_EV_INSTANT)
			continue;
		uint64_t store = UINT64_MAX;
		for (size_t k = 0; k < n && store == UINT64_MAX; k++)
			if (ev[k].lane == dw && ev[k].kind == ULPSIM_EV_BEGIN && ev[k].id == ev[i].id)
				store = ev[k].cycle;
		if (store > mid)
			continue;
		written++;
		const uint32_t qx = ev[i].arg & 0xFFFFu, qy = ev[i].arg >> 16;
		for (uint32_t k = 0; k < 4; k++) {
			uint32_t x = qx + (k & 1), wy = qy + (k >> 1);
			if (x < w && wy < h) {
				size_t o = 4 * ((size_t)(h - 1 - wy) * w + x);
				memcpy(want + o, fin + o, 4);
			}
		}
	}
	cr_assert_gt(written, 10, "some quads stored by the middle cycle");
	cr_assert(ulpsim_image_at(s, mid, at, err, sizeof err), "%s", err);
	cr_assert(!memcmp(at, want, bytes), "the frame at cycle %llu is the partial frame",
	          (unsigned long long)mid);
	cr_assert(memcmp(at, fin, bytes) != 0, "and differs from the final one");
	/* a cap on the log: early cycles still rebuild, later ones are refused, the end is final */
	ulpsim_set_max_writes(s, 3000);
	cr_assert(ulpsim_run(s, 0, err, sizeof err), "%s", err);
	sum = ulpsim_get_summary(s);
	cr_assert_gt(sum.writes_dropped, 0, "the cap was hit");
	cr_assert(sum.writes_cut_cycle > first && sum.writes_cut_cycle < last);
	cr_assert(ulpsim_image_at(s, first, at, err, sizeof err), "%s", err);
	cr_assert(!ulpsim_image_at(s, sum.writes_cut_cycle, at, err, sizeof err));
	cr_assert(strstr(err, "stops at cycle"), "%s", err);
	cr_assert(ulpsim_image_at(s, sum.cycles - 1, at, err, sizeof err), "%s", err);
	cr_assert(!memcmp(at, ulpsim_image(s, &w, &h), bytes));
	free(at);
	free(want);
	ulpsim_close(s);
}

/* Kill events: a discarding program's ALU kills are INSTANTs on the alu
 * lane (arg = EXEC | pixel mask << 8), for the corners outside the circle. */
Test(api, kill_events_on_the_alu_lane)
{
	char err[512] = "";
	ulpsim *s = ulpsim_open("traces/samples/discard.json", NULL, 0, err, sizeof err);
	cr_assert(s, "%s", err);
	cr_assert(ulpsim_run(s, 0, err, sizeof err), "%s", err);
	const int alu = lane_of(s, "alu");
	cr_assert(alu >= 0);
	const ulpsim_event *ev = ulpsim_events(s);
	unsigned kills = 0, pixels = 0;
	for (size_t i = 0; i < ulpsim_event_count(s); i++)
		if (ev[i].lane == alu && ev[i].kind == ULPSIM_EV_INSTANT) {
			unsigned mask = ev[i].arg >> 8;
			cr_assert(mask && mask < 16, "a pixel mask: 0x%x", ev[i].arg);
			kills++;
			pixels += (unsigned)__builtin_popcount(mask);
		}
	cr_assert_gt(kills, 20, "quads with killed pixels");
	/* the corners outside the circle of radius 1 in a 0.9-wide quad: about
	 * (0.81 - pi / 4 * 0.81...) of 57x57 pixels; at least a few hundred */
	cr_assert_gt(pixels, 200);
	ulpsim_close(s);
}

/* Two draws blending over each other, on Tegra 3's two GR3D blocks: the
 * frame rebuilt at the last cycle is still the final image, and at the
 * second draw's start it differs from both the clear and the end. */
Test(api, image_at_two_draws_two_blocks)
{
	char err[512] = "";
	const char *set[] = { "preset=tegra3" };
	ulpsim *s = ulpsim_open("traces/samples/alpha_blend.json", set, 1, err, sizeof err);
	cr_assert(s, "%s", err);
	cr_assert(ulpsim_run(s, 0, err, sizeof err), "%s", err);
	uint32_t w, h;
	const uint8_t *fin = ulpsim_image(s, &w, &h);
	const size_t bytes = (size_t)w * h * 4;
	ulpsim_summary sum = ulpsim_get_summary(s);
	cr_assert_eq(ulpsim_draw_count(s), 2);
	uint64_t from, to;
	cr_assert(ulpsim_draw_range(s, 1, &from, &to));
	uint8_t *a = malloc(bytes), *b = malloc(bytes);
	cr_assert(a && b);
	cr_assert(ulpsim_image_at(s, sum.cycles - 1, a, err, sizeof err), "%s", err);
	cr_assert(!memcmp(a, fin, bytes), "the last cycle: the final image");
	cr_assert(ulpsim_image_at(s, from, a, err, sizeof err), "%s", err);
	cr_assert(ulpsim_image_at(s, 0, b, err, sizeof err), "%s", err);
	cr_assert(memcmp(a, fin, bytes) != 0 && memcmp(a, b, bytes) != 0,
	          "after the first draw: neither the clear nor the end");
	free(a);
	free(b);
	ulpsim_close(s);
}

/* Issue #14's drift: the viewer showed a program compiled again without the
 * draw's blend state.  The second draw of alpha_blend blends, so the program
 * that ran (the blend compiled into it) differs from the first draw's. */
Test(api, fragment_grate_is_the_program_that_ran)
{
	char err[512] = "";
	ulpsim *s = ulpsim_open("traces/samples/alpha_blend.json", NULL, 0, err, sizeof err);
	cr_assert(s, "%s", err);
	cr_assert_null(ulpsim_fragment_grate(s, 0, err, sizeof err), "before the run there is no program");
	cr_assert(ulpsim_run(s, 0, err, sizeof err), "%s", err);
	char *plain = ulpsim_fragment_grate(s, 0, err, sizeof err);
	char *blended = ulpsim_fragment_grate(s, 1, err, sizeof err);
	cr_assert(plain && blended, "%s", err);
	cr_assert_str_neq(plain, blended, "the blended draw runs another program");
	cr_assert_gt(strlen(blended), strlen(plain), "the blend adds instructions");
	cr_assert_null(ulpsim_fragment_grate(s, 2, err, sizeof err), "two draws");
	free(plain);
	free(blended);
	ulpsim_close(s);
}

/* Issue #13 defect 1 through the public API: the trace's "gpu" picks the
 * preset, a setting wins. */
Test(api, trace_gpu_preset)
{
	char err[512] = "";
	ulpsim *s = ulpsim_open("traces/samples/triangle.json", NULL, 0, err, sizeof err);
	cr_assert(s, "%s", err);
	cr_assert(ulpsim_run(s, 0, err, sizeof err), "%s", err);
	cr_assert_eq(ulpsim_get_summary(s).gr3d_clock_mhz, 300);
	ulpsim_close(s);
	FILE *f = fopen("traces/samples/triangle.json", "r");
	cr_assert(f);
	char json[4096];
	size_t n = fread(json, 1, sizeof json - 1, f);
	fclose(f);
	json[n] = 0;
	char *g = strstr(json, "\"tegra2\"");
	cr_assert(g);
	memcpy(g, "\"tegra3\"", 8);
	/* the side files are named relative to the trace: write it beside them */
	const char *path = "traces/samples/.test_api_t3.json";
	f = fopen(path, "w");
	cr_assert(f);
	fputs(json, f);
	fclose(f);
	s = ulpsim_open(path, NULL, 0, err, sizeof err);
	cr_assert(s, "%s", err);
	cr_assert(ulpsim_run(s, 0, err, sizeof err), "%s", err);
	cr_assert_eq(ulpsim_get_summary(s).gr3d_clock_mhz, 416, "tegra3");
	ulpsim_close(s);
	const char *set[] = { "preset=tegra2" };
	s = ulpsim_open(path, set, 1, err, sizeof err);
	cr_assert(s, "%s", err);
	cr_assert(ulpsim_run(s, 0, err, sizeof err), "%s", err);
	cr_assert_eq(ulpsim_get_summary(s).gr3d_clock_mhz, 300, "the setting wins");
	ulpsim_close(s);
	remove(path);
}

/* Issue #13 finding 6 through the public API (the viewer's --allow-paths):
 * a side file outside the trace's folder only with allow_paths. */
Test(api, side_files_outside_need_allow_paths)
{
	const char *path = "traces/samples/.test_api_outside.json";
	FILE *f = fopen(path, "w");
	cr_assert(f);
	fputs("{\"format\": \"ulpsim-trace\", \"version\": 1, \"shaders\": {\"vs\": {\"stage\": \"vertex\", "
	      "\"tgsi_file\": \"../samples/triangle.vs.tgsi\"}}, \"commands\": []}", f);
	fclose(f);
	char err[512] = "";
	ulpsim *s = ulpsim_open(path, NULL, 0, err, sizeof err);
	cr_assert_null(s);
	cr_assert(strstr(err, "$.shaders.vs.tgsi_file") && strstr(err, "'..'"), "%s", err);
	const ulpsim_open_opts oo = { .allow_paths = true };
	s = ulpsim_open_with(path, NULL, 0, &oo, err, sizeof err);
	cr_assert(s, "%s", err);
	ulpsim_close(s);
	remove(path);
}

/* Issue #13 defect 13: the ports' high-water marks through the API. */
Test(api, port_high_water_marks)
{
	char err[512] = "";
	ulpsim *s = ulpsim_open("traces/samples/triangle.json", NULL, 0, err, sizeof err);
	cr_assert(s, "%s", err);
	cr_assert_eq(ulpsim_port_count(s), 0, "before the run");
	cr_assert(ulpsim_run(s, 0, err, sizeof err), "%s", err);
	bool saw = false;
	for (unsigned k = 0; k < ulpsim_port_count(s); k++) {
		const char *name;
		uint32_t cap, max;
		cr_assert(ulpsim_port_mark(s, k, &name, &cap, &max));
		cr_assert_leq(max, cap, "%s", name);
		if (!strcmp(name, "raster->pseq")) {
			saw = true;
			cr_assert_geq(max, 1, "quads went through");
		}
	}
	cr_assert(saw, "the raster->pseq port");
	const char *name;
	uint32_t cap, max;
	cr_assert_not(ulpsim_port_mark(s, ulpsim_port_count(s), &name, &cap, &max));
	ulpsim_close(s);
}

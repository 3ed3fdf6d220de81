/* The public interface (include/ulpsim/ulpsim.h) over trace replay. */
#include "ulpsim/ulpsim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/image.h"
#include "sim/config.h"
#include "sim/replay.h"
#include "sim/tl_store.h"
#include "sim/unit.h"

_Static_assert((int)ULPSIM_EV_ACTIVITY == (int)SIM_TL_ACTIVITY && (int)ULPSIM_EV_END == (int)SIM_TL_END,
               "event kinds");
_Static_assert((int)ULPSIM_ACT_STALL == (int)SIM_ACT_STALL, "activity codes");

struct ulpsim {
	trace t;
	ulp_config cfg;
	ulp_image *image;
	ulpsim_event *ev;
	size_t nev;
	char lane[SIM_TL_MAX_LANES][32];
	unsigned nlanes;
	ulpsim_summary sum;
};

static void set_err(char *err, size_t n, const ulp_diag *d)
{
	if (err && n)
		ulp_diag_format(d, err, n);
}

ulpsim *ulpsim_open(const char *trace_path, const char *const *settings, size_t nsettings,
                    char *err, size_t errlen)
{
	ulpsim *s = calloc(1, sizeof *s);
	ulp_diag d;
	ulp_diag_clear(&d);
	if (!s) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	ulp_config_defaults(&s->cfg);
	bool ok = true;
	for (size_t i = 0; ok && i < nsettings; i++)
		ok = ulp_config_set(&s->cfg, settings[i], &d);
	if (ok)
		ok = trace_load(&s->t, trace_path, &d);
	if (!ok) {
		set_err(err, errlen, &d);
		trace_free(&s->t);
		free(s);
		return NULL;
	}
	return s;
}

bool ulpsim_run(ulpsim *s, size_t max_events, char *err, size_t errlen)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	sim_timeline tl;
	sim_tl_store store;
	if (!sim_tl_init(&tl)) {
		snprintf(err, errlen, "out of memory");
		return false;
	}
	sim_tl_store_init(&store, max_events ? max_events : 4u << 20);
	sim_tl_add_sink(&tl, sim_tl_store_sink(&store));
	tl.enabled = true;
	replay_opts o = { .cfg = &s->cfg, .tl = &tl, .keep_image = true };
	replay_result res;
	bool ok = replay_run(&s->t, &o, &res, &d);
	sim_tl_flush(&tl);
	for (unsigned i = 0; i < tl.nlanes && i < SIM_TL_MAX_LANES; i++)
		snprintf(s->lane[i], sizeof s->lane[i], "%s", tl.lane_name[i]);
	s->nlanes = tl.nlanes;
	sim_tl_fini(&tl);
	free(s->ev);
	s->ev = malloc((store.n ? store.n : 1) * sizeof *s->ev);
	s->nev = s->ev ? store.n : 0;
	for (size_t i = 0; i < s->nev; i++)
		s->ev[i] = (ulpsim_event){ store.ev[i].cycle, store.ev[i].id, store.ev[i].arg,
		                           store.ev[i].lane, store.ev[i].kind };
	ulp_image_free(s->image);
	s->image = ok ? res.image : NULL;
	s->sum = (ulpsim_summary){
		.cycles = res.cycles, .vertex_cycles = res.vertex_cycles,
		.fragment_cycles = res.fragment_cycles, .draws = res.draws, .vertices = res.vertices,
		.triangles = res.triangles, .fragments = res.fragments, .checkpoints = res.checkpoints,
		.checks_failed = res.checks_failed, .events = store.n, .events_dropped = store.dropped,
		.gr3d_clock_mhz = (unsigned)s->cfg.gr3d_clock_mhz,
	};
	sim_tl_store_free(&store);
	if (!ok)
		set_err(err, errlen, &d);
	return ok;
}

const uint8_t *ulpsim_image(const ulpsim *s, uint32_t *width, uint32_t *height)
{
	if (!s->image)
		return NULL;
	*width = s->image->width;
	*height = s->image->height;
	return s->image->rgba;
}

unsigned ulpsim_lane_count(const ulpsim *s) { return s->nlanes; }
const char *ulpsim_lane_name(const ulpsim *s, unsigned lane) { return lane < s->nlanes ? s->lane[lane] : "?"; }
size_t ulpsim_event_count(const ulpsim *s) { return s->nev; }
const ulpsim_event *ulpsim_events(const ulpsim *s) { return s->ev; }
const char *ulpsim_activity_name(uint8_t activity) { return sim_activity_name(activity); }
ulpsim_summary ulpsim_get_summary(const ulpsim *s) { return s->sum; }
const char *ulpsim_trace_name(const ulpsim *s) { return s->t.name; }

void ulpsim_close(ulpsim *s)
{
	if (!s)
		return;
	trace_free(&s->t);
	ulp_image_free(s->image);
	free(s->ev);
	free(s);
}

bool ulpsim_write_png(const char *path, const uint8_t *rgba, uint32_t width, uint32_t height,
                      char *err, size_t errlen)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	ulp_image *img = ulp_image_create(width, height, &d);
	bool ok = img != NULL;
	if (ok) {
		memcpy(img->rgba, rgba, ulp_image_bytes(img));
		ok = ulp_image_save_png(img, path, &d);
	}
	ulp_image_free(img);
	if (!ok)
		set_err(err, errlen, &d);
	return ok;
}

#include "sim/core/timeline.h"

#include <stdlib.h>
#include <string.h>

bool sim_tl_init(sim_timeline *tl)
{
	memset(tl, 0, sizeof *tl);
	tl->to = UINT64_MAX;
	tl->buf = malloc(SIM_TL_CHUNK * sizeof *tl->buf);
	tl->cur = tl->buf;
	tl->end = tl->buf ? tl->buf + SIM_TL_CHUNK : NULL;
	return tl->buf != NULL;
}

void sim_tl_flush(sim_timeline *tl)
{
	const size_t n = sim_tl_pending(tl);
	for (unsigned i = 0; i < tl->nsinks && n; i++) {
		if (!tl->sinks[i].write(tl->sinks[i].ctx, tl->buf, n)) {
			tl->failed = true;
			tl->enabled = false;
		}
	}
	tl->recorded += n;
	tl->cur = tl->buf;
}

void sim_tl_fini(sim_timeline *tl)
{
	if (tl->buf)
		sim_tl_flush(tl);
	for (unsigned i = 0; i < tl->nsinks; i++)
		if (tl->sinks[i].close)
			tl->sinks[i].close(tl->sinks[i].ctx);
	tl->nsinks = 0;
	free(tl->buf);
	tl->buf = tl->cur = tl->end = NULL;
	tl->enabled = false;
}

bool sim_tl_add_sink(sim_timeline *tl, sim_tl_sink sink)
{
	if (tl->nsinks == SIM_TL_MAX_SINKS)
		return false;
	tl->sinks[tl->nsinks++] = sink;
	return true;
}

uint16_t sim_tl_lane(sim_timeline *tl, const char *name)
{
	for (unsigned i = 0; i < tl->nlanes; i++)
		if (strcmp(tl->lane_name[i], name) == 0)
			return (uint16_t)i;
	if (tl->nlanes == SIM_TL_MAX_LANES)
		return SIM_TL_MAX_LANES - 1;
	tl->lane_name[tl->nlanes] = name;
	return (uint16_t)tl->nlanes++;
}

#include "sim/core/tl_store.h"

#include <stdlib.h>
#include <string.h>

void sim_tl_store_init(sim_tl_store *s, size_t max_events)
{
	memset(s, 0, sizeof *s);
	s->max = max_events;
}

void sim_tl_store_free(sim_tl_store *s)
{
	free(s->ev);
	memset(s, 0, sizeof *s);
}

static bool store_write(void *ctx, const sim_tl_event *ev, size_t n)
{
	sim_tl_store *s = ctx;
	size_t room = s->max > s->n ? s->max - s->n : 0;
	size_t take = n < room ? n : room;
	s->dropped += n - take;
	if (!take)
		return true;
	if (s->n + take > s->cap) {
		size_t cap = s->cap ? s->cap : 4096;
		while (cap < s->n + take)
			cap *= 2;
		if (cap > s->max)
			cap = s->max;
		sim_tl_event *nev = realloc(s->ev, cap * sizeof *nev);
		if (!nev) {
			s->dropped += take;
			return true;
		}
		s->ev = nev;
		s->cap = cap;
	}
	memcpy(s->ev + s->n, ev, take * sizeof *ev);
	s->n += take;
	return true;
}

sim_tl_sink sim_tl_store_sink(sim_tl_store *s)
{
	return (sim_tl_sink){ .ctx = s, .write = store_write, .close = NULL };
}

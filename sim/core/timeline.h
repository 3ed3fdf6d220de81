/* Timeline events: what each unit did and when, for Perfetto/Chrome JSON,
 * VCD, Kanata and the viewer.  Recording is one predictable branch when off.
 * Events fill a fixed chunk; a full chunk is handed to the sinks (writers
 * stream to files, the viewer keeps a bounded store), so memory is bounded
 * by the chunk and the cycle window, not by the run's length. */
#ifndef ULP_SIM_TIMELINE_H
#define ULP_SIM_TIMELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

enum sim_tl_kind {
	SIM_TL_ACTIVITY = 0,  /* lane's activity changes to arg (SIM_ACT_*) */
	SIM_TL_BEGIN,         /* item id enters the lane (arg: pc / EXEC index) */
	SIM_TL_END,           /* item id leaves the lane */
	SIM_TL_INSTANT,       /* a point event (arg: pc, opcode...) */
};

typedef struct sim_tl_event {
	uint64_t cycle;
	uint32_t id;
	uint32_t arg;
	uint16_t lane;
	uint8_t kind;
	uint8_t pad;
} sim_tl_event;
_Static_assert(sizeof(sim_tl_event) == 24 && offsetof(sim_tl_event, arg) == offsetof(sim_tl_event, id) + 4 &&
                   offsetof(sim_tl_event, lane) + 8 == sizeof(sim_tl_event) &&
                   offsetof(sim_tl_event, kind) == offsetof(sim_tl_event, lane) + 2,
               "sim_tl_emit's three stores");

typedef struct sim_tl_sink {
	void *ctx;
	/* Returns false on an I/O error (recording then stops). */
	bool (*write)(void *ctx, const sim_tl_event *ev, size_t n);
	void (*close)(void *ctx);
} sim_tl_sink;

enum { SIM_TL_CHUNK = 4096, SIM_TL_MAX_SINKS = 4, SIM_TL_MAX_LANES = 64 };

typedef struct sim_timeline {
	bool enabled;
	bool failed;
	uint64_t from, to;                 /* record cycles in [from, to) */
	uint64_t base;                     /* added to every cycle: where this clock starts in the run */
	sim_tl_event *buf;                 /* SIM_TL_CHUNK events */
	sim_tl_event *cur, *end;           /* the next event's place in buf; buf + SIM_TL_CHUNK */
	sim_tl_sink sinks[SIM_TL_MAX_SINKS];
	unsigned nsinks;
	uint64_t recorded;
	const char *lane_name[SIM_TL_MAX_LANES];
	unsigned nlanes;
} sim_timeline;

bool sim_tl_init(sim_timeline *tl);
void sim_tl_fini(sim_timeline *tl);   /* flushes, closes the sinks */
bool sim_tl_add_sink(sim_timeline *tl, sim_tl_sink sink);
/* Register a lane name; returns its id (lanes past the maximum share the last). */
uint16_t sim_tl_lane(sim_timeline *tl, const char *name);
void sim_tl_flush(sim_timeline *tl);
/* The events in the chunk, not yet handed to the sinks. */
static inline size_t sim_tl_pending(const sim_timeline *tl) { return (size_t)(tl->cur - tl->buf); }

static inline void sim_tl_emit(sim_timeline *tl, uint64_t cycle, uint16_t lane,
                               enum sim_tl_kind kind, uint32_t id, uint32_t arg)
{
	if (!tl || !tl->enabled)
		return;
	cycle += tl->base;
	if (cycle < tl->from || cycle >= tl->to)
		return;
	sim_tl_event *e = tl->cur;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/* three 8-byte stores: the cycle, id and arg, lane, kind and pad (0)
	 * and the tail padding (0, as the initializer below leaves it) */
	const uint64_t ia = (uint64_t)id | (uint64_t)arg << 32;
	const uint64_t lk = (uint64_t)lane | (uint64_t)kind << 16;
	e->cycle = cycle;
	memcpy((char *)e + offsetof(sim_tl_event, id), &ia, sizeof ia);
	memcpy((char *)e + offsetof(sim_tl_event, lane), &lk, sizeof lk);
#else
	*e = (sim_tl_event){ .cycle = cycle, .id = id, .arg = arg, .lane = lane, .kind = (uint8_t)kind };
#endif
	tl->cur = ++e;
	if (e == tl->end)
		sim_tl_flush(tl);
}

#endif

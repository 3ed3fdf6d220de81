/* A port between two units: a FIFO with a capacity and a latency.
 *
 *   producer --push(t)--> [ slot | slot | ... capacity ] --peek(t')--> consumer
 *                          visible when t' >= t + latency
 *
 * Items are fixed-size records copied into the ring, so a hot loop never
 * allocates.  A push wakes the consumer unit at the cycle the item becomes
 * visible.  A full port makes the producer stall (SIM_STALL_OUTPUT_FULL); a
 * pop wakes the producer, when the wiring names one that waits for room
 * (sim_unit_stall_wait), in the cycle of the pop.  So units talk only
 * through their ports: none holds a pointer to a neighbour.
 *
 * A pop can be dated a cycle ahead (sim_port_pop_at): the consumer takes
 * the head item at once, its slot stays held until the pop's cycle, as a
 * pop in a tick at that cycle would leave it.  A port with a dated pop is
 * checked for room with sim_port_full_at and pushed into with
 * sim_port_push_held.
 *
 * The ring has a power-of-two number of slots (at least capacity), so an
 * index wraps with a mask; the port is full at capacity items all the same. */
#ifndef ULP_SIM_PORT_H
#define ULP_SIM_PORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "sim/core/unit.h"

typedef struct sim_port {
	const char *name;
	uint8_t *slots;          /* (mask + 1) * item_size bytes */
	uint64_t *ready;         /* cycle at which each slot's item is visible */
	uint32_t item_size, capacity, latency;
	uint32_t mask;           /* slots in the ring - 1 */
	uint32_t head, count;     /* count: the items not popped (the consumer's) */
	/* A dated pop's cycle (sim_port_pop_at): its slot, just before head, is
	 * held in cycles < pop_due; 0 (or any cycle gone by) when none is. */
	uint64_t pop_due;
	sim_unit *consumer;      /* woken on push; may be NULL */
	sim_unit *producer;      /* woken on pop; may be NULL (a producer that polls) */
	uint32_t max_count;      /* the most items it held (statistics) */
} sim_port;

/* The slots of a ring that holds n items: the least power of two >= n
 * (0 when none fits a uint32_t). */
static inline uint32_t sim_ring_size(uint32_t n)
{
	uint32_t ring = 1;
	while (ring < n) {
		if (ring > UINT32_MAX / 2)
			return 0;
		ring *= 2;
	}
	return ring;
}

bool sim_port_init(sim_port *p, const char *name, size_t item_size, uint32_t capacity,
                   uint32_t latency, sim_unit *consumer);
void sim_port_fini(sim_port *p);
/* Empty again, as init left it (names, capacity, consumer and producer stay). */
void sim_port_reset(sim_port *p);

/* Full, for a port that never has a dated pop (sim_port_pop_at). */
static inline bool sim_port_full(const sim_port *p) { return p->count == p->capacity; }
static inline bool sim_port_empty(const sim_port *p) { return p->count == 0; }

/* Items the port holds at cycle now: those not popped, and the slot of a
 * pop dated after now (sim_port_pop_at). */
static inline uint32_t sim_port_held(const sim_port *p, uint64_t now)
{
	return p->count + (p->pop_due > now);
}

/* Full at cycle now, a dated pop's slot held until its cycle: what
 * sim_port_full finds in a tick at now when the pop is made by a tick. */
static inline bool sim_port_full_at(const sim_port *p, uint64_t now)
{
	return p->count == p->capacity || (p->count + 1 == p->capacity && p->pop_due > now);
}

/* Building an item in place: sim_port_tail is the slot the next push fills
 * (the caller has checked !sim_port_full()); sim_port_commit pushes what
 * was written there, as sim_port_push would have pushed a copy.  Nothing
 * is visible or counted before the commit, so an item given up half-built
 * costs nothing (the rasterizer builds each quad in the port this way). */
static inline void *sim_port_tail(const sim_port *p)
{
	return p->slots + (size_t)((p->head + p->count) & p->mask) * p->item_size;
}

/* (the commit of the item in ring slot tail, the tail) */
static inline void sim_port_commit_slot(sim_port *p, uint32_t tail, uint64_t now)
{
	const uint64_t at = now + p->latency;
	p->ready[tail] = at;
	if (++p->count > p->max_count)
		p->max_count = p->count;
	if (p->consumer)
		sim_unit_wake(p->consumer, at);
}

static inline void sim_port_commit(sim_port *p, uint64_t now)
{
	sim_port_commit_slot(p, (p->head + p->count) & p->mask, now);
}

/* sim_port_push for a caller that knows the port's item size: given as a
 * constant (size == p->item_size), the copy is a plain store and the slot
 * address a shift (GR3D's 4-byte tokens). */
static inline void sim_port_push_sized(sim_port *p, const void *item, size_t size, uint64_t now)
{
	const uint32_t tail = (p->head + p->count) & p->mask;
	uint8_t *slot = p->slots + (size_t)tail * size;
	if (size == sizeof(uint32_t))           /* GR3D's tokens: one store, not a library call */
		memcpy(slot, item, sizeof(uint32_t));
	else
		memcpy(slot, item, size);
	sim_port_commit_slot(p, tail, now);
}

/* sim_port_push_sized into a port with dated pops (sim_port_pop_at): a
 * held slot counts in the high-water mark, as ticking would count it (the
 * other pushes leave it out, for their speed).  The held slot is just
 * before head: a push that found room (sim_port_full_at) never fills it. */
static inline void sim_port_push_held(sim_port *p, const void *item, size_t size, uint64_t now)
{
	sim_port_push_sized(p, item, size, now);
	const uint32_t held = sim_port_held(p, now);
	if (held > p->max_count)
		p->max_count = held;
}

/* Copy item in; the caller has checked !sim_port_full(). */
static inline void sim_port_push(sim_port *p, const void *item, uint64_t now)
{
	sim_port_push_sized(p, item, p->item_size, now);
}

/* sim_port_peek for a caller that knows the port's item size (as
 * sim_port_push_sized). */
static inline void *sim_port_peek_sized(const sim_port *p, size_t size, uint64_t now)
{
	if (!p->count || p->ready[p->head] > now)
		return NULL;
	return p->slots + (size_t)p->head * size;
}

/* The head item if it is visible at cycle now, else NULL. */
static inline void *sim_port_peek(const sim_port *p, uint64_t now)
{
	return sim_port_peek_sized(p, p->item_size, now);
}

/* Drops the head item at cycle now: a slot is free, the producer (if the
 * port names one) may push again from now on. */
static inline void sim_port_pop(sim_port *p, uint64_t now)
{
	p->head = (p->head + 1) & p->mask;
	p->count--;
	if (p->producer)
		sim_unit_wake(p->producer, now);
}

/* The pop of the head item dated at cycle at, after the cycle the consumer
 * ticks in: the consumer has the item now (the next peek sees the next
 * one), its slot stays held in cycles < at (sim_port_full_at,
 * sim_port_held), and the producer is woken at at, as a pop in a tick at
 * at would do.  That is the same as the tick's pop when the producer steps
 * after the consumer (GPU_STEP_ORDER) and checks room with
 * sim_port_full_at.  A producer that ticks before at, finds no room and
 * waits must wake itself at the pop's cycle (sim_port_pop_due): the pop's
 * wake came before its tick, which puts it to sleep.  At most one dated
 * pop at a time: the last one's cycle is past (pop_due <= now < at). */
static inline void sim_port_pop_at(sim_port *p, uint64_t at)
{
	p->head = (p->head + 1) & p->mask;
	p->count--;
	p->pop_due = at;
	if (p->producer)
		sim_unit_wake(p->producer, at);
}

/* The cycle a dated pop frees its slot, when after now; else UINT64_MAX. */
static inline uint64_t sim_port_pop_due(const sim_port *p, uint64_t now)
{
	return p->pop_due > now ? p->pop_due : UINT64_MAX;
}

/* Item i from the head (i < count), visible or not: for a producer that
 * hands out references and must know which it may reuse (vfetch's jobs). */
static inline const void *sim_port_item(const sim_port *p, uint32_t i)
{
	return p->slots + (size_t)((p->head + i) & p->mask) * p->item_size;
}

/* Cycle at which the head item becomes visible; UINT64_MAX when empty. */
static inline uint64_t sim_port_next_ready(const sim_port *p)
{
	return p->count ? p->ready[p->head] : UINT64_MAX;
}

#endif

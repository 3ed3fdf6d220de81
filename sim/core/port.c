#include "sim/core/port.h"

#include <stdlib.h>

bool sim_port_init(sim_port *p, const char *name, size_t item_size, uint32_t capacity,
                   uint32_t latency, sim_unit *consumer)
{
	memset(p, 0, sizeof *p);
	if (!capacity || !item_size)
		return false;
	p->name = name;
	p->item_size = (uint32_t)item_size;
	p->capacity = capacity;
	p->latency = latency;
	p->consumer = consumer;
	const uint32_t ring = sim_ring_size(capacity);
	if (!ring)
		return false;
	p->mask = ring - 1;
	p->slots = calloc(ring, item_size);
	p->ready = calloc(ring, sizeof *p->ready);
	if (!p->slots || !p->ready) {
		sim_port_fini(p);
		return false;
	}
	return true;
}

void sim_port_reset(sim_port *p)
{
	p->head = p->count = p->max_count = 0;
	p->pop_due = 0;
}

void sim_port_fini(sim_port *p)
{
	free(p->slots);
	free(p->ready);
	p->slots = NULL;
	p->ready = NULL;
}


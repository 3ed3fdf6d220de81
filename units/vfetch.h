/* Vertex fetch: hands vertex jobs (the attributes of one vertex, read from
 * the bound buffers by the caller's make_job) to the PICA200 shader units
 * round-robin, one per cycle, skipping a unit whose input port is full.
 *
 *   [ vfetch ] --(pica_job)--> vsh0 | vsh1 | vsh2 | vsh3 */
#ifndef ULP_UNITS_VFETCH_H
#define ULP_UNITS_VFETCH_H

#include "sim/port.h"
#include "units/pica_shader.h"

enum vfetch_counter { VFETCH_CTR_VERTICES, VFETCH_CTR_COUNT };

typedef struct vfetch_unit {
	sim_unit u;                   /* first: the clock's view */
	sim_port *to[4];
	unsigned nunits, next;
	uint32_t sent, total;
	void (*make_job)(void *ctx, uint32_t id, pica_job *job);
	void *ctx;
} vfetch_unit;

extern const sim_counter_def VFETCH_COUNTERS[VFETCH_CTR_COUNT];

/* The shader units' input ports must name their units as consumers; the
 * units wake vfetch when they pop (producer). */
void vfetch_init(vfetch_unit *f, sim_port *const *to, unsigned nunits, uint32_t total,
                 void (*make_job)(void *ctx, uint32_t id, pica_job *job), void *ctx);

#endif

/* Vertex fetch (vfetch.h). */
#include "units/vfetch.h"

const sim_counter_def VFETCH_COUNTERS[VFETCH_CTR_COUNT] = {
	[VFETCH_CTR_VERTICES] = { "vertices", "vertex jobs handed to the shader units" },
};

static void vfetch_tick(sim_unit *u, uint64_t now)
{
	vfetch_unit *f = (vfetch_unit *)u;
	if (f->sent == f->total)
		return;
	sim_unit_sleep_until(u, now + 1);
	for (unsigned k = 0; k < f->nunits; k++) {
		sim_port *p = f->to[(f->next + k) % f->nunits];
		if (sim_port_full(p))
			continue;
		pica_job job;
		memset(&job, 0, sizeof job);
		job.id = f->sent;
		f->make_job(f->ctx, f->sent, &job);
		sim_port_push(p, &job, now);
		f->next = (f->next + k + 1) % f->nunits;
		f->sent++;
		sim_unit_count(u, VFETCH_CTR_VERTICES, 1);
		sim_unit_busy(u);
		return;
	}
	sim_unit_stall(u, SIM_STALL_OUTPUT_FULL);
}

void vfetch_init(vfetch_unit *f, sim_port *const *to, unsigned nunits, uint32_t total,
                 void (*make_job)(void *ctx, uint32_t id, pica_job *job), void *ctx)
{
	memset(f, 0, sizeof *f);
	sim_unit_init(&f->u, "vfetch", vfetch_tick, VFETCH_COUNTERS, VFETCH_CTR_COUNT);
	for (unsigned k = 0; k < nunits && k < 4; k++)
		f->to[k] = to[k];
	f->nunits = nunits;
	f->total = total;
	f->make_job = make_job;
	f->ctx = ctx;
}

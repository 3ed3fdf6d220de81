/* Vertex fetch (vfetch.h). */
#include "units/pica/vfetch.h"

#include <stddef.h>
#include <string.h>

#include "isa/f24.h"
#include "isa/f24_vec.h"

const sim_counter_def VFETCH_COUNTERS[VFETCH_CTR_COUNT] = {
	[VFETCH_CTR_VERTICES] = { "vertices", "vertex jobs handed to the shader units" },
};

/* The pool's slots that no port holds (the batch is all handed on). */
static uint32_t free_slots(const vfetch_unit *f)
{
	uint32_t held = 0;
	for (unsigned k = 0; k < f->nunits; k++) {
		const sim_port *p = f->to[k];
		for (uint32_t i = 0; i < p->count; i++) {
			const pica_job_ref *r = sim_port_item(p, i);
			held |= UINT32_C(1) << (r->job - f->pool);
		}
	}
	return ~held;
}

/* The next job: made now, or from the batch made and shaded ahead. */
static const pica_job *next_job(vfetch_unit *f)
{
	if (f->at < f->nbatch)
		return f->batch[f->at++];
	const bool ahead = f->prog && !sim_unit_recording(&f->u);
	const uint32_t left = f->total - f->sent;
	const unsigned n = ahead ? (left < PICA_BATCH_LANES ? left : PICA_BATCH_LANES) : 1;
	/* slots found free and not taken since (a subset of the free ones):
	 * looked for again when too few */
	if ((unsigned)__builtin_popcount(f->known_free) < n)
		f->known_free = free_slots(f);   /* n or more (VFETCH_POOL) */
	/* A job's inputs start at 0: shaded ahead, the ones the program reads
	 * (the batch and a unit's ordinary run read no others: v_used), else
	 * all 16.  Copied from zeros (vector stores), not memset, which GCC
	 * makes a `rep stos` costing more cycles than the stores. */
	static const pica_vec4 ZERO_V[16];
	const uint32_t zero_regs = ahead ? f->prog->batch->v_used & ~f->job_writes : 0xFFFF;
	for (unsigned k = 0; k < n; k++) {
		pica_job *job = &f->pool[__builtin_ctz(f->known_free)];
		f->known_free &= f->known_free - 1;
		f->batch[k] = job;
		job->id = f->sent + k;
		job->shaded = false;
		job->sig = 0;
		switch (zero_regs) {             /* v0 up: copies of fixed size */
		case 0x1:
			memcpy(job->v, ZERO_V, 1 * sizeof job->v[0]);
			break;
		case 0x3:
			memcpy(job->v, ZERO_V, 2 * sizeof job->v[0]);
			break;
		case 0x7:
			memcpy(job->v, ZERO_V, 3 * sizeof job->v[0]);
			break;
		case 0xF:
			memcpy(job->v, ZERO_V, 4 * sizeof job->v[0]);
			break;
		case 0xFFFF:
			memcpy(job->v, ZERO_V, sizeof job->v);
			break;
		default:
			for (uint32_t bits = zero_regs; bits; bits &= bits - 1)
				job->v[__builtin_ctz(bits)] = ZERO_V[0];
		}
		f->make_job(f->ctx, f->sent + k, job);
	}
	if (ahead)
		pica_batch_shade(f->prog, f->unif, f->env, f->batch, n, &f->luck);
	f->nbatch = n;
	f->at = 1;
	return f->batch[0];
}

/* The port the next job goes to at cycle now: the first with room from
 * next (round-robin); nunits when every one is full. */
static inline unsigned room_at(const vfetch_unit *f, uint64_t now)
{
	unsigned q = f->next;
	for (unsigned k = 0; k < f->nunits; k++) {
		if (!sim_port_full_at(f->to[q], now))  /* a unit's dated pop holds its slot until then */
			return q;
		q = q + 1 == f->nunits ? 0 : q + 1;
	}
	return f->nunits;
}

static void vfetch_tick(sim_unit *u, uint64_t now)
{
	vfetch_unit *f = (vfetch_unit *)u;
	sim_unit_wait_settle(u, now);          /* woken in a wait booked ahead: its cycle's stall undone */
	f->wait_booked = 0;
	if (f->sent == f->total)
		return;
	sim_unit_sleep_until(u, now + 1);
	unsigned q = room_at(f, now);
	if (q < f->nunits) {
		const pica_job_ref ref = { next_job(f) };
		sim_port_push_held(f->to[q], &ref, sizeof ref, now);
		f->next = q + 1 == f->nunits ? 0 : q + 1;
		f->sent++;
		sim_unit_count(u, VFETCH_CTR_VERTICES, 1);
		sim_unit_busy(u);
		/* No port has room at now + 1 either (the units' pops so far are
		 * in the ports: those of now + 1 come later and wake this unit):
		 * the tick there would stall and wait, so the wait starts from it
		 * now, that cycle's stall booked (the waiting ones are booked by
		 * sim_unit_wait_settle from it: a pop's wake at now + 1 takes
		 * that one back), no port's dated pop still to come.  Without a
		 * timeline: with one the lane would change a cycle later. */
		if (f->sent == f->total || f->to[0]->producer != u || sim_unit_recording(u) ||
		    room_at(f, now + 1) < f->nunits)
			return;
		u->stats.stall[SIM_STALL_OUTPUT_FULL]++;
		sim_unit_wait(u, now + 1, SIM_STALL_OUTPUT_FULL);
		sim_unit_sleep_until(u, UINT64_MAX);
		f->wait_booked = now + 1;
		return;
	}
	/* Every port full: only a pop makes room, and a pop wakes this unit
	 * (the ports name it their producer; the wirings set the ports up
	 * after vfetch_init), so it waits instead of stalling every cycle:
	 * the same cycles, stalls and timeline (sim_unit_stall_wait). */
	for (unsigned k = 0; k < f->nunits; k++)
		f->to[k]->producer = u;
	sim_unit_stall_wait(u, now, SIM_STALL_OUTPUT_FULL);
	/* a unit's pop dated after now (booked_end) woke this unit before this
	 * tick put it to sleep: it wakes at that cycle itself */
	for (unsigned k = 0; k < f->nunits; k++)
		sim_unit_wake(u, sim_port_pop_due(f->to[k], now));   /* UINT64_MAX: no wake */
}

/* A run that stopped before cycle end (sim_unit settle): a wait booked
 * from a cycle at or after end (vfetch_tick) takes back that cycle's
 * stall, which its tick would have counted. */
static void vfetch_settle(sim_unit *u, uint64_t end)
{
	vfetch_unit *f = (vfetch_unit *)u;
	if (f->wait_booked && f->wait_booked >= end && u->waiting) {
		u->stats.stall[SIM_STALL_OUTPUT_FULL]--;
		f->wait_booked = 0;
	}
}

static void vfetch_reset(sim_unit *u)
{
	vfetch_unit *f = (vfetch_unit *)u;
	f->next = 0;
	f->sent = 0;
	f->nbatch = f->at = 0;
	f->known_free = 0;
	f->wait_booked = 0;
	f->luck = (pica_batch_luck){ 0, 0 };
}

void vfetch_shade_ahead(vfetch_unit *f, const pica_program *prog, const pica_uniforms *unif,
                        const pica_env *env)
{
	const bool ok = pica_batch_usable(prog, env);
	f->prog = ok ? prog : NULL;
	f->unif = unif;
	f->env = env;
}

void vfetch_init(vfetch_unit *f, sim_port *const *to, unsigned nunits, uint32_t total,
                 void (*make_job)(void *ctx, uint32_t id, pica_job *job), void *ctx)
{
	memset(f, 0, sizeof *f);
	sim_unit_init(&f->u, "vfetch", vfetch_tick, VFETCH_COUNTERS, VFETCH_CTR_COUNT);
	f->u.reset = vfetch_reset;
	f->u.settle = vfetch_settle;
	for (unsigned k = 0; k < nunits && k < 4; k++)
		f->to[k] = to[k];
	f->nunits = nunits;
	f->total = total;
	f->make_job = make_job;
	f->ctx = ctx;
	/* vfetch_setup_job writes each attribute's register whole (0, 0, 0, 1
	 * where it reads nothing): those need no zeros first */
	if (make_job == vfetch_setup_job) {
		const vfetch_setup *s = ctx;
		for (unsigned k = 0; k < s->nattr && k < VFETCH_MAX_ATTRS; k++)
			f->job_writes |= (uint16_t)(1u << (s->attr[k].reg & 15));
	}
}

static inline float f32_at(const uint8_t *p)
{
	float f;
	memcpy(&f, p, sizeof f);
	return f;
}

/* One integer component (byte, ubyte, short; a float is f32_at) of type t
 * at p, as f32 (the float24 rounding follows). */
static float int_component(const uint8_t *p, uint8_t t, bool normalize)
{
	switch (t) {
	case VFETCH_S8: return (float)(int8_t)p[0];
	case VFETCH_U8: return normalize ? p[0] / 255.0f : (float)p[0];
	default: return (float)(int16_t)(uint16_t)(p[0] | p[1] << 8);   /* VFETCH_S16 */
	}
}

void vfetch_setup_job(void *ctx, uint32_t id, pica_job *job)
{
	static const uint8_t SIZE[4] = { 1, 1, 2, 4 };
	const vfetch_setup *s = ctx;
	uint32_t v = s->first + id;
	if (s->index_size) {
		const uint8_t *p = s->index_bytes ? s->index_bytes + (size_t)id * s->index_size
		                                  : s->read(s->mem, s->index_addr + id * s->index_size, s->index_size);
		v = 0;
		for (unsigned b = 0; p && b < s->index_size; b++)
			v |= (uint32_t)p[b] << (8 * b);
	}
	for (unsigned k = 0; k < s->nattr; k++) {
		const vfetch_attr *a = &s->attr[k];
		const unsigned size = SIZE[a->type & 3];
		const uint64_t at = (uint64_t)a->addr + (uint64_t)a->stride * v;
		const uint8_t *p = a->bytes ? a->bytes + (size_t)a->stride * (v - a->first)
		                   : at + (uint64_t)a->ncomp * size <= UINT32_MAX
		                   ? s->read(s->mem, (uint32_t)at, a->ncomp * size) : NULL;
		/* the components read, then 0, 0, 0, 1 (float24 values in every
		 * mode, so rounding them with the others changes nothing) */
		f24v_f4 c = { 0.0f, 0.0f, 0.0f, 1.0f };
		const unsigned n = p ? (a->ncomp < 4 ? a->ncomp : 4) : 0;
		if ((a->type & 3) == VFETCH_F32) {    /* little-endian: the host's order (x86-64) */
			switch (n) {                      /* loads of a fixed size, no copy through memory */
			case 4: memcpy(&c, p, sizeof c); break;
			case 3: c = (f24v_f4){ f32_at(p), f32_at(p + 4), f32_at(p + 8), 1.0f }; break;
			case 2: c = (f24v_f4){ f32_at(p), f32_at(p + 4), 0.0f, 1.0f }; break;
			case 1: c[0] = f32_at(p); break;
			default: break;
			}
		} else
			for (unsigned j = 0; j < n; j++)
				c[j] = int_component(p + j * size, a->type & 3, a->normalize);
		if (!s->exact)
			c = f24v_of_f32_4(c, s->round);
		memcpy(job->v[a->reg & 15].c, &c, sizeof c);
	}
}

/* Vertex fetch: hands vertex jobs (the attributes of one vertex) to the
 * PICA200 shader units round-robin, one per cycle, skipping a unit whose
 * input port is full.  A job is made by make_job: in a replay
 * vfetch_setup_job, which reads memory as the attribute-buffer and draw
 * registers describe (units/geom/pica_vtx.h); pica_batch_run's own.
 *
 * The jobs stay in vertex fetch's pool; the ports carry references
 * (pica_job_ref), so a hand-on copies a pointer, not the job's half
 * kilobyte.  A job's slot is reused only once no port holds it: a unit
 * reads its job in the tick that pops it.  The pool has room for the
 * ports' items and a whole batch (VFETCH_POOL).
 *
 *   [ vfetch ] --(pica_job_ref)--> vsh0 | vsh1 | vsh2 | vsh3 */
#ifndef ULP_UNITS_VFETCH_H
#define ULP_UNITS_VFETCH_H

#include "sim/core/port.h"
#include "units/pica/pica_batch.h"
#include "units/pica/pica_shader.h"

enum vfetch_counter { VFETCH_CTR_VERTICES, VFETCH_CTR_COUNT };

/* Jobs in the pool: a whole batch besides the items the ports can hold
 * (VFETCH_PORT_ITEMS each, four ports at most).  A batch is made when the
 * last is handed on, of the slots no port holds. */
enum { VFETCH_PORT_ITEMS = 2, VFETCH_POOL = 32 };
_Static_assert(4 * VFETCH_PORT_ITEMS + PICA_BATCH_LANES <= VFETCH_POOL,
               "the pool holds a batch besides every port's items");

typedef struct vfetch_unit {
	sim_unit u;                   /* first: the clock's view */
	sim_port *to[4];
	unsigned nunits, next;
	uint32_t sent, total;
	void (*make_job)(void *ctx, uint32_t id, pica_job *job);
	void *ctx;
	/* shading ahead (vfetch_shade_ahead): the program, its uniforms and
	 * env; the jobs made and shaded (slots of the pool), the next one to
	 * hand on */
	const pica_program *prog;
	const pica_uniforms *unif;
	const pica_env *env;
	unsigned nbatch, at;
	pica_job *batch[PICA_BATCH_LANES];
	uint32_t known_free;          /* pool slots known to be free (vfetch.c next_job) */
	uint64_t wait_booked;         /* a wait booked from this cycle by the tick before (0: none) */
	uint16_t job_writes;          /* v registers make_job always writes whole (not zeroed first) */
	pica_batch_luck luck;         /* the tame run's tries (pica_batch_shade) */
	pica_job pool[VFETCH_POOL];
} vfetch_unit;

extern const sim_counter_def VFETCH_COUNTERS[VFETCH_CTR_COUNT];

/* The fetch set-up the PICA200 attribute-buffer and draw registers describe
 * (units/geom/pica_vtx.h builds it; pica200.md §6.1, 3dbrew GPU/Internal Registers):
 * attribute i is read at addr + stride * vertex as ncomp values of type
 * (the PICA200's byte, ubyte, short, float), into v register reg. */
enum vfetch_type { VFETCH_S8, VFETCH_U8, VFETCH_S16, VFETCH_F32 };
enum { VFETCH_MAX_ATTRS = 12 };

/* The bytes [addr, addr + len) of simulated memory, or NULL when they do
 * not lie inside one resource (the attribute then reads 0, 0, 0, 1). */
typedef const uint8_t *(*vfetch_read_fn)(const void *mem, uint32_t addr, uint32_t len);

typedef struct vfetch_attr {
	uint32_t addr, stride;
	uint8_t type, ncomp, reg;    /* enum vfetch_type, 1..4, v register */
	bool normalize;              /* ubyte / 255 (ulpsim's register 0x2F0) */
	/* optional: vertex `first`'s bytes, when the caller has checked that
	 * every vertex the draw reads (first and up) lies in the same buffer
	 * after them; they are then read there, not through read() */
	const uint8_t *bytes;
	uint32_t first;
} vfetch_attr;

typedef struct vfetch_setup {
	vfetch_attr attr[VFETCH_MAX_ATTRS];
	unsigned nattr;
	uint32_t first;              /* VERTEX_OFFSET: vertex k of an array draw is first + k */
	uint32_t index_addr;         /* indexed draws: vertex k is the k-th index there */
	uint8_t index_size;          /* 0: an array draw; 1, 2 or 4 bytes */
	const uint8_t *index_bytes;  /* optional: the draw's indices, checked by the caller */
	enum ulp_round round;        /* f32 -> float24 (f24.uniform_round) */
	bool exact;                  /* arith=exact: kept as binary32 */
	vfetch_read_fn read;
	const void *mem;
} vfetch_setup;

/* A make_job for vfetch_init: ctx is a const vfetch_setup. */
void vfetch_setup_job(void *ctx, uint32_t id, pica_job *job);

/* The shader units' input ports (items pica_job_ref, capacity
 * VFETCH_PORT_ITEMS) must name their units as consumers; the units wake
 * vfetch when they pop (producer). */
void vfetch_init(vfetch_unit *f, sim_port *const *to, unsigned nunits, uint32_t total,
                 void (*make_job)(void *ctx, uint32_t id, pica_job *job), void *ctx);

/* Make the jobs PICA_BATCH_LANES at a time and run prog over them before
 * handing them on (pica_batch.h), when the program and env allow it
 * (pica_batch_usable) and no timeline records.  Only for a make_job that
 * does not depend on time (pica_batch_run's callers'; vfetch_setup_job
 * in a draw, whose buffers no unit writes: gpu_draw_run), and
 * uniforms that do not change during the run; prog, unif and env must
 * outlive it.  The units book the time; every result stays the same. */
void vfetch_shade_ahead(vfetch_unit *f, const pica_program *prog, const pica_uniforms *unif,
                        const pica_env *env);

#endif

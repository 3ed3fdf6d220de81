/* The PICA200 shader unit as a clocked unit (pica_exec.h does the
 * architecture; this file does the time).  Timing model, every value a knob
 * (docs/ASSUMPTIONS.md "PICA200 shader unit"): in-order issue every
 * pica.issue_cycles; results visible pica.latency.{alu,sfu,mova} cycles
 * after issue; a read of an in-flight register waits (dependency, or hazard
 * for an address register); a taken branch costs pica.flow_bubble cycles;
 * END waits for in-flight writes and for room in the output port.
 *
 *   in port (pica_job_ref) --> [ pica_shader_unit ] --> out port (pica_result) */
#ifndef ULP_UNITS_PICA_SHADER_H
#define ULP_UNITS_PICA_SHADER_H

#include "sim/core/clock.h"
#include "units/pica/pica_exec.h"

typedef struct pica_job {
	uint32_t id;
	pica_vec4 v[16];
	/* Shaded ahead by vertex fetch (pica_batch.h): the outputs the path
	 * wrote and the path's jump bits; the unit books the time only. */
	bool shaded;
	uint32_t sig;
	pica_vec4 o[16];
} pica_job;

/* What the port from vertex fetch carries: a job in vertex fetch's pool
 * (vfetch.h), which does not reuse it while a port holds it.  The unit
 * reads the job in the tick that pops it. */
typedef struct pica_job_ref {
	const pica_job *job;
} pica_job_ref;

typedef struct pica_result {
	uint32_t id;
	uint32_t unit;
	pica_vec4 o[16];
} pica_result;

enum pica_counter {
	PICA_CTR_INSTRUCTIONS, PICA_CTR_INVOCATIONS, PICA_CTR_PRIMITIVES, PICA_CTR_TAKEN,
	PICA_CTR_COUNT
};

enum { PICA_TL_PENDING = 64 };
enum { PICA_FAST_RUN = 64 };    /* instructions one run ahead issues at most */
enum { PICA_SCHED_PATHS = 8 };  /* schedules a unit keeps (paths of one program) */

/* What fast_run books for a vertex of one path (pica_batch.h's jump bits)
 * from its first issue at cycle 0 with the scoreboard clear, as it is at a
 * vertex's start (END waits for every write): computed once per unit and
 * path, then booked per vertex.  ok false: the path needs the ordinary run
 * (an error pica_step reports, past the window or PICA_FAST_RUN, the first
 * instruction without a fast form). */
typedef struct pica_sched {
	uint32_t sig;
	bool ok;
	uint8_t wait_cause;             /* enum sim_stall, SIM_STALL_COUNT: busy */
	uint32_t end_pc;
	uint32_t ready_mask;            /* scoreboard bits the path writes */
	uint64_t end_at;                /* END's cycle */
	uint64_t busy, stall[SIM_STALL_COUNT], instructions, taken;
	uint8_t stall_mask;             /* the causes with stall[] != 0 */
	uint64_t busy_last;             /* 0: none */
	uint64_t next_issue, writes_done, ready[20];
	uint8_t o_mask[16];             /* the components the path writes */
	uint16_t o_whole;               /* o registers it writes whole (o_mask 0xF) */
	uint16_t o_part;                /* o registers it writes in part */
	uint8_t whole[16], n_whole;     /* o_whole's registers, ascending */
	uint64_t log[PICA_FAST_RUN + 1];
	unsigned nlog;
} pica_sched;

/* The scoreboard (pica-unit.md): the cycle instruction m can issue from,
 * its sources ready (ready[b] for bit b of m->reads) and, for END, every
 * write done (writes_done), and why it would wait until then.  The ticking
 * unit and the schedules (pica_sched.c) share it. */
static inline uint64_t pica_need(const uint64_t *ready, uint64_t writes_done, const pica_inst_meta *m,
                                 enum sim_stall *cause)
{
	uint64_t need = 0;
	*cause = SIM_STALL_DEPENDENCY;
	for (uint32_t bits = m->reads; bits; bits &= bits - 1) {
		const unsigned b = (unsigned)__builtin_ctz(bits);
		if (ready[b] > need) {
			need = ready[b];
			*cause = b >= 16 && b <= 18 ? SIM_STALL_HAZARD : SIM_STALL_DEPENDENCY;
		}
	}
	if (m->is_end && writes_done > need) {
		need = writes_done;
		*cause = SIM_STALL_DEPENDENCY;
	}
	return need;
}

/* The run ahead's log entry for an instruction issued at cycle at after a
 * dependency wait of the given cause: at << 8 | cause << 1 | taken
 * (pica_shader.c's run ahead, pica_sched.c's schedules). */
static inline uint64_t pica_log_entry(uint64_t at, enum sim_stall cause, bool taken)
{
	return at << 8 | (uint64_t)cause << 1 | taken;
}

typedef struct pica_shader_unit {
	sim_unit u;                     /* first: the clock's view */
	const pica_program *prog;
	const pica_uniforms *unif;
	pica_env env;
	sim_port *in, *out;
	pica_thread t;
	bool t_lazy;                    /* t's start put off (a job shaded ahead): thread_begin */
	bool running, failed;
	uint32_t job_id, index;
	uint64_t next_issue;
	enum sim_stall wait_cause;      /* why next_issue is in the future */
	uint64_t ready[20];             /* scoreboard (pica_exec.h PICA_SB_*) */
	uint64_t writes_done;
	uint16_t latency[5];            /* by enum pica_class */
	uint16_t issue_cycles, flow_bubble;
	uint64_t seq;
	/* Geometry mode (units/geom/gsh.c), when start is set: start() loads the next input
	 * primitive from the in port instead of a pica_job (false: none yet, or
	 * failed set); END hands nothing on but sets b15 in gs_unif; an EMIT
	 * that completes a primitive waits for room in the out port. */
	bool (*start)(struct pica_shader_unit *s, uint64_t now);
	pica_uniforms *gs_unif;
	void *gs_ctx;
	uint64_t now;                   /* the cycle of the instruction being run */
	/* The fast path (pica_fast.h): a vertex's instructions run from the
	 * tick that issues the first, their cycles booked; the unit sleeps to
	 * the next cycle a tick must see (END, or an instruction past the
	 * window).  fast_window caps how far it runs ahead (the watchdog's
	 * view); booked_busy is the last cycle it booked busy, fail_pending an
	 * error found ahead, reported at its cycle. */
	bool fast;
	bool fail_pending;
	uint64_t fast_window;
	uint64_t booked_busy;
	/* the last run ahead, for sim_unit settle: per issue (the first is the
	 * tick's) its cycle, the cause of the wait before it and whether it
	 * was taken; last, the cycle the run stops at and its wait's cause */
	uint64_t log[PICA_FAST_RUN + 1];
	unsigned nlog;
	bool log_stop;
	const uint64_t *log_rel;        /* else the log is a schedule's, from cycle log_t0 */
	uint64_t log_t0;
	bool log_dated;                 /* its first issue booked by END's tick, not ticked */
	/* The batch path (pica_batch.h): shaded, the job was shaded ahead and
	 * its path has a schedule (shade_sched), found when the job starts:
	 * its outputs are merged into o[0] then, its time booked at its first
	 * issue (shade_end: booked, END alone).  A shaded job without one runs
	 * the ordinary way from its inputs.  The schedules, for prog and
	 * max_steps. */
	bool shaded, shade_end;
	const pica_sched *shade_sched;  /* the path's schedule (o_mask, o_whole, o_part) */
	const pica_sched *sb_lazy;      /* the scoreboard is this schedule's from sb_t0 (sb_settle) */
	uint64_t sb_t0;
	const pica_program *sched_prog;
	uint64_t sched_steps;
	unsigned nsched, sched_last;    /* sched_last: the last one booked (a lookup's first try) */
	/* the schedule pica_sched_find returned last (NULL: none, or its path
	 * needs the ordinary run), for prog and max_steps as they were then:
	 * a booked tick's first try; the unit's prog and env stay as they are
	 * from its first tick to its reset, which clears it */
	const pica_sched *sched_hit;
	pica_sched sched[PICA_SCHED_PATHS];
	/* Where END hands its result instead of the out port, or NULL (the
	 * port): pica_batch_run's sink without a timeline, which would pop
	 * every result the cycle after its push (its port then never fills:
	 * at most one push a unit a cycle, fewer units than its capacity). */
	void (*take)(void *ctx, const pica_result *r);
	void *take_ctx;
	/* with take, the result handed on: its o equal to t.o[0] after every
	 * END (a booked job's outputs merged into both, an ordinary job's
	 * copied at its END), so that a booked END copies nothing */
	pica_result res;
	struct { uint64_t cycle; uint32_t seq; } pending[PICA_TL_PENDING];
	unsigned pend_head, pend_n;
	ulp_diag err;
} pica_shader_unit;

extern const sim_counter_def PICA_COUNTERS[PICA_CTR_COUNT];

/* The unit's schedule of path sig (units/pica/pica_sched.c), built on its
 * first vertex; NULL when the path needs the ordinary run (or the unit
 * keeps PICA_SCHED_PATHS others). */
const pica_sched *pica_sched_find(pica_shader_unit *s, uint32_t sig);

void pica_shader_init(pica_shader_unit *s, const char *name, uint32_t index,
                      const pica_program *prog, const pica_uniforms *unif,
                      const ulp_config *cfg, sim_port *in, sim_port *out);
/* No job in hand, the scoreboard clear, the thread reset (the program,
 * uniforms, env and timing knobs stay); sim_unit_reset calls it. */
void pica_shader_reset(pica_shader_unit *s);

/* Units that shade vertices: pica.units, less the one that runs the
 * geometry shader when one is bound (pica200.md §4: "When a GS is active,
 * the VS runs on 3 units"). */
unsigned pica_vertex_units(const ulp_config *cfg, bool gs_bound);

#endif

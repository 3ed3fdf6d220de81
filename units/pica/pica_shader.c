/* PICA200 shader unit: timing around the execution core (pica_shader.h). */
#include "units/pica/pica_shader.h"

#include <stdlib.h>
#include <string.h>

#include "units/pica/pica_batch.h"
#include "units/pica/pica_fast.h"


const sim_counter_def PICA_COUNTERS[PICA_CTR_COUNT] = {
	[PICA_CTR_INSTRUCTIONS] = { "instructions", "instructions issued" },
	[PICA_CTR_INVOCATIONS] = { "invocations", "vertex or geometry invocations completed" },
	[PICA_CTR_PRIMITIVES] = { "primitives", "primitives emitted (geometry shader)" },
	[PICA_CTR_TAKEN] = { "taken_branches", "instructions that transferred control" },
};

/* Issue/complete events must reach the timeline in cycle order: completions
 * wait here until their cycle comes (the unit ticks every cycle while busy). */
static void flush_completions(pica_shader_unit *s, uint64_t now)
{
	while (s->pend_n && s->pending[s->pend_head].cycle <= now) {
		sim_tl_emit(s->u.tl, s->pending[s->pend_head].cycle, s->u.lane, SIM_TL_END,
		            s->pending[s->pend_head].seq, 0);
		s->pend_head = (s->pend_head + 1) % PICA_TL_PENDING;
		s->pend_n--;
	}
}

static inline void note_completion(pica_shader_unit *s, uint64_t cycle, uint32_t seq)
{
	if (!s->u.tl || !s->u.tl->enabled)
		return;
	if (s->pend_n == PICA_TL_PENDING)          /* cannot happen with latency <= 64 */
		flush_completions(s, UINT64_MAX);
	unsigned tail = (s->pend_head + s->pend_n) % PICA_TL_PENDING;
	s->pending[tail].cycle = cycle;
	s->pending[tail].seq = seq;
	s->pend_n++;
}

/* The cycle the instruction m can issue from (its sources in flight; END:
 * every write), and why it would wait: the scoreboard. */
static inline uint64_t need_of(const pica_shader_unit *s, const pica_inst_meta *m,
                               enum sim_stall *cause)
{
	return pica_need(s->ready, s->writes_done, m, cause);
}

/* The instruction m issued at cycle now: its results' cycle, the next issue. */
static inline uint64_t issued(pica_shader_unit *s, const pica_inst_meta *m, uint64_t now, bool taken)
{
	uint64_t done = now + s->latency[m->cls];
	for (uint32_t bits = m->writes; bits; bits &= bits - 1)
		s->ready[__builtin_ctz(bits)] = done;
	if (done > s->writes_done)
		s->writes_done = done;
	s->u.stats.counter[PICA_CTR_INSTRUCTIONS]++;
	s->next_issue = now + s->issue_cycles;
	s->wait_cause = SIM_STALL_COUNT;
	if (taken) {
		s->u.stats.counter[PICA_CTR_TAKEN]++;
		s->next_issue += s->flow_bubble;
		if (s->flow_bubble)
			s->wait_cause = SIM_STALL_FLOW;
	}
	return done;
}

/* Cycles [from, to) waiting for next_issue, as ticks would count them:
 * busy in a multi-cycle issue, else the wait's cause. */
/* Cycles [from, to) waiting for next_issue, as ticks would count them:
 * busy in a multi-cycle issue, else the wait's cause. */
static inline void book_wait(sim_unit_stats *st, uint64_t from, uint64_t to, enum sim_stall wc)
{
	if (to <= from)
		return;
	if (wc == SIM_STALL_COUNT)
		st->busy += to - from;
	else
		st->stall[wc] += to - from;
}

/* What ticks would have counted in cycles [from, to) from end on is taken
 * back (sim_unit settle). */
static void unbook(sim_unit_stats *st, uint64_t from, uint64_t to, uint64_t end, int act)
{
	from = from > end ? from : end;
	if (to <= from)
		return;
	if (act == SIM_ACT_BUSY)
		st->busy -= to - from;
	else
		st->stall[act - SIM_ACT_STALL] -= to - from;
}

/* The cycles between an issue at p (taken or not) and the next one at at
 * (after a wait of cause), from end on, taken back. */
static void unbook_gap(pica_shader_unit *s, uint64_t p, bool taken, uint64_t at,
                       enum sim_stall cause, uint64_t end)
{
	uint64_t ni = p + s->issue_cycles + (taken ? s->flow_bubble : 0);
	int wact = taken && s->flow_bubble ? SIM_ACT_STALL + SIM_STALL_FLOW : SIM_ACT_BUSY;
	unbook(&s->u.stats, p + 1, ni, end, wact);
	unbook(&s->u.stats, ni, at, end, SIM_ACT_STALL + (int)cause);
}

/* Entry k of the last run ahead's log (a schedule's is relative to log_t0). */
static inline uint64_t log_at(const pica_shader_unit *s, unsigned k)
{
	return s->log_rel ? s->log_rel[k] + (s->log_t0 << 8) : s->log[k];
}

/* A run that stopped before cycle end takes back what the last run ahead
 * booked from end on, rebuilt from its log: cycles, instructions, taken
 * branches (what ticks up to end - 1 would have counted stays). */
static void pica_shader_settle(sim_unit *u, uint64_t end)
{
	pica_shader_unit *s = (pica_shader_unit *)u;
	if (!s->nlog)
		return;
	uint64_t p = log_at(s, 0) >> 8;           /* the run's first issue: a tick */
	bool taken = log_at(s, 0) & 1;
	if (s->log_dated && p >= end) {           /* or booked by END's tick (booked_end) */
		unbook(&u->stats, p, p + 1, end, SIM_ACT_BUSY);
		u->stats.counter[PICA_CTR_INSTRUCTIONS]--;
		if (taken)
			u->stats.counter[PICA_CTR_TAKEN]--;
	}
	for (unsigned k = 1; k < s->nlog; k++) {
		const uint64_t e = log_at(s, k);
		const uint64_t at = e >> 8;
		const enum sim_stall cause = (enum sim_stall)(e >> 1 & 0x7F);
		const bool tk = e & 1;
		if (k + 1 < s->nlog || !s->log_stop) {
			unbook_gap(s, p, taken, at, cause, end);
			unbook(&u->stats, at, at + 1, end, SIM_ACT_BUSY);
			if (at >= end) {
				u->stats.counter[PICA_CTR_INSTRUCTIONS]--;
				if (tk)
					u->stats.counter[PICA_CTR_TAKEN]--;
			}
		} else {                               /* the stop: its tick, not an issue */
			unbook_gap(s, p, taken, at, cause, end);
		}
		p = at;
		taken = tk;
	}
	s->nlog = 0;
}

/* The fast path: the instruction at pc issues at now (the tick checked it).
 * Run it and the ones after it in one go, booking each cycle as a tick per
 * cycle would, until an instruction a tick must see: END (the output port),
 * the pc past the code, one past the window or the run's length, or an
 * error (reported at its cycle).  Then sleep to that cycle.  False when
 * the first instruction needs the general path. */
static bool fast_run(pica_shader_unit *s, uint64_t now)
{
	pica_thread *t = &s->t;
	const pica_program *p = s->prog;
	sim_unit *u = &s->u;
	sim_unit_stats *st = &u->stats;
	pica_step_info info;
	if (!pica_fast_step(t, p, s->unif, &s->env, &info))
		return false;
	sim_unit_busy(u);
	s->seq++;
	issued(s, &p->meta[info.pc], now, info.taken);
	s->log[0] = pica_log_entry(now, SIM_STALL_DEPENDENCY, info.taken);
	unsigned n = 1;
	const uint64_t limit = now + s->fast_window;
	/* the issue state in locals for the loop (issued()'s steps) */
	uint64_t next_issue = s->next_issue, writes_done = s->writes_done;
	enum sim_stall wait_cause = s->wait_cause;
	uint64_t c = now, at, busy_last = 0, ntaken = 0;
	enum sim_stall cause = SIM_STALL_DEPENDENCY;
	for (;;) {
		const uint32_t pc = t->pc;
		at = next_issue;
		book_wait(st, c + 1, at, wait_cause);
		if (wait_cause == SIM_STALL_COUNT && at > c + 1)
			busy_last = at - 1;
		cause = SIM_STALL_DEPENDENCY;
		if (pc >= p->ncode)
			break;
		const pica_inst_meta *m = &p->meta[pc];
		const uint64_t need = pica_need(s->ready, writes_done, m, &cause);   /* need_of() */
		if (need > at) {
			st->stall[cause] += need - at;
			at = need;
		}
		if (m->is_end || at > limit || n == PICA_FAST_RUN)
			break;
		if (!pica_fast_step(t, p, s->unif, &s->env, &info)) {
			s->now = at;
			if (pica_step(t, p, s->unif, &s->env, &info, &s->err) == PICA_STEP_ERROR) {
				s->fail_pending = true;
				break;
			}
		}
		busy_last = at;
		s->log[n++] = pica_log_entry(at, cause, info.taken);
		const pica_inst_meta *mi = &p->meta[info.pc];          /* issued() */
		const uint64_t done = at + s->latency[mi->cls];
		for (uint32_t bits = mi->writes; bits; bits &= bits - 1)
			s->ready[__builtin_ctz(bits)] = done;
		writes_done = done > writes_done ? done : writes_done;
		next_issue = at + s->issue_cycles;
		wait_cause = SIM_STALL_COUNT;
		if (info.taken) {
			ntaken++;
			next_issue += s->flow_bubble;
			if (s->flow_bubble)
				wait_cause = SIM_STALL_FLOW;
		}
		c = at;
	}
	const uint64_t ran = n - 1;                 /* issues after the tick's own */
	st->busy += ran;
	st->counter[PICA_CTR_INSTRUCTIONS] += ran;
	st->counter[PICA_CTR_TAKEN] += ntaken;
	s->seq += ran;
	s->next_issue = next_issue;
	s->writes_done = writes_done;
	s->wait_cause = wait_cause;
	s->log[n++] = pica_log_entry(at, cause, false);    /* where the run stops */
	s->nlog = n;
	s->log_rel = NULL;
	s->log_stop = true;
	s->log_dated = false;
	s->booked_busy = busy_last;
	if (at > now + 1)
		sim_unit_sleep_through(u, at);
	return true;
}

/* Whether the unit books a shaded job's time (the run ahead's conditions:
 * pica_shader_tick).  Fixed for a run: the env and knobs do not change,
 * and a timeline never starts recording part-way (a failed sink stops it). */
static inline bool books_ahead(const pica_shader_unit *s)
{
	return s->fast && !s->start && !s->env.general && !s->env.trace && !s->env.permissive &&
	       !sim_unit_recording(&s->u);
}

/* The scoreboard a booked schedule left (sched_apply keeps it as the
 * schedule and its start, sb_lazy and sb_t0), written out: before the
 * general tick, or END's issue, reads or writes it.  Only a unit ticking
 * with booked_tick books (it is installed before the first sched_apply),
 * so booked_tick settles it before it hands a tick to pica_shader_tick.  A booked vertex's own
 * ticks need not read it: its END issues at or after the cycle the
 * schedule found (sleep_through), and at the next job's first issue every
 * entry is at most the last END's cycle (END waits for every write). */
static inline void sb_settle(pica_shader_unit *s)
{
	const pica_sched *sc = s->sb_lazy;
	if (!sc)
		return;
	for (uint32_t bits = sc->ready_mask; bits; bits &= bits - 1) {
		const unsigned b = (unsigned)__builtin_ctz(bits);
		s->ready[b] = s->sb_t0 + sc->ready[b];
	}
	s->sb_lazy = NULL;
}

/* The first issue of a job shaded ahead, at now: book its path's schedule
 * sc and sleep to its END. */
static inline __attribute__((always_inline)) void sched_apply(pica_shader_unit *s, const pica_sched *sc, uint64_t now)
{
	sim_unit *u = &s->u;
	sim_unit_stats *st = &u->stats;
	sim_unit_busy(u);
	st->busy += sc->busy;
	for (unsigned bits = sc->stall_mask; bits; bits &= bits - 1)
		st->stall[__builtin_ctz(bits)] += sc->stall[__builtin_ctz(bits)];
	st->counter[PICA_CTR_INSTRUCTIONS] += sc->instructions;
	st->counter[PICA_CTR_TAKEN] += sc->taken;
	s->seq += sc->instructions;
	s->sb_lazy = sc;        /* the scoreboard it leaves: sb_settle, when read */
	s->sb_t0 = now;
	s->writes_done = now + sc->writes_done;
	s->next_issue = now + sc->next_issue;
	s->wait_cause = (enum sim_stall)sc->wait_cause;
	s->log_rel = sc->log;
	s->log_t0 = now;
	s->nlog = sc->nlog;
	s->log_stop = true;
	s->log_dated = false;
	s->booked_busy = sc->busy_last ? now + sc->busy_last : 0;
	s->t.pc = sc->end_pc;
	s->t_lazy = false;      /* no instruction runs on the thread: its start is not needed */
	s->shade_sched = sc;
	s->shade_end = true;
	if (sc->end_at > 1)
		sim_unit_sleep_through(u, now + sc->end_at);
}

/* The outputs of sc's path from o over the unit's o[0] (the other
 * components keep their stale values, as the ordinary run leaves them). */
static inline __attribute__((always_inline)) void shade_merge(pica_shader_unit *s, const pica_sched *sc, const pica_vec4 *o)
{
	const bool take = s->take != NULL;   /* the result kept equal to o[0] (push_result) */
	switch (sc->o_whole) {               /* o0 up to o3: copies of fixed size */
#define WHOLE_RUN(n)                                                \
	memcpy(s->t.o[0], o, (n) * sizeof o[0]);                    \
	if (take)                                                   \
		memcpy(s->res.o, o, (n) * sizeof o[0]);             \
	break
	case 0x1:
		WHOLE_RUN(1);
	case 0x3:
		WHOLE_RUN(2);
	case 0x7:
		WHOLE_RUN(3);
	case 0xF:
		WHOLE_RUN(4);
#undef WHOLE_RUN
	default:
		for (unsigned i = 0; i < sc->n_whole; i++) {
			const unsigned q = sc->whole[i];
			const pica_vec4 v = o[q];
			s->t.o[0][q] = v;
			if (take)
				s->res.o[q] = v;
		}
	}
	for (uint32_t bits = sc->o_part; bits; bits &= bits - 1) {
		const unsigned q = (unsigned)__builtin_ctz(bits);
		for (unsigned k = 0; k < 4; k++)
			if (sc->o_mask[q] & (1u << k))
				s->t.o[0][q].c[k] = o[q].c[k];
		if (take)
			s->res.o[q] = s->t.o[0][q];
	}
}

/* The thread's start, put off for a job shaded ahead (sched_apply books
 * it without running an instruction): done before one first runs. */
static inline void thread_begin(pica_shader_unit *s)
{
	if (s->t_lazy) {
		pica_thread_start(&s->t, s->prog);
		s->t_lazy = false;
	}
}

/* END hands the vertex on: o[0] built in the out port's slot (every byte
 * set: no padding), as sim_port_push would copy it there; or, with take,
 * handed to it from there (the port stays empty). */
static inline __attribute__((always_inline)) void push_result(pica_shader_unit *s, uint64_t now, bool booked)
{
	if (s->take) {
		pica_result *out = &s->res;   /* its o is o[0] after a booked job (shade_merge) */
		out->id = s->job_id;
		out->unit = s->index;
		if (!booked)
			memcpy(out->o, s->t.o[0], sizeof out->o);
		s->take(s->take_ctx, out);
		/* the sink's pop at now + 1 was busy: the watchdog's view */
		if (s->booked_busy < now + 1)
			s->booked_busy = now + 1;
		return;
	}
	pica_result *out = sim_port_tail(s->out);
	out->id = s->job_id;
	out->unit = s->index;
	memcpy(out->o, s->t.o[0], sizeof out->o);
	sim_port_commit(s->out, now);
}

/* The tick at the END of a job whose time sched_apply booked: what the
 * general tick does for END there, without the instruction (its outputs
 * were merged when the job started).  The schedule put the unit to sleep
 * through END's cycle, where END can issue; END still waits for room in
 * the out port, a cycle at a time. */
static inline __attribute__((always_inline)) void booked_end(pica_shader_unit *s, uint64_t now)
{
	sim_unit *u = &s->u;
	sim_unit_sleep_until(u, now + 1);
	u->debug_pc = s->t.pc;
	u->has_pc = true;
	/* now >= END's cycle in the schedule (sleep_through): next_issue and
	 * the scoreboard let END issue (need_of <= now), as sched_build found */
	if (sim_port_full(s->out)) {
		sim_unit_stall(u, SIM_STALL_OUTPUT_FULL);
		return;
	}
	const pica_inst_meta *m = &s->prog->meta[s->t.pc];
	if (m->writes)
		sb_settle(s);
	s->now = now;
	sim_unit_busy(u);
	const uint32_t seq = (uint32_t)s->seq++;
	sim_tl_emit(u->tl, now, u->lane, SIM_TL_BEGIN, seq, s->t.pc);
	note_completion(s, issued(s, m, now, false), seq);
	push_result(s, now, true);
	s->shade_end = false;
	s->running = false;
	sim_unit_count(u, PICA_CTR_INVOCATIONS, 1);
}

/* The schedule of a job shaded ahead, or NULL (the ordinary run):
 * pica_sched_find, its first try inline (the last path booked). */
static inline __attribute__((always_inline)) const pica_sched *booked_sched(pica_shader_unit *s,
                                                                            const pica_job *job)
{
	const pica_sched *sc = s->sched_hit;
	if (!(job->shaded && sc && sc->sig == job->sig))
		sc = job->shaded ? pica_sched_find(s, job->sig) : NULL;
	return sc;
}

/* A booked job's start at its first issue, at: its outputs merged, its
 * time booked (sched_apply). */
static inline __attribute__((always_inline)) void booked_start(pica_shader_unit *s, const pica_job *job,
                                                               const pica_sched *sc, uint64_t at)
{
	s->job_id = job->id;
	shade_merge(s, sc, job->o);
	s->t.steps = 0;
	s->running = true;
	s->u.debug_pc = s->prog->entry;
	s->u.has_pc = true;
	s->shaded = false;
	sched_apply(s, sc, at);            /* its first issue: at (need_of <= at, sb_settle) */
}

/* After a booked END at now: the next job's start, dated now + 1, as
 * booked_tick would make it in a tick there, when that tick is sure to
 * (pops dated a cycle ahead, docs/speed-history.md "Vertices"): the job visible
 * then is in the in port already (vertex fetch steps after the units, so
 * it pushes nothing at now before this tick), END's issue leaves now + 1
 * free, and the job's path has a schedule.  The pop is dated now + 1
 * (sim_port_pop_at: vertex fetch sees the slot held until then), the
 * cycle now + 1 is booked busy, told to the watchdog at the next tick
 * (booked_busy), and settle takes it back if the run stops before it
 * (log_dated).  So a booked vertex costs its unit one tick, not two. */
static inline __attribute__((always_inline)) void booked_next(pica_shader_unit *s, uint64_t now)
{
	const uint64_t at = now + 1;
	if (at < s->next_issue || s->fail_pending || s->failed)
		return;
	const pica_job_ref *ref = sim_port_peek_sized(s->in, sizeof *ref, at);
	if (!ref)
		return;
	const pica_job *job = ref->job;
	const pica_sched *sc = booked_sched(s, job);
	if (!sc)
		return;
	sim_port_pop_at(s->in, at);
	booked_start(s, job, sc, at);
	s->u.stats.busy++;                 /* cycle at, the tick's busy */
	s->log_dated = true;
	if (!s->booked_busy)
		s->booked_busy = at;
	sim_unit_sleep_through(&s->u, at + sc->end_at);
}

static void booked_tick(sim_unit *u, uint64_t now);

/* booked_end out of line, for pica_shader_tick (inlined there it costs the
 * general path registers: 0.4 % more instructions with a timeline) */
static __attribute__((noinline)) void booked_end_general(pica_shader_unit *s, uint64_t now)
{
	booked_end(s, now);
}

static void pica_shader_tick(sim_unit *u, uint64_t now)
{
	pica_shader_unit *s = (pica_shader_unit *)u;
	if (s->pend_n && s->pending[s->pend_head].cycle <= now)
		flush_completions(s, now);
	if (s->booked_busy) {              /* the fast path's busy cycles: the watchdog's view */
		sim_unit_progress(u, s->booked_busy);
		s->booked_busy = 0;
	}
	if (s->fail_pending) {             /* the fast path met an error at this cycle */
		s->fail_pending = false;
		s->failed = true;
		s->running = false;
		u->halt = true;
		return;
	}
	if (s->failed)
		return;
	if (s->shade_end) {                /* a booked job's END (sched_apply) */
		booked_end_general(s, now);
		return;
	}
	if (!s->running) {
		const pica_job_ref *ref = s->start ? NULL : sim_port_peek_sized(s->in, sizeof *ref, now);
		const pica_job *job = ref ? ref->job : NULL;
		bool started = s->start ? s->start(s, now) : job != NULL;
		if (s->failed) {
			u->halt = true;
			return;
		}
		if (!started) {
			if (s->pend_n)
				sim_unit_sleep_until(u, now + 1);
			uint64_t r = sim_port_next_ready(s->in);
			if (r != UINT64_MAX)
				sim_unit_wake(u, r);
			return;
		}
		s->shaded = false;
		if (job) {
			s->job_id = job->id;
			/* a job shaded ahead whose path has a schedule: booked at its
			 * first issue, its outputs now; else the ordinary run, which
			 * books and computes the same (tests/units/test_pica_fast.c) */
			const bool books = books_ahead(s);
			if (books && s->prog->batch)
				u->tick = booked_tick;  /* from the next tick on (fixed for the run) */
			const pica_sched *sc = job->shaded && books ? pica_sched_find(s, job->sig) : NULL;
			s->shade_sched = sc;
			s->shaded = sc != NULL;
			if (sc) {
				shade_merge(s, sc, job->o);
			} else if (job->shaded) {   /* the registers the program reads */
				const pica_batch_plan *b = s->prog->batch;
				for (uint32_t bits = b->v_used; bits; bits &= bits - 1)
					s->t.v[__builtin_ctz(bits)] = job->v[__builtin_ctz(bits)];
			} else {
				memcpy(s->t.v, job->v, sizeof s->t.v);
			}
			sim_port_pop(s->in, now);
		}
		if (s->shaded) {           /* started when an instruction first runs on it */
			s->t.pc = s->prog->entry;
			s->t.steps = 0;
			s->t_lazy = true;
		} else {
			pica_thread_start(&s->t, s->prog);
			s->t_lazy = false;
		}
		s->running = true;
	}
	sim_unit_sleep_until(u, now + 1);
	u->debug_pc = s->t.pc;
	u->has_pc = true;
	if (now < s->next_issue) {
		if (s->wait_cause == SIM_STALL_COUNT)
			sim_unit_busy(u);                /* a multi-cycle issue */
		else
			sim_unit_stall(u, s->wait_cause);
		return;
	}
	const uint32_t pc = s->t.pc;
	bool is_end = false;
	if (pc < s->prog->ncode) {
		const pica_inst_meta *m = &s->prog->meta[pc];
		enum sim_stall cause;
		uint64_t need = need_of(s, m, &cause);
		is_end = m->is_end;
		if (is_end && need <= now && !s->start && sim_port_full(s->out)) {
			sim_unit_stall(u, SIM_STALL_OUTPUT_FULL);
			return;
		}
		if (need > now) {
			sim_unit_stall(u, cause);
			return;
		}
		if (s->shaded) {         /* the first issue of a job shaded ahead: book it */
			s->shaded = false;
			sched_apply(s, s->shade_sched, now);
			return;
		}
		/* a GS EMIT that completes a primitive needs room downstream */
		if (s->start && s->prog->inst[pc].op == PICA_OP_EMIT && s->t.emit_prim &&
		    sim_port_full(s->out)) {
			sim_unit_stall(u, SIM_STALL_OUTPUT_FULL);
			return;
		}
		if (!is_end && s->fast && !s->start && !s->env.general && !s->env.trace &&
		    !s->env.permissive && !sim_unit_recording(u)) {
			thread_begin(s);
			if (fast_run(s, now))
				return;
		}
	}
	thread_begin(s);
	s->now = now;
	pica_step_info info = { 0 };
	pica_thread *before = NULL;
	if (s->env.trace && (before = malloc(sizeof *before)))
		*before = s->t;
	/* an instruction with a fast form runs it, ticking or not (pica_fast.h) */
	enum pica_step_result r;
	if (!s->env.general && pc < s->prog->ncode &&
	    pica_fast_step(&s->t, s->prog, s->unif, &s->env, &info))
		r = is_end ? PICA_STEP_END : PICA_STEP_OK;
	else
		r = pica_step(&s->t, s->prog, s->unif, &s->env, &info, &s->err);
	if (before) {
		if (r != PICA_STEP_ERROR)
			s->env.trace(s->env.ctx, s->index, now, info.pc, before, &s->t);
		free(before);
	}
	if (r == PICA_STEP_ERROR) {
		s->failed = true;
		s->running = false;
		u->halt = true;
		return;
	}
	sim_unit_busy(u);
	const pica_inst_meta *m = &s->prog->meta[info.pc];
	uint32_t seq = (uint32_t)s->seq++;
	sim_tl_emit(u->tl, now, u->lane, SIM_TL_BEGIN, seq, info.pc);
	note_completion(s, issued(s, m, now, info.taken), seq);
	if (r == PICA_STEP_END) {
		if (s->start) {            /* geometry mode: the emits were the output */
			if (s->gs_unif)
				pica_gs_invocation_done(s->gs_unif);     /* b15 = true (pica200.md §1.1) */
		} else {
			push_result(s, now, false);
		}
		s->running = false;
		sim_unit_count(u, PICA_CTR_INVOCATIONS, 1);
	}
}

/* The tick of a unit that books shaded jobs (books_ahead: fixed for a
 * run, pica_shader_tick installs it): a booked job's END, and the start of
 * a job shaded ahead whose path has a schedule, as pica_shader_tick does
 * them with the checks that cannot fail there left out (no timeline, no
 * geometry mode, the scoreboard clear by then); anything else goes to
 * pica_shader_tick. */
static void booked_tick(sim_unit *u, uint64_t now)
{
	pica_shader_unit *s = (pica_shader_unit *)u;
	if (s->booked_busy) {              /* the watchdog's view, as pica_shader_tick */
		sim_unit_progress(u, s->booked_busy);
		s->booked_busy = 0;
	}
	if (s->shade_end) {
		booked_end(s, now);
		if (!s->shade_end)             /* END issued (not held by a full out port) */
			booked_next(s, now);
		return;
	}
	if (s->running || s->fail_pending || s->failed || now < s->next_issue) {
		sb_settle(s);
		pica_shader_tick(u, now);
		return;
	}
	const pica_job_ref *ref = sim_port_peek_sized(s->in, sizeof *ref, now);
	if (!ref) {
		const uint64_t r = sim_port_next_ready(s->in);
		if (r != UINT64_MAX)
			sim_unit_wake(u, r);
		return;
	}
	const pica_job *job = ref->job;
	const pica_sched *sc = booked_sched(s, job);
	if (!sc) {                          /* the ordinary run */
		sb_settle(s);
		pica_shader_tick(u, now);
		return;
	}
	sim_port_pop(s->in, now);
	sim_unit_sleep_until(u, now + 1);
	booked_start(s, job, sc, now);
}

void pica_shader_reset(pica_shader_unit *s)
{
	s->running = s->failed = false;
	s->job_id = 0;
	s->next_issue = 0;
	s->wait_cause = SIM_STALL_COUNT;
	memset(s->ready, 0, sizeof s->ready);
	s->writes_done = 0;
	s->seq = (uint64_t)s->index << 24;   /* instruction ids unique across units */
	s->now = 0;
	s->pend_head = s->pend_n = 0;
	s->fail_pending = false;
	s->booked_busy = 0;
	s->nlog = 0;
	s->log_rel = NULL;
	s->log_dated = false;
	s->shaded = s->shade_end = false;
	s->shade_sched = NULL;
	s->sb_lazy = NULL;
	s->t_lazy = false;
	s->sched_hit = NULL;
	s->u.tick = pica_shader_tick;
	pica_thread_reset(&s->t);
	memcpy(s->res.o, s->t.o[0], sizeof s->res.o);
	ulp_diag_clear(&s->err);
}

static void pica_shader_reset_unit(sim_unit *u) { pica_shader_reset((pica_shader_unit *)u); }

void pica_shader_init(pica_shader_unit *s, const char *name, uint32_t index,
                      const pica_program *prog, const pica_uniforms *unif,
                      const ulp_config *cfg, sim_port *in, sim_port *out)
{
	memset(s, 0, sizeof *s);
	sim_unit_init(&s->u, name, pica_shader_tick, PICA_COUNTERS, PICA_CTR_COUNT);
	s->u.reset = pica_shader_reset_unit;
	s->u.settle = pica_shader_settle;
	s->prog = prog;
	s->unif = unif;
	pica_env_from_config(&s->env, cfg);
	s->in = in;
	s->out = out;
	s->index = index;
	s->latency[PICA_CLS_ALU] = (uint16_t)cfg->pica_lat_alu;
	s->latency[PICA_CLS_SFU] = (uint16_t)cfg->pica_lat_sfu;
	s->latency[PICA_CLS_MOVA] = (uint16_t)cfg->pica_lat_mova;
	s->latency[PICA_CLS_FLOW] = 1;
	s->latency[PICA_CLS_NOP] = 1;
	s->issue_cycles = (uint16_t)cfg->pica_issue_cycles;
	s->flow_bubble = (uint16_t)cfg->pica_flow_bubble;
	/* The fast path runs at most half the watchdog's horizon ahead, and
	 * only when that leaves room for the longest wait between two issues
	 * (gap): its run ahead then ends before a watchdog that sees only its
	 * first issue could fire (docs/speed-history.md "Vertices"). */
	uint64_t lat = 1;
	for (int k = 0; k < 5; k++)
		lat = s->latency[k] > lat ? s->latency[k] : lat;
	const uint64_t gap = s->issue_cycles + s->flow_bubble + lat;
	const uint64_t wd = (uint64_t)cfg->watchdog_cycles;
	s->fast = wd == 0 || wd > 4 * gap;
	s->fast_window = wd == 0 ? UINT64_MAX / 4 : wd / 2;
	pica_shader_reset(s);
}

unsigned pica_vertex_units(const ulp_config *cfg, bool gs_bound)
{
	unsigned n = (unsigned)cfg->pica_units;
	return gs_bound && n > 1 ? n - 1 : n;
}

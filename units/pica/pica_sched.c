/* A shader unit's schedules, one per path of a program shaded ahead
 * (pica_shader.h pica_sched, docs/speed-history.md "Vertices"): built from the
 * unit's timing knobs, the time booked per vertex by pica_shader.c. */
#include <string.h>

#include "units/pica/pica_batch.h"
#include "units/pica/pica_fast.h"
#include "units/pica/pica_shader.h"

/* fast_run's loop for a vertex of path sig from its first issue at cycle 0,
 * the scoreboard clear, what the instructions do left out: what it books,
 * the state it leaves, its log.  The checks pica_fast_step and pica_step
 * make on the way (an output component written twice, pica.max_steps, the
 * output table at END) decide ok. */
static void sched_build(const pica_shader_unit *s, uint32_t sig, pica_sched *sc)
{
	const pica_program *p = s->prog;
	memset(sc, 0, sizeof *sc);
	sc->sig = sig;
	uint64_t ready[20] = { 0 };
	pica_batch_walk w;
	pica_batch_walk_start(p, &w);
	uint32_t pc = p->entry;
	bool taken;
	const pica_fast_inst *f0 = &p->fast[pc];
	if (f0->kind == PICA_FAST_GENERAL || f0->kind == PICA_FAST_END || s->env.max_steps < 1 ||
	    (sig & PICA_BATCH_BAD))
		return;                                /* fast_run would not start */
	uint64_t steps = 0;
	/* one instruction's effects that the checks see; false: a decline */
#define SCHED_RUN(pc_)                                                                   \
	do {                                                                             \
		const pica_fast_inst *fi_ = &p->fast[pc_];                               \
		if (steps >= s->env.max_steps)                                           \
			return;                                                          \
		steps++;                                                                 \
		if (fi_->kind != PICA_FAST_GENERAL && fi_->kind != PICA_FAST_NOP && fi_->to_o) { \
			if (sc->o_mask[fi_->dst] & fi_->wmask)                           \
				return;                                                  \
			sc->o_mask[fi_->dst] |= fi_->wmask;                              \
		}                                                                        \
		const uint8_t bit_ = p->batch->jump_bit[pc_];                            \
		if (!pica_batch_walk_next(p, &w, bit_ < 32 && (sig >> bit_ & 1), &taken)) \
			return;                                                          \
	} while (0)
	SCHED_RUN(pc);
	/* issued() at 0 */
	const pica_inst_meta *m0 = &p->meta[pc];
	uint64_t writes_done = s->latency[m0->cls];
	for (uint32_t bits = m0->writes; bits; bits &= bits - 1)
		ready[__builtin_ctz(bits)] = writes_done;
	sc->ready_mask = m0->writes;
	sc->instructions = 1;
	sc->taken = taken;
	uint64_t next_issue = s->issue_cycles;
	enum sim_stall wait_cause = SIM_STALL_COUNT;
	if (taken) {
		next_issue += s->flow_bubble;
		if (s->flow_bubble)
			wait_cause = SIM_STALL_FLOW;
	}
	sc->log[0] = pica_log_entry(0, SIM_STALL_DEPENDENCY, taken);
	unsigned n = 1;
	uint64_t c = 0, at, busy_last = 0;
	enum sim_stall cause;
	pc = w.pc;
	for (;;) {
		at = next_issue;
		if (at > c + 1) {                      /* book_wait */
			if (wait_cause == SIM_STALL_COUNT) {
				sc->busy += at - c - 1;
				busy_last = at - 1;
			} else {
				sc->stall[wait_cause] += at - c - 1;
			}
		}
		cause = SIM_STALL_DEPENDENCY;
		const pica_inst_meta *m = &p->meta[pc];
		const uint64_t need = pica_need(ready, writes_done, m, &cause);
		if (need > at) {
			sc->stall[cause] += need - at;
			at = need;
		}
		if (at > s->fast_window || n == PICA_FAST_RUN)
			return;                            /* fast_run would stop short of END */
		if (m->is_end)
			break;
		SCHED_RUN(pc);
		busy_last = at;
		sc->log[n++] = pica_log_entry(at, cause, taken);
		const uint64_t done = at + s->latency[m->cls];
		for (uint32_t bits = m->writes; bits; bits &= bits - 1)
			ready[__builtin_ctz(bits)] = done;
		sc->ready_mask |= m->writes;
		writes_done = done > writes_done ? done : writes_done;
		next_issue = at + s->issue_cycles;
		wait_cause = SIM_STALL_COUNT;
		sc->instructions++;
		if (taken) {
			sc->taken++;
			next_issue += s->flow_bubble;
			if (s->flow_bubble)
				wait_cause = SIM_STALL_FLOW;
		}
		c = at;
		pc = w.pc;
	}
#undef SCHED_RUN
	/* END: its own step (pica.max_steps) and the output table (ex_end) */
	if (steps >= s->env.max_steps)
		return;
	for (unsigned r = 0; r < 16; r++)
		if (p->out_need[r] & ~sc->o_mask[r])
			return;
	sc->busy += n - 1;
	sc->end_pc = pc;
	sc->end_at = at;
	sc->busy_last = busy_last;
	sc->next_issue = next_issue;
	sc->writes_done = writes_done;
	sc->wait_cause = (uint8_t)wait_cause;
	memcpy(sc->ready, ready, sizeof ready);
	sc->log[n++] = pica_log_entry(at, cause, false);
	sc->nlog = n;
	for (int k = 0; k < SIM_STALL_COUNT; k++)
		if (sc->stall[k])
			sc->stall_mask |= (uint8_t)(1u << k);
	for (unsigned r = 0; r < 16; r++) {
		if (sc->o_mask[r] == 0xF) {
			sc->o_whole |= (uint16_t)(1u << r);
			sc->whole[sc->n_whole++] = (uint8_t)r;
		} else if (sc->o_mask[r]) {
			sc->o_part |= (uint16_t)(1u << r);
		}
	}
	sc->ok = true;
}

const pica_sched *pica_sched_find(pica_shader_unit *s, uint32_t sig)
{
	if (s->sched_prog != s->prog || s->sched_steps != s->env.max_steps) {
		s->sched_prog = s->prog;
		s->sched_steps = s->env.max_steps;
		s->nsched = s->sched_last = 0;
		s->sched_hit = NULL;
	}
	const pica_sched *sc = NULL;
	if (s->sched_last < s->nsched && s->sched[s->sched_last].sig == sig)
		sc = &s->sched[s->sched_last];       /* most vertices take the last one's path */
	for (unsigned k = 0; k < s->nsched && !sc; k++)
		if (s->sched[k].sig == sig) {
			sc = &s->sched[k];
			s->sched_last = k;
		}
	if (!sc) {
		if (s->nsched == PICA_SCHED_PATHS)
			return NULL;
		sched_build(s, sig, &s->sched[s->nsched]);
		s->sched_last = s->nsched;
		sc = &s->sched[s->nsched++];
	}
	s->sched_hit = sc->ok ? sc : NULL;
	return s->sched_hit;
}

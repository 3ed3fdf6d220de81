#ifdef __linux__
#define _GNU_SOURCE                       /* sched_getaffinity */
#include <sched.h>
#endif

#include "sim/core/clock_par.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Where a part's events of one pass (phase 0) or one span closing (phase
 * 1) begin in its record. */
typedef struct par_mark {
	uint64_t cycle;
	size_t pos;
	unsigned phase;
} par_mark;

/* A part's record of one window: its events and marks. */
typedef struct par_rec {
	sim_tl_event *ev;
	size_t nev, capev;
	par_mark *mk;
	size_t nmk, capmk;
	bool lost;                        /* out of memory: the timeline fails */
} par_rec;

typedef struct par_part {
	sim_clock clk;
	sim_timeline tl;                  /* the part's units record here (with a timeline) */
	/* two records: the part fills rec[cur] in a window while the merger
	 * merges the other, the window before */
	par_rec rec[2];
	unsigned cur;
	unsigned first, count;            /* its units in the one clock */
	sim_unit *stand_in;               /* ticked last (may be NULL) */
	uint64_t until;                   /* the window's end */
	uint64_t lp0;                     /* every part's last progress at the window's start */
	uint64_t watchdog;                /* the one clock's watchdog (0: off) */
	enum sim_run_result rr;
	bool done;                        /* drained or halted */
	atomic_bool *halt;                /* set when a part halted: the others stop soon */
	double cpu;                       /* host: CPU seconds of its thread in the last window */
	ulp_diag d;
} par_part;

typedef struct par_run {
	par_part part[SIM_PAR_MAX_PARTS];
	unsigned nparts;
	pthread_mutex_t mu;
	pthread_cond_t go, fin;
	unsigned gen, pending;
	bool quit;
	atomic_bool halt;
	pthread_t th[SIM_PAR_MAX_PARTS];
	unsigned nth;
	/* with a timeline: the merger thread merges window k's records into
	 * the one timeline (the only thread that touches it while the parts
	 * are apart) while the parts run window k + 1 */
	sim_clock *c;
	pthread_cond_t mgo, mfin;
	unsigned mgen, mdone;             /* records handed to the merger, and merged */
	unsigned mset;                    /* which of the parts' records to merge */
	double mcpu;                      /* host: CPU seconds of the last merge */
	bool merger;                      /* its thread runs */
	pthread_t mth;
} par_run;

typedef struct par_worker {
	par_run *R;
	unsigned idx;
} par_worker;

unsigned sim_host_cores(void)
{
#ifdef __linux__
	cpu_set_t set;                    /* the cores this process may run on (taskset, cpusets) */
	if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
		return (unsigned)CPU_COUNT(&set);
#endif
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1u : (unsigned)n;
}

static bool grow(void **buf, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return true;
	size_t n = *cap ? *cap : 1024;
	while (n < need)
		n *= 2;
	void *p = realloc(*buf, n * size);
	if (!p)
		return false;
	*buf = p;
	*cap = n;
	return true;
}

static bool part_sink(void *ctx, const sim_tl_event *ev, size_t n)
{
	par_part *p = ctx;
	par_rec *r = &p->rec[p->cur];
	if (!grow((void **)&r->ev, &r->capev, r->nev + n, sizeof *r->ev)) {
		r->lost = true;
		return false;
	}
	memcpy(r->ev + r->nev, ev, n * sizeof *ev);
	r->nev += n;
	return true;
}

static void part_mark(void *ctx, uint64_t cycle, unsigned phase)
{
	par_part *p = ctx;
	par_rec *r = &p->rec[p->cur];
	const size_t pos = r->nev + sim_tl_pending(&p->tl);
	if (r->nmk && r->mk[r->nmk - 1].pos == pos) {   /* the last one recorded nothing */
		r->mk[r->nmk - 1] = (par_mark){ cycle, pos, phase };
		return;
	}
	if (!grow((void **)&r->mk, &r->capmk, r->nmk + 1, sizeof *r->mk)) {
		r->lost = true;
		return;
	}
	r->mk[r->nmk++] = (par_mark){ cycle, pos, phase };
}

/* Part p's units leave c for the part's own clock. */
static void split(sim_clock *c, par_part *p)
{
	sim_clock *k = &p->clk;
	sim_clock_init(k, 0, c->tl ? &p->tl : NULL);
	k->now = c->now;
	k->last_progress = c->last_progress;
	k->watchdog_cycles = 0;           /* checked at the windows' edges */
	k->next = c->next <= c->now ? c->now : UINT64_MAX;   /* a pass owed at now */
	for (unsigned i = 0; i < p->count; i++) {
		const unsigned j = p->first + i;
		sim_unit *u = c->unit[j];
		k->unit[i] = u;
		k->last_tick[i] = c->last_tick[j];
		u->clock_next = &k->next;
		u->clock_wheel = &k->wheel;
		if (u->clock_progress)
			u->clock_progress = &k->last_progress;
		u->sched_bit = UINT32_C(1) << i;
		if (c->tl)
			u->tl = &p->tl;
		if ((c->lane_due >> j) & 1u)
			k->lane_due |= UINT32_C(1) << i;
	}
	k->nunits = p->count;
	if (p->stand_in) {
		sim_unit *u = p->stand_in;
		u->wake = UINT64_MAX;
		u->wake_floor = 0;
		u->activity = u->last_activity = SIM_ACT_IDLE;
		u->tl = NULL;
		u->clock_next = &k->next;
		u->clock_wheel = &k->wheel;
		u->sched_bit = UINT32_C(1) << p->count;
		k->last_tick[p->count] = UINT64_MAX;
		k->unit[k->nunits++] = u;
	}
	if (c->tl) {
		k->mark = part_mark;
		k->mark_ctx = p;
	}
}

/* ... and come back. */
static void join(sim_clock *c, par_part *p)
{
	const sim_clock *k = &p->clk;
	for (unsigned i = 0; i < p->count; i++) {
		const unsigned j = p->first + i;
		sim_unit *u = k->unit[i];
		c->last_tick[j] = k->last_tick[i];
		u->clock_next = &c->next;
		u->clock_wheel = &c->wheel;
		if (u->clock_progress)
			u->clock_progress = &c->last_progress;
		u->sched_bit = UINT32_C(1) << j;
		u->tl = c->tl;
		c->lane_due &= ~(UINT32_C(1) << j);
		if ((k->lane_due >> i) & 1u)
			c->lane_due |= UINT32_C(1) << j;
	}
	if (k->now > c->now) {
		c->now = k->now;
		c->next = k->next;
	} else if (k->now == c->now && k->next < c->next) {
		c->next = k->next;
	}
	if (k->last_progress > c->last_progress)
		c->last_progress = k->last_progress;
}

/* A window's records (rec[set] of every part, their part timelines
 * flushed) into the one timeline, in the one clock's order: by pass cycle,
 * then phase, then part (step order). */
static void merge(sim_clock *c, par_run *R, unsigned set)
{
	size_t s[SIM_PAR_MAX_PARTS] = { 0 };
	bool lost = false;
	for (unsigned q = 0; q < R->nparts; q++)
		lost |= R->part[q].rec[set].lost;
	for (;;) {
		int best = -1;
		for (unsigned q = 0; q < R->nparts; q++) {
			const par_rec *r = &R->part[q].rec[set];
			if (s[q] >= r->nmk)
				continue;
			const par_mark *m = &r->mk[s[q]];
			if (best < 0) {
				best = (int)q;
				continue;
			}
			const par_mark *b = &R->part[best].rec[set].mk[s[best]];
			if (m->cycle < b->cycle || (m->cycle == b->cycle && m->phase < b->phase))
				best = (int)q;
		}
		if (best < 0)
			break;
		const par_rec *r = &R->part[best].rec[set];
		const size_t from = r->mk[s[best]].pos;
		const size_t to = s[best] + 1 < r->nmk ? r->mk[s[best] + 1].pos : r->nev;
		for (size_t e = from; e < to && e < r->nev; e++) {
			const sim_tl_event *ev = &r->ev[e];
			sim_tl_emit(c->tl, ev->cycle, ev->lane, (enum sim_tl_kind)ev->kind, ev->id, ev->arg);
		}
		s[best]++;
	}
	for (unsigned q = 0; q < R->nparts; q++)
		R->part[q].rec[set].nev = R->part[q].rec[set].nmk = 0;
	if (lost && c->tl) {                  /* as a sink that failed */
		c->tl->failed = true;
		c->tl->enabled = false;
	}
}

static double thread_cpu(void)
{
	struct timespec t;
	return clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t) == 0 ? (double)t.tv_sec + (double)t.tv_nsec * 1e-9 : 0.0;
}

/* Part p runs towards the window's end, but never into a cycle where the
 * one clock's watchdog could fire: that is at the earliest the last
 * progress of any part plus the watchdog's cycles, and a part knows of
 * every part's progress up to the window's start (lp0) and of its own
 * since.  Without a timeline the parts may end a window at different cycles
 * (sim_clock_run_parts). */
/* A part runs a long window in slices of this many cycles, looking between
 * them whether another part halted. */
enum { PAR_SLICE = 65536 };

static void run_window(par_part *p)
{
	p->cpu = 0;
	if (p->done)
		return;
	const double t0 = thread_cpu();
	sim_clock *k = &p->clk;
	p->rr = SIM_RUN_LIMIT;                /* already at its limit: it waits */
	for (;;) {
		uint64_t lim = p->until;
		if (p->watchdog) {
			const uint64_t lp = k->last_progress > p->lp0 ? k->last_progress : p->lp0;
			if (lp + p->watchdog < lim)
				lim = lp + p->watchdog;
		}
		if (lim <= k->now || atomic_load_explicit(p->halt, memory_order_relaxed))
			break;
		if (lim - k->now > PAR_SLICE)
			lim = k->now + PAR_SLICE;
		p->rr = sim_clock_run(k, lim, &p->d);
		if (p->rr == SIM_RUN_HALTED)
			atomic_store_explicit(p->halt, true, memory_order_relaxed);
		if (p->rr != SIM_RUN_LIMIT || k->now >= p->until)
			break;
	}
	if (p->rr == SIM_RUN_DRAINED || p->rr == SIM_RUN_HALTED)
		p->done = true;
	p->cpu = thread_cpu() - t0;
}

static void *worker(void *arg)
{
	const par_worker *w = arg;
	par_run *R = w->R;
	unsigned seen = 0;
	pthread_mutex_lock(&R->mu);
	for (;;) {
		while (R->gen == seen && !R->quit)
			pthread_cond_wait(&R->go, &R->mu);
		if (R->quit)
			break;
		seen = R->gen;
		pthread_mutex_unlock(&R->mu);
		run_window(&R->part[w->idx]);
		pthread_mutex_lock(&R->mu);
		if (--R->pending == 0)
			pthread_cond_signal(&R->fin);
	}
	pthread_mutex_unlock(&R->mu);
	return NULL;
}

static void *merger(void *arg)
{
	par_run *R = arg;
	unsigned seen = 0;
	pthread_mutex_lock(&R->mu);
	for (;;) {
		while (R->mgen == seen && !R->quit)
			pthread_cond_wait(&R->mgo, &R->mu);
		if (R->mgen == seen)              /* quit, nothing handed */
			break;
		seen = R->mgen;
		const unsigned set = R->mset;
		pthread_mutex_unlock(&R->mu);
		const double t0 = thread_cpu();
		merge(R->c, R, set);
		const double cpu = thread_cpu() - t0;
		pthread_mutex_lock(&R->mu);
		R->mcpu = cpu;
		R->mdone = seen;
		pthread_cond_signal(&R->mfin);
	}
	pthread_mutex_unlock(&R->mu);
	return NULL;
}

/* Waits until the merger has merged what it was handed; returns that
 * merge's CPU seconds (0: none). */
static double merge_wait(par_run *R)
{
	pthread_mutex_lock(&R->mu);
	while (R->mdone != R->mgen)
		pthread_cond_wait(&R->mfin, &R->mu);
	const double cpu = R->mcpu;
	R->mcpu = 0;
	pthread_mutex_unlock(&R->mu);
	return cpu;
}

static void stop_threads(par_run *R)
{
	pthread_mutex_lock(&R->mu);
	R->quit = true;
	pthread_cond_broadcast(&R->go);
	pthread_cond_broadcast(&R->mgo);
	pthread_mutex_unlock(&R->mu);
	for (unsigned t = 0; t < R->nth; t++)
		pthread_join(R->th[t], NULL);
	R->nth = 0;
	if (R->merger)
		pthread_join(R->mth, NULL);
	R->merger = false;
}

static void free_run(par_run *R)
{
	for (unsigned q = 0; q < R->nparts; q++) {
		par_part *p = &R->part[q];
		p->tl.nsinks = 0;                 /* nothing left to hand on */
		sim_tl_fini(&p->tl);
		for (unsigned k = 0; k < 2; k++) {
			free(p->rec[k].ev);
			free(p->rec[k].mk);
		}
	}
	pthread_cond_destroy(&R->go);
	pthread_cond_destroy(&R->fin);
	pthread_cond_destroy(&R->mgo);
	pthread_cond_destroy(&R->mfin);
	pthread_mutex_destroy(&R->mu);
	free(R);
}

enum sim_run_result sim_clock_run_parts(sim_clock *c, const sim_clock_parts *ps, uint64_t until,
                                        uint64_t window, bool *threaded, sim_par_host *host, ulp_diag *d)
{
	*threaded = false;
	const unsigned nparts = ps->n;
	if (nparts < 2 || nparts > SIM_PAR_MAX_PARTS || window < 1)
		return sim_clock_run(c, until, d);
	par_run *R = calloc(1, sizeof *R);
	if (!R)
		return sim_clock_run(c, until, d);
	atomic_init(&R->halt, false);
	pthread_mutex_init(&R->mu, NULL);
	pthread_cond_init(&R->go, NULL);
	pthread_cond_init(&R->fin, NULL);
	pthread_cond_init(&R->mgo, NULL);
	pthread_cond_init(&R->mfin, NULL);
	R->nparts = nparts;
	R->c = c;
	par_worker wk[SIM_PAR_MAX_PARTS];
	bool ok = true;
	for (unsigned q = 0; q < nparts && ok; q++) {
		par_part *p = &R->part[q];
		p->first = ps->first[q];
		p->count = ps->count[q];
		p->stand_in = ps->stand_in[q];
		p->halt = &R->halt;
		ulp_diag_clear(&p->d);
		ok = p->first + p->count <= c->nunits && p->count > 0 && p->count < SIM_CLOCK_MAX_UNITS;
		if (ok && c->tl) {
			ok = sim_tl_init(&p->tl) && sim_tl_add_sink(&p->tl, (sim_tl_sink){ p, part_sink, NULL });
			p->tl.enabled = c->tl->enabled;
		}
	}
	for (unsigned q = 1; q < nparts && ok; q++) {
		wk[q] = (par_worker){ R, q };
		ok = pthread_create(&R->th[R->nth], NULL, worker, &wk[q]) == 0;
		R->nth += ok;
	}
	if (!ok) {
		stop_threads(R);
		free_run(R);
		return sim_clock_run(c, until, d);
	}
	/* no merger thread: the main thread merges each window (the same) */
	R->merger = c->tl && pthread_create(&R->mth, NULL, merger, R) == 0;
	const unsigned cores = sim_host_cores();
	*threaded = true;
	for (unsigned q = 0; q < nparts; q++)
		split(c, &R->part[q]);
	if (ps->rewire)
		ps->rewire(ps->ctx, true);
	bool halted = false;
	for (;;) {
		/* T: the earliest part not done.  With a timeline every part
		 * not done is at T, the edge of a window; without, a part that
		 * stopped where the watchdog could fire is behind the others
		 * (and they all are at T when the run leaves the loop below) */
		uint64_t T = UINT64_MAX, lp = c->last_progress;
		for (unsigned q = 0; q < nparts; q++) {
			const par_part *p = &R->part[q];
			if (!p->done && p->clk.now < T)
				T = p->clk.now;
			if (p->clk.last_progress > lp)
				lp = p->clk.last_progress;
		}
		if (T == UINT64_MAX || T >= until)
			break;
		uint64_t E = until - T > window ? T + window : until;
		const uint64_t wd = c->watchdog_cycles;
		if (wd) {
			/* the watchdog could fire at T: the one clock goes on */
			if (lp + wd <= T)
				break;
			/* with a timeline the parts end every window together (the
			 * merge); without, each runs on while it makes progress */
			if (c->tl && E > lp + wd)
				E = lp + wd;
		}
		for (unsigned q = 0; q < nparts; q++) {
			R->part[q].until = E;
			R->part[q].lp0 = lp;
			R->part[q].watchdog = wd;
		}
		pthread_mutex_lock(&R->mu);
		R->gen++;
		R->pending = R->nth;
		pthread_cond_broadcast(&R->go);
		pthread_mutex_unlock(&R->mu);
		run_window(&R->part[0]);
		pthread_mutex_lock(&R->mu);
		while (R->pending)
			pthread_cond_wait(&R->fin, &R->mu);
		pthread_mutex_unlock(&R->mu);
		double mcpu = 0;                  /* the merge of the window before */
		if (c->tl) {
			for (unsigned q = 0; q < nparts; q++)
				sim_tl_flush(&R->part[q].tl);   /* into rec[cur] */
			const unsigned set = R->part[0].cur;
			if (R->merger) {
				mcpu = merge_wait(R);     /* the other records are free again */
				pthread_mutex_lock(&R->mu);
				R->mset = set;
				R->mgen++;
				pthread_cond_signal(&R->mgo);
				pthread_mutex_unlock(&R->mu);
			} else {
				merge(c, R, set);
			}
			for (unsigned q = 0; q < nparts; q++)
				R->part[q].cur = set ^ 1u;
		}
		if (host) {
			/* idle cores: the slowest part, or the merger, or the cores
			 * shared by the parts and the merger */
			double worst = mcpu, sum = mcpu;
			for (unsigned q = 0; q < nparts; q++) {
				sum += R->part[q].cpu;
				worst = R->part[q].cpu > worst ? R->part[q].cpu : worst;
			}
			if (mcpu > 0 && cores < nparts + 1 && sum / cores > worst)
				worst = sum / cores;
			host->cpu_sum += sum;
			host->cpu_critical += worst;
			host->windows++;
		}
		for (unsigned q = 0; q < nparts; q++)
			halted |= R->part[q].rr == SIM_RUN_HALTED && R->part[q].done;
		if (halted)
			break;
	}
	if (R->merger) {                      /* the last window's merge */
		const double mcpu = merge_wait(R);
		if (host) {
			host->cpu_sum += mcpu;
			host->cpu_critical += mcpu;
		}
	}
	stop_threads(R);
	if (ps->rewire)
		ps->rewire(ps->ctx, false);
	c->next = UINT64_MAX;                 /* the other units sleep */
	for (unsigned q = 0; q < nparts; q++)
		join(c, &R->part[q]);
	free_run(R);
	if (halted)
		return SIM_RUN_HALTED;
	/* The parts are drained or at the window's edge, the other units
	 * asleep: the one clock ends the run (drained, the limit, or the
	 * watchdog over units left waiting) or goes on from here. */
	return sim_clock_run(c, until, d);
}

/* One clock's units on several host threads, with the one clock's results
 * (docs/speed-history.md "Two host threads").
 *
 * A clock's units may split into parts that no longer interact: no port,
 * no wake, no memory between two parts from the current cycle on, and every
 * unit outside the parts asleep for good (wake UINT64_MAX, not waiting),
 * whatever the parts do (a wake the parts could still send it is cut by the
 * caller).  Tegra 3's two GR3D blocks are such parts once setup has handed
 * them the last triangle (units/gpu.c).
 *
 * The parts then run in windows of `window` cycles (UINT64_MAX: one window
 * for the rest of the run), each part on its own clock and thread: every
 * part simulates [T, T + window), all wait for each other, and with a
 * timeline a merger thread merges the window's events into the one
 * timeline, while the parts run the next window (the only thread that
 * touches the timeline until the run leaves the parts), in the order the
 * one clock would have emitted them (by pass
 * cycle, then before or after the pass's span closing, then part by part
 * in step order: part 0's units come before part 1's).  The units' stats,
 * the cycle the run ends at, the activity spans and every event are those
 * of sim_clock_run on the one clock.  No part runs into a cycle where the
 * one clock's watchdog could fire (every part's last progress known at the
 * window's start, or its own since, plus the watchdog's cycles): with a
 * timeline the window is cut there (lock-step); without, a part stops
 * there while the others run on, and the next window brings it up to
 * date.  When the watchdog could fire at the earliest part's cycle, every
 * part is there: they join the one clock again and the run goes on there,
 * one thread.
 *
 * Not exact: a unit that halts (an internal error; the draw fails) stops
 * its own part at once, while the other parts may have run to the end of
 * the window, or of their slice of a long window (they look between slices
 * of 65536 cycles whether a part halted). */
#ifndef ULP_SIM_CLOCK_PAR_H
#define ULP_SIM_CLOCK_PAR_H

#include "sim/core/clock.h"

enum { SIM_PAR_MAX_PARTS = 2 };

/* The units [first[p], first[p] + count[p]) of c (step order indices) are
 * part p.  stand_in[p] (NULL: none) is a unit of the caller's, not on c,
 * ticked last on part p's clock: it takes the wakes part p would send a unit
 * outside the parts whose tick would find nothing to do, so that such a wake
 * still costs the clock what it cost the one clock (a wake for the current
 * cycle makes the clock run the next cycle too).  rewire(ctx, true) is
 * called once the parts run apart (point those wakes at the stand-ins),
 * rewire(ctx, false) before they join c again. */
typedef struct sim_clock_parts {
	unsigned n;
	unsigned first[SIM_PAR_MAX_PARTS], count[SIM_PAR_MAX_PARTS];
	sim_unit *stand_in[SIM_PAR_MAX_PARTS];
	void (*rewire)(void *ctx, bool apart);
	void *ctx;
} sim_clock_parts;

/* Host figures of a run in parts (never results): CPU seconds the parts'
 * threads spent in their windows (and the merger in its merges), summed,
 * and summed per window over the slowest part only (with a merger: the
 * slowest of the parts and the merge of the window before, or their sum
 * over the host's cores when it has fewer than the threads): what the
 * windows cost on idle cores, so sum / critical bounds the speed-up of
 * that stretch. */
typedef struct sim_par_host {
	double cpu_sum, cpu_critical;
	uint64_t windows;
} sim_par_host;

/* Runs c until `until` as sim_clock_run would, the parts on ps->n threads
 * (the calling one and ps->n - 1 others).  false in *threaded when it ran
 * on one thread (a thread could not start, or memory ran out first).  host
 * (may be NULL) gets the figures added. */
enum sim_run_result sim_clock_run_parts(sim_clock *c, const sim_clock_parts *ps, uint64_t until,
                                        uint64_t window, bool *threaded, sim_par_host *host, ulp_diag *d);

/* Host cores this process may run on (its CPU affinity; else the cores
 * online; at least 1). */
unsigned sim_host_cores(void);

#endif

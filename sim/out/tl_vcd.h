/* Timeline sink: VCD (IEEE 1364 value change dump) for GTKWave or Surfer.
 * docs/outputs.md has an example.
 *
 * $timescale 1ns: one time unit per GPU cycle.  Scope "gpu", then one
 * module scope per lane with these variables:
 *   activity  reg 8   0 idle, 1 busy, 2 + cause stall:<cause>; the header
 *                     $comment lists every code with its name;
 *   item      reg 32  id of the newest item in the lane (x when empty);
 *   arg       reg 32  that item's arg (pc or EXEC index; x when empty);
 *   inflight  reg 16  items in the lane (BEGIN without END yet);
 *   instant   event   SIM_TL_INSTANT events.
 * Only the value at the end of a cycle is dumped: an item that begins and
 * ends in the same cycle shows in no variable.
 *
 * The header is written at the first chunk, declaring the lanes the
 * timeline has then (units register their lanes when added to the clock);
 * events on later lanes are dropped and counted (tl_vcd_dropped).  Events
 * older than the last dumped time are dumped at that time (VCD time only
 * moves forward).  Memory: per lane state and its in-flight items (at most
 * 65535 per lane; more are counted as dropped), and the text buffer and
 * tables of the writer and its cache of item ids' text (about 205 KiB).
 *
 * Use as tl_chrome.h: open, add the sink, run, sim_tl_fini, then
 * tl_vcd_close (commit; false with d on a write error, no file left) or
 * tl_vcd_abort. */
#ifndef ULP_SIM_TL_VCD_H
#define ULP_SIM_TL_VCD_H

#include <stdbool.h>
#include <stdint.h>

#include "base/diag.h"
#include "sim/core/timeline.h"

typedef struct tl_vcd_opts {
	const sim_timeline *tl;     /* lane names (read at the first chunk) */
	const char *top;            /* top scope name; NULL: "gpu" */
} tl_vcd_opts;

typedef struct tl_vcd tl_vcd;

tl_vcd *tl_vcd_open(const char *path, const tl_vcd_opts *opts, ulp_diag *d);
sim_tl_sink tl_vcd_sink(tl_vcd *w);
uint64_t tl_vcd_dropped(const tl_vcd *w);
bool tl_vcd_close(tl_vcd *w, ulp_diag *d);   /* frees w */
void tl_vcd_abort(tl_vcd *w);              /* frees w, no file */

#endif

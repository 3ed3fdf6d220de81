/* Timeline sink: Chrome trace-event JSON that opens in the Perfetto UI
 * (ui.perfetto.dev) and in chrome://tracing.  docs/outputs.md has an example.
 *
 *   {"traceEvents":[ ...one event per line... ],
 *    "displayTimeUnit":"ns","otherData":{...}}
 *
 * One pid (the GPU).  Per lane L:
 *   tid (L+1)*1000          "<lane>": activity spans as "X" events named
 *                           "busy" or "stall:<cause>" (idle is a gap);
 *   tid (L+1)*1000 + 1 + k  "<lane> #k": items (BEGIN..END) as "X" events.
 *                           An item takes the lowest free slot k of its lane,
 *                           so items that overlap in time never share a track
 *                           (Perfetto cannot draw overlapping slices on one).
 * Instants are "i" events on the lane's activity track.
 *
 * Time: ts is in µs.  With clock_mhz = 0 one cycle is 1 µs (ts = cycle);
 * otherwise ts = cycle / clock_mhz (real time at that clock, to the ns
 * below: 3 decimals).  otherData
 * says which.
 *
 * Streaming: an "X" event is written when its span ends, so memory holds
 * only the open span and the in-flight items of each lane (at most
 * TL_CHROME_MAX_SLOTS per lane; more are dropped and counted in otherData).
 * Spans and items still open at close end at the last cycle seen.
 *
 * Use: w = tl_chrome_open(); sim_tl_add_sink(tl, tl_chrome_sink(w)); run;
 * sim_tl_fini(tl) (flushes); tl_chrome_close(w, d) commits the file (false
 * with d on a write error: no file is left) or tl_chrome_abort(w). */
#ifndef ULP_SIM_TL_CHROME_H
#define ULP_SIM_TL_CHROME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "sim/core/timeline.h"

enum { TL_CHROME_MAX_SLOTS = 512 };

/* Writes a slice name for an item into buf (NUL-terminated, n bytes). */
typedef void (*tl_label_fn)(void *ctx, uint16_t lane, uint32_t id, uint32_t arg,
                            char *buf, size_t n);

typedef struct tl_chrome_opts {
	const sim_timeline *tl;     /* lane names (read while events arrive) */
	const char *process_name;   /* NULL: "GPU" */
	uint32_t clock_mhz;         /* 0: 1 cycle = 1 µs */
	tl_label_fn label;          /* NULL: items are named "0x<arg>" */
	void *label_ctx;
} tl_chrome_opts;

typedef struct tl_chrome tl_chrome;

tl_chrome *tl_chrome_open(const char *path, const tl_chrome_opts *opts, ulp_diag *d);
sim_tl_sink tl_chrome_sink(tl_chrome *w);
/* Items dropped because a lane had TL_CHROME_MAX_SLOTS in flight. */
uint64_t tl_chrome_dropped(const tl_chrome *w);
bool tl_chrome_close(tl_chrome *w, ulp_diag *d);   /* frees w */
void tl_chrome_abort(tl_chrome *w);                /* frees w, no file */

#endif

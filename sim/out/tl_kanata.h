/* Timeline sink: Kanata v4 log for the Konata pipeline viewer.
 * docs/outputs.md has an example.
 *
 * One Kanata instruction per item (id, arg) as BEGIN announces it: a PICA200
 * instruction (id = issue seq, arg = pc) or a Tegra quad-EXEC (id = quad,
 * arg = EXEC index).  Every lane the item passes through is a stage named
 * by the lane, on Kanata lane 0:
 *
 *   BEGIN(lane L, id, arg)   the first time: I <serial> <id> 0, L <serial> 0
 *                            <label>, L <serial> 1 <id/arg>; then S <serial>
 *                            0 <L's name> (an open stage in another lane is
 *                            ended first with E: one stage at a time);
 *   END(lane L, id)          matched by (lane, id), arg ignored (a PICA END
 *                            carries no pc); E if L is the open stage.
 *
 * Retire (design): R <serial> <n> 0 once the item has left its last lane,
 * i.e. when no lane holds it at the end of the cycle of its last END plus
 * retire_after cycles (0: that same cycle).  Waiting to the end of the cycle
 * makes the rule independent of the order units tick in a cycle; a non-zero
 * retire_after bridges port latencies between units (an item in flight in a
 * port is held by no lane).  A BEGIN with the same (id, arg) after the
 * retirement starts a new instruction.  Items still open at close are
 * retired at the last cycle (flushed: R ... 1).
 *
 * When the caller knows the pipeline, last_lanes (a lane bit mask, e.g. DW
 * for the GR3D, every EXEC passes it) replaces the grace: an item retires at
 * the end of the cycle in which it leaves a last lane and no lane holds it;
 * leaving any other lane never retires it, however long it waits in a port.
 *
 * Item keys: (id, arg), shared by all lanes (a GR3D quad keeps its id from
 * PSEQ to DW).  With lane_local the key is (lane, id, arg): each PICA200
 * shader unit numbers its own instructions from 0.  With gr3d_domains the
 * lanes of one GR3D block share keys and every other lane has its own (a
 * replay: vertex items and quads, and block A's and B's quads, never merge).
 *
 * Time only moves forward: C= <first cycle>, then C <delta>; an event older
 * than the current cycle is written at the current cycle.
 * Memory: the live items (at most TL_KANATA_MAX_LIVE; more are dropped and
 * counted) and the pending retirements.
 *
 * Use as tl_chrome.h: open, add the sink, run, sim_tl_fini, then
 * tl_kanata_close (commit; false with d on a write error, no file left) or
 * tl_kanata_abort. */
#ifndef ULP_SIM_TL_KANATA_H
#define ULP_SIM_TL_KANATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "sim/core/timeline.h"

enum { TL_KANATA_MAX_LIVE = 1 << 20 };

/* Left-pane text for an item first seen in lane (NUL-terminated, n bytes;
 * tabs and newlines are replaced by spaces). */
typedef void (*tl_kanata_label_fn)(void *ctx, uint16_t lane, uint32_t id, uint32_t arg,
                                   char *buf, size_t n);

typedef struct tl_kanata_opts {
	const sim_timeline *tl;       /* lane names (read while events arrive) */
	uint32_t retire_after;        /* cycles an item may be in no lane */
	uint64_t last_lanes;          /* bit L: lane L is a last lane (0: none) */
	bool lane_local;              /* ids are numbered per lane (PICA units) */
	/* ids are numbered per pipeline: the GR3D fragment lanes of one block
	 * (raster, zs, pseq, mfu, tex, alu, dw; block B's with "_b") share keys,
	 * every other lane (shader units, geometry units) keys its own */
	bool gr3d_domains;
	tl_kanata_label_fn label;     /* NULL: "<lane> 0x<arg> #<id>" */
	void *label_ctx;
} tl_kanata_opts;

typedef struct tl_kanata tl_kanata;

tl_kanata *tl_kanata_open(const char *path, const tl_kanata_opts *opts, ulp_diag *d);
sim_tl_sink tl_kanata_sink(tl_kanata *w);
uint64_t tl_kanata_dropped(const tl_kanata *w);
bool tl_kanata_close(tl_kanata *w, ulp_diag *d);   /* frees w */
void tl_kanata_abort(tl_kanata *w);                /* frees w, no file */

#endif

/* The VCD writer tests' rig (test_tl_vcd_*.c): a timeline with lanes "a",
 * "b", ... writing a VCD to a file in a fresh temporary folder, recording
 * on; the file's text read back when it is closed. */
#ifndef ULP_TESTS_SIM_TL_VCD_RIG_H
#define ULP_TESTS_SIM_TL_VCD_RIG_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fileio.h"
#include "sim/out/tl_vcd.h"
#include "tests/test_util.h"

typedef struct vcd_rig {
	char *dir;
	char path[512];
	sim_timeline tl;
	ulp_diag d;
	tl_vcd *v;
} vcd_rig;

/* nlanes (1..4) lanes "a", "b", "c", "d", ids 0.. in that order */
static inline void rig_open(vcd_rig *r, const char *name, unsigned nlanes)
{
	static const char *const NAMES[] = { "a", "b", "c", "d" };
	cr_assert(nlanes >= 1 && nlanes <= 4);
	r->dir = test_tmpdir();
	cr_assert(r->dir);
	snprintf(r->path, sizeof r->path, "%s/%s", r->dir, name);
	cr_assert(sim_tl_init(&r->tl));
	for (unsigned k = 0; k < nlanes; k++)
		cr_assert_eq(sim_tl_lane(&r->tl, NAMES[k]), (uint16_t)k);
	ulp_diag_clear(&r->d);
	r->v = tl_vcd_open(r->path, &(tl_vcd_opts){ .tl = &r->tl }, &r->d);
	cr_assert(r->v, "%s", r->d.msg);
	cr_assert(sim_tl_add_sink(&r->tl, tl_vcd_sink(r->v)));
	r->tl.enabled = true;
}

/* Ends the timeline, closes the VCD and returns its text (free it, then
 * rig_remove). */
static inline char *rig_close(vcd_rig *r)
{
	sim_tl_fini(&r->tl);
	cr_assert(tl_vcd_close(r->v, &r->d), "%s", r->d.msg);
	size_t n = 0;
	char *text = ulp_read_file(r->path, &n, &r->d);
	cr_assert(text, "%s", r->d.msg);
	return text;
}

static inline void rig_remove(vcd_rig *r)
{
	remove(r->path);
	remove(r->dir);
	free(r->dir);
}

/* The text's value changes: from the line after "$dumpvars"'s "$end" */
static inline char *rig_body(char *text)
{
	const char *dv = strstr(text, "$dumpvars\n");
	cr_assert(dv);
	char *end = strstr(dv, "$end\n");
	cr_assert(end);
	return end + 5;
}

#endif

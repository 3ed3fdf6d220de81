/* The VCD writer's event kinds and a lane's shown item (sim/out/tl_vcd.c),
 * against the text they must give.
 *
 * - The kinds are told apart by tests in order of frequency (END, BEGIN,
 *   ACTIVITY, INSTANT); any other kind is ignored: it neither marks its lane
 *   to be dumped (which would put the lane earlier in its cycle's order) nor
 *   shows an instant.
 * - What the file shows of a lane's item is known from the in-flight count
 *   it shows (an item is shown exactly when that is not 0): a lane emptied
 *   and given the same item again shows the item's id and arg again, though
 *   the last item shown (out_item) is that very one. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "tests/sim/tl_vcd_rig.h"

static void ev(vcd_rig *r, uint64_t cycle, unsigned lane, unsigned kind, uint32_t id, uint32_t arg)
{
	sim_tl_emit(&r->tl, cycle, (uint16_t)lane, (enum sim_tl_kind)kind, id, arg);
}

/* Lane a's variables are '!' (activity), '"' (item), '#' (arg), '$'
 * (in flight), '%' (instant); lane b's '&' ... '*'. */
Test(tl_vcd_kinds, item_shown_again_after_the_lane_emptied)
{
	vcd_rig r;
	rig_open(&r, "again.vcd", 2);
	ev(&r, 1, 0, SIM_TL_BEGIN, 9, 2);
	ev(&r, 2, 0, SIM_TL_END, 9, 0);
	ev(&r, 3, 0, SIM_TL_BEGIN, 9, 2);          /* the last item shown, again */
	ev(&r, 4, 0, SIM_TL_END, 9, 0);
	ev(&r, 4, 0, SIM_TL_BEGIN, 10, 2);         /* replaced: its id only */
	ev(&r, 5, 0, SIM_TL_END, 10, 0);
	ev(&r, 5, 0, SIM_TL_BEGIN, 10, 3);         /* the same id again: its arg only */
	ev(&r, 6, 0, SIM_TL_ACTIVITY, 0, 1);
	ev(&r, 6, 0, SIM_TL_END, 10, 0);
	ev(&r, 6, 0, SIM_TL_BEGIN, 10, 3);         /* unchanged: the activity only */
	char *text = rig_close(&r);
	rig_remove(&r);
	const char *body = rig_body(text);
	cr_assert_str_eq(body, "#1\nb1001 \"\nb10 #\nb1 $\n"
	                       "#2\nbx \"\nbx #\nb0 $\n"
	                       "#3\nb1001 \"\nb10 #\nb1 $\n"
	                       "#4\nb1010 \"\n"
	                       "#5\nb11 #\n"
	                       "#6\nb1 !\n");
	free(text);
}

/* The same stream with and without events of other kinds (4, 9, 255): the
 * same file.  Each such event comes first in its lane's cycle or alone
 * there, before the other lane's first event; none is the last event (the
 * time moves at any event, whatever its kind). */
static void stream(vcd_rig *r, bool others)
{
	for (uint32_t k = 0; k < 40; k++) {
		const uint64_t t = 10 + 3 * (uint64_t)k;
		if (others)
			ev(r, t, 1, 4 + 5 * (k % 3) + (k % 3 == 2 ? 236 : 0), 77, 1);   /* 4, 9, 255 */
		ev(r, t, 0, SIM_TL_BEGIN, 100 + k, k & 3);
		if (k & 1)
			ev(r, t, 1, SIM_TL_ACTIVITY, 0, k & 7);
		if (others && (k & 2))
			ev(r, t + 1, 0, 9, 5, 5);         /* alone in its cycle */
		ev(r, t + 2, 0, SIM_TL_END, 100 + k, 0);
		if (k % 5 == 0)
			ev(r, t + 2, 1, SIM_TL_INSTANT, 0, 3);
	}
	ev(r, 200, 0, SIM_TL_ACTIVITY, 0, 0);
}

Test(tl_vcd_kinds, other_kinds_are_ignored)
{
	vcd_rig a, b;
	rig_open(&a, "plain.vcd", 2);
	stream(&a, false);
	char *text_a = rig_close(&a);
	rig_remove(&a);
	rig_open(&b, "others.vcd", 2);
	stream(&b, true);
	char *text_b = rig_close(&b);
	rig_remove(&b);
	const char *body_a = rig_body(text_a);
	cr_assert(strstr(body_a, "#10\nb1100100 \"\nb0 #\nb1 $\n"), "lane a first at #10");
	cr_assert(strstr(body_a, "1*\n"), "an instant shown");
	cr_assert_str_eq(text_b, text_a);
	free(text_a);
	free(text_b);
}

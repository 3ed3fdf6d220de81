/* The VCD writer's fast paths for items (sim/out/tl_vcd.c), against the
 * text they must give.
 *
 * In-flight items at their limits: a BEGIN takes one compare against the
 * lane's limit (lim: the items' room, or MAX_INFLIGHT = 65535 when that is
 * less) and only past it grows the items or drops the item.  One lane takes
 * 70 000 BEGINs in one cycle and then more: the items grow through 16, 32,
 * ... 65536, every BEGIN past 65 535 in flight is dropped and counted, and
 * the file shows the 65 535th item as the newest and 65 535 in flight.
 *
 * Item ids' text from the writer's cache (w->ids): below. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/sim/tl_vcd_rig.h"

enum { BEGINS = 70000, LIMIT = 65535 };

/* "b<v in binary> <code>\n" */
static void bin_line(char *out, size_t cap, uint32_t v, const char *code)
{
	char t[40];
	size_t n = 0;
	do {
		t[n++] = (char)('0' + (v & 1u));
		v >>= 1;
	} while (v);
	char *p = out;
	*p++ = 'b';
	while (n)
		*p++ = t[--n];
	snprintf(p, cap - (size_t)(p - out), " %s\n", code);
}

Test(tl_vcd_inflight, limit_drops_and_counts)
{
	vcd_rig r;
	rig_open(&r, "f.vcd", 1);
	sim_timeline *tl = &r.tl;
	for (uint32_t i = 1; i <= BEGINS; i++)
		sim_tl_emit(tl, 5, 0, SIM_TL_BEGIN, i, i & 7u);
	/* the newest in flight ends; a dropped one's END changes nothing */
	sim_tl_emit(tl, 6, 0, SIM_TL_END, LIMIT, 0);
	sim_tl_emit(tl, 6, 0, SIM_TL_END, LIMIT + 1u, 0);
	sim_tl_emit(tl, 7, 0, SIM_TL_BEGIN, 900000u, 3);
	sim_tl_emit(tl, 7, 0, SIM_TL_BEGIN, 900001u, 4);   /* dropped */
	sim_tl_fini(tl);
	cr_expect_eq(tl_vcd_dropped(r.v), BEGINS - LIMIT + 1u, "dropped %llu",
	             (unsigned long long)tl_vcd_dropped(r.v));
	cr_assert(tl_vcd_close(r.v, &r.d), "%s", r.d.msg);
	size_t n = 0;
	char *text = ulp_read_file(r.path, &n, &r.d);
	cr_assert(text, "%s", r.d.msg);
	const char *body = strstr(text, "#5\n");
	cr_assert(body, "no #5");
	/* lane 0's codes: item '"', arg '#', inflight '$' */
	char want[256], l1[64], l2[64], l3[64];
	bin_line(l1, sizeof l1, LIMIT, "\"");
	bin_line(l2, sizeof l2, LIMIT & 7u, "#");
	bin_line(l3, sizeof l3, LIMIT, "$");
	snprintf(want, sizeof want, "#5\n%s%s%s", l1, l2, l3);
	cr_expect(strncmp(body, want, strlen(want)) == 0, "at #5:\n%.200s\nwant\n%s", body, want);
	bin_line(l1, sizeof l1, LIMIT - 1u, "\"");
	bin_line(l2, sizeof l2, (LIMIT - 1u) & 7u, "#");
	bin_line(l3, sizeof l3, LIMIT - 1u, "$");
	char want6[256];
	snprintf(want6, sizeof want6, "#6\n%s%s%s", l1, l2, l3);
	const char *at6 = strstr(body, "#6\n");
	cr_assert(at6, "no #6");
	cr_expect(strncmp(at6, want6, strlen(want6)) == 0, "at #6:\n%.200s\nwant\n%s", at6, want6);
	bin_line(l1, sizeof l1, 900000u, "\"");
	bin_line(l2, sizeof l2, 3, "#");
	bin_line(l3, sizeof l3, LIMIT, "$");
	char want7[256];
	snprintf(want7, sizeof want7, "#7\n%s%s%s", l1, l2, l3);
	const char *at7 = strstr(at6, "#7\n");
	cr_assert(at7, "no #7");
	cr_expect(strcmp(at7, want7) == 0, "at #7:\n%.200s\nwant\n%s", at7, want7);
	free(text);
	rig_remove(&r);
}

/* Item ids' text from the writer's cache of ids (w->ids, by the id's low
 * 10 bits): id 0 first (an empty entry of tag 0 would pass for it), ids
 * that share an entry in turn (v, v + 1024, v + 2^31), the
 * ids an empty entry's tag (~i) stands for, 0 and 2^32 - 1, each dumped on
 * two lanes; every item line is checked against its binary. */
Test(tl_vcd_inflight, item_ids_through_the_cache)
{
	static const uint32_t ids[] = {
		0, 5, 1029, 5, 0x80000005u, 1029, 0xffffffffu, 0xfffffc00u, 0, 0x3ffu, 0xfffffbffu, 0x400u, 0,
		0xffffffffu, 7, 0xfffffff8u, 7, 1u << 20, (1u << 20) + 1024u, 1u << 20, 0x12345678u, 0x12345678u + 1024u,
	};
	enum { N = sizeof ids / sizeof ids[0] };
	vcd_rig r;
	rig_open(&r, "ids.vcd", 2);
	sim_timeline *tl = &r.tl;
	/* cycle 10 + 2k: the item begins on lane 0 (the one before it ends);
	 * at 11 + 2k it moves to lane 1 */
	for (unsigned k = 0; k < N; k++) {
		uint64_t t = 10 + 2 * k;
		if (k)
			sim_tl_emit(tl, t, 0, SIM_TL_END, ids[k - 1], 0);
		sim_tl_emit(tl, t, 0, SIM_TL_BEGIN, ids[k], 1);
		if (k)
			sim_tl_emit(tl, t + 1, 1, SIM_TL_END, ids[k - 1], 0);
		sim_tl_emit(tl, t + 1, 1, SIM_TL_BEGIN, ids[k], 1);
	}
	char *text = rig_close(&r);
	const char *p = strstr(text, "#10\n");
	cr_assert(p, "no #10");
	for (unsigned k = 0; k < N; k++) {
		for (unsigned lane = 0; lane < 2; lane++) {
			char stamp[32], line[64];
			snprintf(stamp, sizeof stamp, "#%u\n", 10 + 2 * k + lane);
			p = strstr(p, stamp);
			cr_assert(p, "no %s", stamp);
			p += strlen(stamp);
			/* item codes: lane 0 '"', lane 1 '\'' */
			bin_line(line, sizeof line, ids[k], lane ? "'" : "\"");
			const bool same = k && ids[k] == ids[k - 1];
			if (!same)
				cr_expect(strncmp(p, line, strlen(line)) == 0, "id %u (%#x) on lane %u:\n%.60s\nwant %s", k,
				          ids[k], lane, p, line);
		}
	}
	free(text);
	rig_remove(&r);
}

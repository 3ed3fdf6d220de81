/* The input of fuzz_replay_report, fed as `ulpsim replay --merge` feeds
 * it (traces/replay/replay_report.h), shared with the suite's reproducer
 * test (tests/cli/test_fuzz_repro.c): one or more reports separated by
 * form feeds ('\f', at most FUZZ_REPORTS of them; the rest is ignored),
 * each read as a shard's report, then merged; a merge that succeeds is
 * printed as the summary and written as a report, which must read back
 * and write again to the same bytes.  A report alone is printed and
 * written too. */
#ifndef ULP_FUZZ_REPORT_H
#define ULP_FUZZ_REPORT_H

#include <stdio.h>

#include "base/diag.h"
#include "fuzz/fuzz.h"
#include "traces/replay/replay_report.h"

enum { FUZZ_REPORTS = 8 };

/* The summary (to memory) and the report of r; false when the report does
 * not read back as itself. */
static inline bool fuzz_report_round_trip(const rdir_run *r)
{
	char *buf = NULL;
	size_t blen = 0;
	FILE *f = open_memstream(&buf, &blen);
	if (f) {
		rdir_summary_print(r, f);
		fclose(f);
	}
	free(buf);
	char *text = rdir_report_text(r);
	if (!text)
		return true;                           /* out of memory */
	rdir_report back;
	ulp_diag d;
	ulp_diag_clear(&d);
	bool ok = rdir_report_parse(&back, text, "written.json", &d);
	if (ok) {
		char *again = rdir_report_text(&back.run);
		ok = !again || !strcmp(again, text);
		free(again);
	}
	rdir_report_free(&back);
	free(text);
	return ok;
}

/* 1: every report read and merged; 0: refused, with d; -1: a report this
 * code wrote did not read back as itself (a bug, d says which). */
static inline int fuzz_report_feed(const uint8_t *data, size_t size, ulp_diag *d)
{
	char *text = fuzz_text(data, size);
	if (!text)
		return 0;
	char *part[FUZZ_REPORTS];
	size_t n = 0;
	for (char *p = text; n < FUZZ_REPORTS && p; n++) {
		part[n] = p;
		p = strchr(p, '\f');
		if (p)
			*p++ = '\0';
	}
	static const char *const NAME[FUZZ_REPORTS] = { "r1.json", "r2.json", "r3.json", "r4.json", "r5.json",
		"r6.json", "r7.json", "r8.json" };
	rdir_report rp[FUZZ_REPORTS];
	size_t loaded = 0;
	int rc = 1;
	for (; rc == 1 && loaded < n; loaded++)
		if (!rdir_report_parse(&rp[loaded], part[loaded], NAME[loaded], d))
			rc = 0;
	if (rc == 1 && n == 1 && !fuzz_report_round_trip(&rp[0].run))
		rc = -1;
	rdir_run run;
	rdir_frame *all = NULL;
	if (rc == 1 && !rdir_report_merge(rp, n, &run, &all, d))
		rc = 0;
	if (rc == 1 && !fuzz_report_round_trip(&run))
		rc = -1;
	if (rc < 0)
		ulp_diag_at(d, NAME[0], 0, 0, "a written report does not read back as itself");
	free(all);
	for (size_t k = 0; k < loaded; k++)
		rdir_report_free(&rp[k]);
	free(text);
	return rc;
}

#endif

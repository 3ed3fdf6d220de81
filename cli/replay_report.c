/* The exit status of a folder replay and ulpsim replay --merge
 * (cli/replay_dir.h); the summary, the report and its reader are
 * traces/replay/replay_report.c. */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/replay_dir.h"

int rdir_exit_status(const rdir_run *r)
{
	int rc = EXIT_OK;
	for (size_t k = 0; k < r->nframes; k++) {
		if (r->frames[k].status == RDIR_ERROR)
			return EXIT_BAD;
		if (r->frames[k].status != RDIR_OK)
			rc = EXIT_CHECK;
	}
	return rc;
}

int cmd_replay_merge(int argc, char **argv)
{
	const char *out = NULL;
	size_t n = 0;
	const char **paths = calloc((size_t)argc, sizeof *paths);
	if (!paths)
		return cli_usage("replay", "out of memory");
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--merge"))
			continue;
		if (!strcmp(argv[i], "--report") && i + 1 < argc)
			out = argv[++i];
		else if (argv[i][0] == '-' && argv[i][1]) {
			free(paths);
			return cli_usage("replay", "--merge takes reports and --report R.json; not '%s'", argv[i]);
		} else
			paths[n++] = argv[i];
	}
	if (!n) {
		free(paths);
		return cli_usage("replay", "--merge takes the shards' reports (ulpsim replay DIR --shard K/N "
		                 "--report R.json)");
	}
	rdir_report *rp = calloc(n, sizeof *rp);
	rdir_frame *all = NULL;
	ulp_diag d;
	ulp_diag_clear(&d);
	int rc = EXIT_BAD;
	size_t loaded = 0;
	if (!rp) {
		ulp_diag_at(&d, paths[0], 0, 0, "out of memory");
		goto fail;
	}
	for (; loaded < n; loaded++)
		if (!rdir_report_read(&rp[loaded], paths[loaded], &d)) {
			loaded++;
			goto fail;
		}
	rdir_run run;
	if (!rdir_report_merge(rp, n, &run, &all, &d))
		goto fail;
	if (out && !rdir_report_write(&run, out, &d))
		goto fail;
	rdir_summary_print(&run, stdout);
	fflush(stdout);
	rc = rdir_exit_status(&run);
	goto done;
fail:
	rc = cli_fail(&d);
done:
	for (size_t k = 0; k < loaded; k++)
		rdir_report_free(&rp[k]);
	free(rp);
	free(all);
	free(paths);
	return rc;
}

/* ulpsim replay trace.json [-o frame.png] [options] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/hosttime.h"
#include "base/image.h"
#include "cli/cli.h"
#include "sim/compare.h"
#include "sim/replay.h"

static const char usage[] =
	"usage: ulpsim replay TRACE.json [options]\n"
	"  replays a trace (docs/trace-format.md) on the simulated GPU: vertex shaders\n"
	"  on the clocked PICA200 units, fragments through the Tegra PSEQ/MFU/TEX/ALU/DW\n"
	"  units (docs/replay.md).  Prints one summary line on stderr.\n"
	"options:\n"
	"  -o FILE               the last checkpoint's image (PNG, written atomically)\n"
	"  --out-dir DIR         every checkpoint as DIR/<name>.png\n"
	"  --dump-commands       print the register writes the driver layer makes\n"
	"  --expect REF.png      compare the last checkpoint with REF (exit 1 when over)\n"
	"  --tolerance N         per-channel tolerance for --expect (default 0)\n"
	"  --expect-cycles N[±P%] check the simulated cycles (exit 1 when outside)\n"
	"  --config FILE         knobs from a JSON config (docs/ASSUMPTIONS.md)\n"
	"  --set KEY=VALUE       one knob; preset=tegra2|tegra3|pica200\n"
	"exit: 0 ok, 1 a check failed, 2 bad usage or a trace that cannot be replayed\n";

int cmd_replay(int argc, char **argv)
{
	if (cli_wants_help(argc, argv)) {
		fputs(usage, stdout);
		return EXIT_OK;
	}
	const char *path = NULL, *expect = NULL, *expect_cycles = NULL;
	replay_opts o;
	memset(&o, 0, sizeof o);
	unsigned tolerance = 0;
	ulp_config cfg;
	ulp_diag d;
	ulp_diag_clear(&d);
	ulp_config_defaults(&cfg);
	for (int i = 1, k; i < argc; i++) {
		const char *a = argv[i];
		bool more = i + 1 < argc;
		if (!strcmp(a, "-o") && more)
			o.out_png = argv[++i];
		else if (!strcmp(a, "--out-dir") && more)
			o.out_dir = argv[++i];
		else if (!strcmp(a, "--dump-commands"))
			o.dump_commands = stdout;
		else if (!strcmp(a, "--expect") && more)
			expect = argv[++i];
		else if (!strcmp(a, "--tolerance") && more) {
			char *end;
			long t = strtol(argv[++i], &end, 10);
			if (*end || t < 0 || t > 255)
				return cli_usage("replay", "--tolerance takes 0..255");
			tolerance = (unsigned)t;
		} else if (!strcmp(a, "--expect-cycles") && more)
			expect_cycles = argv[++i];
		else if ((k = cli_config_option(argc, argv, &i, &cfg)) != 0) {
			if (k < 0)
				return EXIT_BAD;
		} else if (a[0] == '-' && a[1])
			return cli_usage("replay", "unknown option '%s'", a);
		else if (!path)
			path = a;
		else
			return cli_usage("replay", "unexpected argument '%s'", a);
	}
	if (!path)
		return cli_usage("replay", "expected a trace file");
	double want = 0, pct = 0;
	if (expect_cycles && sscanf(expect_cycles, "%lf\xC2\xB1%lf", &want, &pct) < 1 &&
	    sscanf(expect_cycles, "%lf+-%lf", &want, &pct) < 1)
		return cli_usage("replay", "--expect-cycles takes N or N\xC2\xB1P%%");
	o.cfg = &cfg;
	trace t;
	if (!trace_load(&t, path, &d)) {
		trace_free(&t);
		return cli_fail(&d);
	}
	replay_result res;
	double t0 = ulp_host_seconds();
	bool ok = replay_run(&t, &o, &res, &d);
	double dt = ulp_host_seconds() - t0;
	trace_free(&t);
	if (!ok)
		return cli_fail(&d);
	int rc = EXIT_OK;
	if (res.checks_failed) {
		fprintf(stderr, "ulpsim: %s: %u check(s) failed; first: %s\n", path, res.checks_failed,
		        res.first_failure);
		rc = EXIT_CHECK;
	}
	if (expect) {
		if (!o.out_png)
			return cli_usage("replay", "--expect needs -o (the image to compare)");
		ulp_image *a = ulp_image_load_png(o.out_png, &d), *b = a ? ulp_image_load_png(expect, &d) : NULL;
		ulp_compare_result cmp;
		bool cok = b && ulp_compare_images(a, b, tolerance, &cmp, NULL, &d);
		ulp_image_free(a);
		ulp_image_free(b);
		if (!cok)
			return cli_fail(&d);
		if (cmp.over_tolerance) {
			fprintf(stderr, "ulpsim: %s: %llu pixels differ from %s by more than %u (max %u)\n",
			        o.out_png, (unsigned long long)cmp.over_tolerance, expect, tolerance, cmp.max_diff);
			rc = EXIT_CHECK;
		}
	}
	if (expect_cycles && fabs((double)res.cycles - want) > want * pct / 100.0) {
		fprintf(stderr, "ulpsim: %s: %llu cycles, expected %s\n", path,
		        (unsigned long long)res.cycles, expect_cycles);
		rc = EXIT_CHECK;
	}
	double sim_s = (double)res.cycles / ((double)cfg.gr3d_clock_mhz * 1e6);
	fprintf(stderr, "ulpsim: %s: %llu draws, %llu vertices, %llu triangles, %llu fragments; "
	        "%llu cycles (vertex %llu, fragment %llu); %.3g cycles/s, %.3g fragments/s, "
	        "%.0fx slower than silicon at %lld MHz\n", path,
	        (unsigned long long)res.draws, (unsigned long long)res.vertices,
	        (unsigned long long)res.triangles, (unsigned long long)res.fragments,
	        (unsigned long long)res.cycles, (unsigned long long)res.vertex_cycles,
	        (unsigned long long)res.fragment_cycles, dt > 0 ? res.cycles / dt : 0,
	        dt > 0 ? res.fragments / dt : 0, sim_s > 0 ? dt / sim_s : 0, (long long)cfg.gr3d_clock_mhz);
	return rc;
}

/* ulpsim replay trace.json [-o frame.png] [options] */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/hosttime.h"
#include "base/image.h"
#include "cli/cli.h"
#include "sim/check/compare.h"
#include "traces/replay/replay.h"
#include "sim/out/stats_txt.h"
#include "sim/core/timeline.h"
#include "sim/out/tl_chrome.h"
#include "sim/out/tl_kanata.h"
#include "sim/out/tl_vcd.h"

static const char usage[] =
	"usage: ulpsim replay TRACE.json [options]\n"
	"  replays a trace (docs/trace-format.md) on the simulated GPU: vertex shaders\n"
	"  on the clocked PICA200 units, fragments through the Tegra PSEQ/MFU/TEX/ALU/DW\n"
	"  units (docs/replay.md).  Prints one summary line on stderr.\n"
	"options:\n"
	"  -o FILE               the last checkpoint's image (PNG, written atomically)\n"
	"  --out-dir DIR         every checkpoint as DIR/<name>.png\n"
	"  --dump-commands       print the register writes the driver layer makes\n"
	"  --stats FILE          gem5-style stats: per unit and per draw, then the config\n"
	"  --timeline FILE       per-unit timeline: FILE.json (Perfetto / Chrome trace) or\n"
	"                        FILE.vcd (GTKWave); docs/outputs.md\n"
	"  --kanata FILE         a Kanata log (Konata): one entry per quad-EXEC / instruction\n"
	"  --expect REF.png      compare the last checkpoint with REF (exit 1 when over)\n"
	"  --tolerance N         per-channel tolerance for --expect (default 0)\n"
	"  --expect-cycles N[±P%] check the simulated cycles (exit 1 when outside)\n"
	"  --max-cycles N        stop (exit 2, no outputs) when the run passes N simulated\n"
	"                        cycles (default: no budget; docs/robustness.md)\n"
	"  --config FILE         knobs from a JSON config (docs/ASSUMPTIONS.md)\n"
	"  --set KEY=VALUE       one knob; preset=tegra2|tegra3|pica200\n"
	"exit: 0 ok, 1 a check failed, 2 bad usage or a trace that cannot be replayed\n";

/* --stats: the file opens at the first draw, when the units exist. */
typedef struct stats_ctx {
	const char *path;
	const ulp_config *cfg;
	stats_txt *w;
	bool failed;
	ulp_diag d;
} stats_ctx;

static void stats_open(stats_ctx *s, replay_result *res)
{
	if (s->w || s->failed)
		return;
	sim_unit *units[REPLAY_MAX_UNITS];
	for (unsigned k = 0; k < res->nunits; k++)
		units[k] = &res->unit[k];
	stats_txt_opts o = { .prefix = "gpu", .silicon_mhz = (uint32_t)s->cfg->gr3d_clock_mhz, .cfg = s->cfg };
	s->w = stats_txt_open(s->path, units, res->nunits, &o, &s->d);
	s->failed = !s->w;
}

static void stats_hook(void *ctx, bool end, replay_result *res)
{
	stats_ctx *s = ctx;
	stats_open(s, res);
	if (s->failed)
		return;
	bool ok = end ? stats_txt_end_draw(s->w, res->cycles, &s->d)
	              : stats_txt_begin_draw(s->w, res->cycles, &s->d);
	if (!ok) {
		stats_txt_abort(s->w);
		s->w = NULL;
		s->failed = true;
	}
}

/* A progress bar on a terminal (stderr), erased at the end. */
static void progress(void *ctx, size_t done, size_t total, uint64_t cycles)
{
	(void)ctx;
	const int width = 30;
	int filled = total ? (int)(width * done / total) : width;
	fprintf(stderr, "\r[%.*s%*s] %zu/%zu commands, %llu cycles", filled,
	        "##############################", width - filled, "", done, total,
	        (unsigned long long)cycles);
	if (done == total)
		fprintf(stderr, "\r%*s\r", 80, "");
	fflush(stderr);
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && strcmp(s + n - m, suffix) == 0;
}

int cmd_replay(int argc, char **argv)
{
	if (cli_wants_help(argc, argv)) {
		fputs(usage, stdout);
		return EXIT_OK;
	}
	const char *path = NULL, *expect = NULL, *expect_cycles = NULL;
	const char *stats_path = NULL, *timeline_path = NULL, *kanata_path = NULL;
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
		else if (!strcmp(a, "--stats") && more)
			stats_path = argv[++i];
		else if (!strcmp(a, "--timeline") && more)
			timeline_path = argv[++i];
		else if (!strcmp(a, "--kanata") && more)
			kanata_path = argv[++i];
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
		else if (!strcmp(a, "--max-cycles") && more) {
			char *end;
			const char *v = argv[++i];
			unsigned long long m = strtoull(v, &end, 10);
			if (end == v || *end || v[0] == '-' || m == 0 || m == ULLONG_MAX)
				return cli_usage("replay", "--max-cycles takes a number of cycles (1 or more)");
			o.max_cycles = m;
		}
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
	if (timeline_path && !ends_with(timeline_path, ".json") && !ends_with(timeline_path, ".vcd"))
		return cli_usage("replay", "--timeline takes FILE.json or FILE.vcd");
	o.cfg = &cfg;
	/* timeline writers stream while the replay runs */
	sim_timeline tl;
	tl_chrome *chrome = NULL;
	tl_vcd *vcd = NULL;
	tl_kanata *kanata = NULL;
	bool want_tl = timeline_path || kanata_path;
	if (want_tl && !sim_tl_init(&tl))
		return cli_usage("replay", "out of memory");
	if (timeline_path && ends_with(timeline_path, ".json")) {
		tl_chrome_opts co = { .tl = &tl, .process_name = "ulpsim" };
		if (!(chrome = tl_chrome_open(timeline_path, &co, &d)) || !sim_tl_add_sink(&tl, tl_chrome_sink(chrome)))
			goto tl_fail;
	} else if (timeline_path) {
		tl_vcd_opts vo = { .tl = &tl, .top = "gpu" };
		if (!(vcd = tl_vcd_open(timeline_path, &vo, &d)) || !sim_tl_add_sink(&tl, tl_vcd_sink(vcd)))
			goto tl_fail;
	}
	if (kanata_path) {
		/* PICA instruction ids are unique across units, GR3D quad ids span the
		 * five units: an item retires when it leaves its last lane */
		tl_kanata_opts ko = { .tl = &tl, .retire_after = 0, .gr3d_domains = true };
		if (!(kanata = tl_kanata_open(kanata_path, &ko, &d)) || !sim_tl_add_sink(&tl, tl_kanata_sink(kanata)))
			goto tl_fail;
	}
	if (want_tl) {
		tl.enabled = true;
		o.tl = &tl;
	}
	if (isatty(STDERR_FILENO)) {
		o.progress = progress;
	}
	stats_ctx sc = { .path = stats_path, .cfg = &cfg };
	ulp_diag_clear(&sc.d);
	if (stats_path) {
		o.draw_hook = stats_hook;
		o.hook_ctx = &sc;
	}
	trace t;
	if (!trace_load(&t, path, &d)) {
		trace_free(&t);
		goto tl_fail;                   /* no partial timeline files */
	}
	replay_result res;
	double t0 = ulp_host_seconds();
	bool ok = replay_run(&t, &o, &res, &d);
	double dt = ulp_host_seconds() - t0;
	trace_free(&t);
	if (want_tl) {
		sim_tl_fini(&tl);
		ulp_diag wd;
		ulp_diag_clear(&wd);
		bool wok = true;
		if (chrome)
			wok = ok ? tl_chrome_close(chrome, &wd) : (tl_chrome_abort(chrome), true);
		if (vcd)
			wok = (ok ? tl_vcd_close(vcd, &wd) : (tl_vcd_abort(vcd), true)) && wok;
		if (kanata)
			wok = (ok ? tl_kanata_close(kanata, &wd) : (tl_kanata_abort(kanata), true)) && wok;
		if (ok && !wok)
			return cli_fail(&wd);
	}
	if (stats_path && ok) {
		stats_open(&sc, &res);          /* a trace without draws */
		if (sc.failed || !stats_txt_close(sc.w, res.cycles, 0, &sc.d))
			return cli_fail(&sc.d);
	} else if (sc.w) {
		stats_txt_abort(sc.w);
	}
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

tl_fail:
	if (chrome)
		tl_chrome_abort(chrome);
	if (vcd)
		tl_vcd_abort(vcd);
	if (kanata)
		tl_kanata_abort(kanata);
	sim_tl_fini(&tl);
	return cli_fail(&d);
}

/* ulpsim replay trace.json [-o frame.png] [options] */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/fileio.h"
#include "base/hosttime.h"
#include "base/image.h"
#include "cli/cli.h"
#include "cli/replay_dir.h"
#include "sim/check/compare.h"
#include "traces/replay/replay.h"
#include "sim/out/stats_txt.h"
#include "sim/core/timeline.h"
#include "sim/out/tl_chrome.h"
#include "sim/out/tl_kanata.h"
#include "sim/out/tl_vcd.h"

static const char usage[] =
	"usage: ulpsim replay TRACE.json [options]\n"
	"       ulpsim replay DIR [--jobs N] [--shard K/N] [--report R.json] [--out-dir D] [...]\n"
	"       ulpsim replay --merge R1.json R2.json ... [--report R.json]\n"
	"  replays a trace (docs/trace-format.md) on the simulated GPU: vertex shaders\n"
	"  on the clocked PICA200 units, fragments through the Tegra PSEQ/MFU/TEX/ALU/DW\n"
	"  units (docs/replay.md).  Prints one summary line on stderr.\n"
	"options:\n"
	"  -o FILE               the last checkpoint's image (PNG, written atomically)\n"
	"  --out-dir DIR         every checkpoint as DIR/<name>.png (DIR is created)\n"
	"  --dump-commands       print the register writes the driver layer makes\n"
	"  --stats FILE          gem5-style stats: per unit and per draw, then the config\n"
	"  --host-stats FILE     host figures (time loading, compiling, drawing, writing\n"
	"                        outputs; peak RSS):\n"
	"                        not results, they vary run to run (docs/outputs.md)\n"
	"  --threads N           host threads for Tegra 3's two GR3D blocks (0: one per\n"
	"                        block where the cores allow); the results do not change\n"
	"  --timeline FILE       per-unit timeline: FILE.json (Perfetto / Chrome trace) or\n"
	"                        FILE.vcd (GTKWave); docs/outputs.md\n"
	"  --kanata FILE         a Kanata log (Konata): one entry per quad-EXEC / instruction\n"
	"  --expect REF.png      compare the last checkpoint's image with REF (exit 1 when over)\n"
	"  --tolerance N         per-channel tolerance for --expect (default 0)\n"
	"  --expect-cycles N[±P%] check the simulated cycles (exit 1 when outside)\n"
	"  --max-cycles N        stop (exit 2, no outputs) when the run passes N simulated\n"
	"                        cycles (default: no budget; docs/robustness.md)\n"
	"  --config FILE         knobs from a JSON config (docs/ASSUMPTIONS.md)\n"
	"  --set KEY=VALUE       one knob; preset=tegra2|tegra3|pica200 (the trace's \"gpu\"\n"
	"                        picks the tegra2 or tegra3 preset; --config and --set win)\n"
	"  --permissive          conditions that hang the PICA200 warn instead of stopping\n"
	"  --allow-paths         side files from anywhere (default: only regular files\n"
	"                        inside the trace's folder; docs/trace-format.md)\n"
	"  --max-side-file SIZE  each side file at most SIZE (bytes, or K, M, G; default 256M)\n"
	"many frames (docs/replay.md \"Many frames\"): DIR replays every *.json trace in\n"
	"  the folder, sorted by name, one combined summary on stdout; with DIR:\n"
	"  --jobs N              N worker processes (default 0: the number of cores)\n"
	"  --shard K/N           only shard K of N (frame i when i mod N = K - 1)\n"
	"  --report R.json       the machine-readable report (for --merge)\n"
	"  --out-dir DIR         each frame's last checkpoint as DIR/<frame>.png and its\n"
	"                        stats as DIR/<frame>.stats.txt\n"
	"  --max-cycles, --config, --set, --permissive, --allow-paths, --max-side-file: per frame\n"
	"  --merge R1 R2 ...     join shard reports into the summary of the whole run\n"
	"exit: 0 ok, 1 a check failed, 2 bad usage or a trace that cannot be replayed\n";

/* --stats: the file opens at the first draw, when the units exist. */
static void stats_open(replay_stats *s, replay_result *res)
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
	replay_stats *s = ctx;
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

void replay_stats_begin(replay_stats *s, const char *path, const ulp_config *cfg, replay_opts *o)
{
	memset(s, 0, sizeof *s);
	s->path = path;
	s->cfg = cfg;
	ulp_diag_clear(&s->d);
	if (path) {
		o->draw_hook = stats_hook;
		o->hook_ctx = s;
	}
}

bool replay_stats_end(replay_stats *s, bool ok, replay_result *res, ulp_diag *d)
{
	if (s->path && ok) {
		stats_open(s, res);          /* a trace without draws */
		if (s->w)
			stats_txt_port_marks(s->w, res->port, res->nports);
		if (s->failed || !stats_txt_close(s->w, res->cycles, 0, &s->d)) {
			*d = s->d;
			return false;
		}
	} else if (s->w) {
		stats_txt_abort(s->w);
	}
	s->w = NULL;
	return true;
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

typedef struct replay_args {
	const char *path, *expect, *expect_cycles;
	const char *stats_path, *timeline_path, *kanata_path, *host_stats_path;
	unsigned tolerance;
	trace_load_opts lo;
	replay_opts o;
} replay_args;

/* The options into a (and --config / --set into cfg, in order): EXIT_OK, or
 * EXIT_BAD after a message. */
static int parse_args(int argc, char **argv, replay_args *a, ulp_config *cfg)
{
	memset(a, 0, sizeof *a);
	for (int i = 1, k; i < argc; i++) {
		const char *s = argv[i];
		bool more = i + 1 < argc;
		if (!strcmp(s, "-o") && more)
			a->o.out_png = argv[++i];
		else if (!strcmp(s, "--out-dir") && more)
			a->o.out_dir = argv[++i];
		else if (!strcmp(s, "--dump-commands"))
			a->o.dump_commands = stdout;
		else if (!strcmp(s, "--stats") && more)
			a->stats_path = argv[++i];
		else if (!strcmp(s, "--host-stats") && more)
			a->host_stats_path = argv[++i];
		else if (!strcmp(s, "--timeline") && more)
			a->timeline_path = argv[++i];
		else if (!strcmp(s, "--kanata") && more)
			a->kanata_path = argv[++i];
		else if (!strcmp(s, "--expect") && more)
			a->expect = argv[++i];
		else if (!strcmp(s, "--tolerance") && more) {
			char *end;
			long t = strtol(argv[++i], &end, 10);
			if (*end || t < 0 || t > 255)
				return cli_usage("replay", "--tolerance takes 0..255");
			a->tolerance = (unsigned)t;
		} else if (!strcmp(s, "--expect-cycles") && more)
			a->expect_cycles = argv[++i];
		else if (!strcmp(s, "--max-cycles") && more) {
			if (!cli_max_cycles(argv[++i], &a->o.max_cycles))
				return EXIT_BAD;
		} else if (!strcmp(s, "--permissive"))
			a->o.permissive = true;
		else if ((k = cli_side_file_option("replay", argc, argv, &i, &a->lo)) != 0) {
			if (k < 0)
				return EXIT_BAD;
		} else if ((k = cli_config_option(argc, argv, &i, cfg)) != 0) {
			if (k < 0)
				return EXIT_BAD;
		} else if (s[0] == '-' && s[1])
			return cli_usage("replay", "unknown option '%s'", s);
		else if (!a->path)
			a->path = s;
		else
			return cli_usage("replay", "unexpected argument '%s'", s);
	}
	return a->path ? EXIT_OK : cli_usage("replay", "expected a trace file");
}

/* --host-stats: host seconds inside the draws (the draw hook brackets the
 * register decoding and the clocked units), the other hook chained. */
typedef struct host_ctx {
	replay_draw_hook next;
	void *next_ctx;
	double begin, draw_s, cpu_begin, draw_cpu;
} host_ctx;

static double process_cpu(void)
{
	struct timespec t;
	return clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t) == 0 ? (double)t.tv_sec + (double)t.tv_nsec * 1e-9 : 0.0;
}

static void host_hook(void *ctx, bool end, replay_result *res)
{
	host_ctx *h = ctx;
	if (end) {
		h->draw_s += ulp_host_seconds() - h->begin;
		h->draw_cpu += process_cpu() - h->cpu_begin;
	}
	if (h->next)
		h->next(h->next_ctx, end, res);
	if (!end) {
		h->begin = ulp_host_seconds();
		h->cpu_begin = process_cpu();
	}
}

/* The host figures, written atomically (ulp_out). */
static bool write_host_stats(const char *path, const ulp_config *cfg, const replay_result *res, double load_s,
                             double run_s, double post_s, const host_ctx *h, ulp_diag *d)
{
	ulp_out out;
	if (!ulp_out_open(&out, path, d))
		return false;
	FILE *f = out.f;
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	/* the replay outside the draws: the checkpoints' output, the rest compilation and commands */
	const double draw_s = h->draw_s, output = res->host_output_seconds + post_s, total = load_s + run_s + post_s;
	const double other = run_s > draw_s + res->host_output_seconds ? run_s - draw_s - res->host_output_seconds : 0;
	const double cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
	                   (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
	fprintf(f, "# ulpsim replay: host figures (not simulated results; they vary from run to run)\n");
	fprintf(f, "%-28s %14lld  # sim.threads (--threads); 0: one per GR3D block where the cores allow\n",
	        "host.threads", (long long)cfg->host_threads);
	fprintf(f, "%-28s %14llu  # draws whose two GR3D blocks ran side by side on two threads\n",
	        "host.threaded_draws", (unsigned long long)res->host_threaded_draws);
	fprintf(f, "%-28s %14.6f  # reading and checking the trace (JSON, side files, textures)\n",
	        "host.trace_load_seconds", load_s);
	fprintf(f, "%-28s %14.6f  # the replay outside the draws and outputs: shader compilation, commands\n",
	        "host.compile_seconds", other);
	fprintf(f, "%-28s %14.6f  # the draws: register decoding and the clocked units\n", "host.draw_seconds", draw_s);
	fprintf(f, "%-28s %14.6f  # checkpoint images (PNG encoding), their checks, stats and timeline files\n",
	        "host.output_seconds", output);
	fprintf(f, "%-28s %14.6f  # load + replay + output (wall clock)\n", "host.total_seconds", total);
	fprintf(f, "%-28s %14.6f  # CPU seconds of the process in the draws (every thread)\n", "host.draw_cpu_seconds",
	        h->draw_cpu);
	fprintf(f, "%-28s %14.6f  # CPU seconds of the blocks' threads while they ran apart\n",
	        "host.parallel_cpu_seconds", res->host_par_cpu);
	fprintf(f, "%-28s %14.6f  # the same, per lock-step window the slower thread only\n",
	        "host.parallel_critical_seconds", res->host_par_critical);
	fprintf(f, "%-28s %14llu  # the lock-step windows they ran in (a barrier each)\n",
	        "host.parallel_windows", (unsigned long long)res->host_par_windows);
	fprintf(f, "%-28s %14.4f  # draw_cpu / (draw_cpu - parallel_cpu + parallel_critical): the draws' speed-up on idle cores\n",
	        "host.idle_speedup_estimate",
	        h->draw_cpu - res->host_par_cpu + res->host_par_critical > 0
	            ? h->draw_cpu / (h->draw_cpu - res->host_par_cpu + res->host_par_critical) : 0);
	fprintf(f, "%-28s %14.4f  # (load + compile) / total: the output not counted\n", "host.load_compile_share",
	        total > 0 ? (load_s + other) / total : 0);
	fprintf(f, "%-28s %14.6f  # user + system CPU time of the process so far (every thread)\n",
	        "host.cpu_seconds", cpu);
	fprintf(f, "%-28s %14ld  # peak resident set size (getrusage)\n", "host.peak_rss_kb", ru.ru_maxrss);
	return ulp_out_commit(&out, d);
}

/* --permissive: each hang condition once per kind of message is enough. */
static void on_warn(void *ctx, const char *msg)
{
	unsigned *n = ctx;
	if ((*n)++ < 10)
		fprintf(stderr, "ulpsim: warning: %s (hangs the PICA200; --permissive goes on)\n", msg);
	else if (*n == 11)
		fprintf(stderr, "ulpsim: warning: more hang conditions; not shown\n");
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* The first argument that is not an option or an option's value. */
static const char *first_operand(int argc, char **argv)
{
	static const char *const VALUED[] = { "-o", "--out-dir", "--stats", "--timeline", "--kanata",
		"--expect", "--tolerance", "--expect-cycles", "--max-cycles", "--config", "--set", "--jobs",
		"--shard", "--report", "--max-side-file", NULL };
	for (int i = 1; i < argc; i++) {
		bool valued = false;
		for (int k = 0; VALUED[k]; k++)
			valued = valued || !strcmp(argv[i], VALUED[k]);
		if (valued)
			i++;
		else if (argv[i][0] != '-' || !argv[i][1])
			return argv[i];
	}
	return NULL;
}

int cmd_replay(int argc, char **argv)
{
	if (cli_wants_help(argc, argv)) {
		fputs(usage, stdout);
		return EXIT_OK;
	}
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--merge"))
			return cmd_replay_merge(argc, argv);
	const char *operand = first_operand(argc, argv);
	struct stat st;
	if (operand && stat(operand, &st) == 0 && S_ISDIR(st.st_mode))
		return cmd_replay_dir(argc, argv, operand);
	replay_args A;
	ulp_config cfg;
	ulp_diag d;
	ulp_diag_clear(&d);
	ulp_config_defaults(&cfg);
	if (parse_args(argc, argv, &A, &cfg) != EXIT_OK)
		return EXIT_BAD;
	const char *path = A.path, *expect = A.expect, *expect_cycles = A.expect_cycles;
	const char *stats_path = A.stats_path, *timeline_path = A.timeline_path, *kanata_path = A.kanata_path;
	const unsigned tolerance = A.tolerance;
	double want = 0, pct = 0;
	if (expect_cycles && sscanf(expect_cycles, "%lf\xC2\xB1%lf", &want, &pct) < 1 &&
	    sscanf(expect_cycles, "%lf+-%lf", &want, &pct) < 1)
		return cli_usage("replay", "--expect-cycles takes N or N\xC2\xB1P%%");
	if (timeline_path && !ends_with(timeline_path, ".json") && !ends_with(timeline_path, ".vcd"))
		return cli_usage("replay", "--timeline takes FILE.json or FILE.vcd");
	/* The trace's "gpu" picks its preset under the options given, which are
	 * applied again on top of it (docs/replay.md). */
	trace t;
	const double load_t0 = ulp_host_seconds();
	const bool loaded = trace_load_with(&t, path, &A.lo, &d);
	const double load_s = ulp_host_seconds() - load_t0;
	if (!loaded) {
		trace_free(&t);
		return cli_fail(&d);
	}
	ulp_config_defaults(&cfg);
	if (!ulp_config_preset(&cfg, t.gpu, &d) || parse_args(argc, argv, &A, &cfg) != EXIT_OK) {
		trace_free(&t);
		return d.set ? cli_fail(&d) : EXIT_BAD;
	}
	replay_opts o = A.o;
	unsigned nwarn = 0;
	o.warn = on_warn;
	o.warn_ctx = &nwarn;
	if (o.out_dir && !cli_mkdir_p(o.out_dir, &d)) {
		trace_free(&t);
		return cli_fail(&d);
	}
	o.keep_image = expect && !o.out_png;  /* --expect without -o: the final colour buffer */
	o.cfg = &cfg;
	/* timeline writers stream while the replay runs */
	sim_timeline tl;
	tl_chrome *chrome = NULL;
	tl_vcd *vcd = NULL;
	tl_kanata *kanata = NULL;
	bool want_tl = timeline_path || kanata_path;
	if (want_tl && !sim_tl_init(&tl)) {
		trace_free(&t);
		return cli_usage("replay", "out of memory");
	}
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
	replay_stats sc;
	replay_stats_begin(&sc, stats_path, &cfg, &o);
	host_ctx hc = { .next = o.draw_hook, .next_ctx = o.hook_ctx };
	if (A.host_stats_path) {
		o.draw_hook = host_hook;
		o.hook_ctx = &hc;
	}
	replay_result res;
	memset(&res, 0, sizeof res);
	double t0 = ulp_host_seconds();
	bool ok = replay_run(&t, &o, &res, &d);
	const double t1 = ulp_host_seconds(), dt = t1 - t0;
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
		if (ok && !wok) {
			ulp_image_free(res.image);
			return cli_fail(&wd);
		}
	}
	ulp_diag sd;
	ulp_diag_clear(&sd);
	if (!replay_stats_end(&sc, ok, &res, &sd)) {
		ulp_image_free(res.image);
		return cli_fail(&sd);
	}
	const double post_s = ulp_host_seconds() - t1;      /* the timeline and stats files */
	if (!ok) {
		ulp_image_free(res.image);
		return cli_fail(&d);
	}
	if (A.host_stats_path && !write_host_stats(A.host_stats_path, &cfg, &res, load_s, dt, post_s, &hc, &d)) {
		ulp_image_free(res.image);
		return cli_fail(&d);
	}
	int rc = EXIT_OK;
	if (res.checks_failed) {
		fprintf(stderr, "ulpsim: %s: %u check(s) failed; first: %s\n", path, res.checks_failed,
		        res.first_failure);
		rc = EXIT_CHECK;
	}
	if (expect) {
		/* the image -o wrote, else the final colour buffer */
		ulp_image *a = o.out_png ? ulp_image_load_png(o.out_png, &d) : res.image;
		ulp_image *b = a ? ulp_image_load_png(expect, &d) : NULL;
		if (!a && !o.out_png)
			ulp_diag_at(&d, path, 0, 0, "--expect: the trace has no framebuffer to compare");
		ulp_compare_result cmp;
		if (a && b && (a->width != b->width || a->height != b->height))
			ulp_diag_at(&d, expect, 0, 0, "the reference is %ux%u but %s is %ux%u", (unsigned)b->width,
			            (unsigned)b->height, o.out_png ? o.out_png : "the replay's final image",
			            (unsigned)a->width, (unsigned)a->height);
		bool cok = b && !d.set && ulp_compare_images(a, b, tolerance, &cmp, NULL, &d);
		if (a != res.image)
			ulp_image_free(a);
		ulp_image_free(res.image);
		ulp_image_free(b);
		if (!cok)
			return cli_fail(&d);
		if (cmp.over_tolerance) {
			fprintf(stderr, "ulpsim: %s: %llu pixels differ from %s by more than %u (max %u)\n",
			        o.out_png ? o.out_png : path, (unsigned long long)cmp.over_tolerance, expect, tolerance,
			        cmp.max_diff);
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
	trace_free(&t);
	if (chrome)
		tl_chrome_abort(chrome);
	if (vcd)
		tl_vcd_abort(vcd);
	if (kanata)
		tl_kanata_abort(kanata);
	sim_tl_fini(&tl);
	return cli_fail(&d);
}

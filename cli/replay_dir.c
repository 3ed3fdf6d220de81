/* ulpsim replay DIR [--jobs N] [--shard K/N] [--report R.json] [--out-dir D]:
 * the frames of a folder on N forked worker processes (cli/replay_dir.h).
 *
 * Workers are fork()s of this process (no exec: the replay needs nothing
 * but the arguments it already has).  They share one anonymous mapping: a
 * counter from which each takes the next frame, and the table of results,
 * one slot per frame, which the worker fills and the parent reads after
 * waitpid.  A worker that dies (a signal) leaves its frame RUNNING; the
 * parent reports it as an error naming the frame.  The results do not
 * depend on which worker ran a frame, nor when: the summary is printed
 * from the table, by frame index. */
#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/fileio.h"
#include "base/hosttime.h"
#include "base/image.h"
#include "base/json.h"
#include "cli/cli.h"
#include "cli/replay_dir.h"

typedef struct rdir_args {
	unsigned jobs;                  /* 0: the cores */
	unsigned shard_k, shard_n;
	const char *report, *out_dir;
	trace_load_opts lo;
	replay_opts o;                  /* permissive, max_cycles */
	char **settings;                /* points into argv */
	size_t nsettings;
} rdir_args;

/* A decimal number in 0..max, digits only. */
static bool parse_uint(const char *s, unsigned max, unsigned *v)
{
	unsigned long long x = 0;
	if (!*s)
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || x > max)
			return false;
		x = x * 10 + (unsigned)(*s - '0');
	}
	if (x > max)
		return false;
	*v = (unsigned)x;
	return true;
}

static int shard_syntax(const char *v)
{
	return cli_usage("replay", "--shard takes K/N with 1 <= K <= N <= %d (shard K of N); got '%s'",
	                 RDIR_MAX_SHARDS, v);
}

/* Options of a folder replay into a (a->settings: room for argc entries),
 * --config and --set applied to cfg in order.  EXIT_OK or EXIT_BAD after a message. */
static int parse_dir_args(int argc, char **argv, const char *dir, rdir_args *a, ulp_config *cfg)
{
	char **settings = a->settings;
	memset(a, 0, sizeof *a);
	a->settings = settings;
	a->shard_k = a->shard_n = 1;
	static const char *const SINGLE[] = { "-o", "--expect", "--tolerance", "--expect-cycles", "--stats",
		"--timeline", "--kanata", "--dump-commands", NULL };
	for (int i = 1, k; i < argc; i++) {
		const char *s = argv[i];
		bool more = i + 1 < argc;
		for (int j = 0; SINGLE[j]; j++)
			if (!strcmp(s, SINGLE[j]))
				return cli_usage("replay", "%s is for one trace; a folder replay writes each frame's "
				                 "image and stats with --out-dir and checks its checkpoints", s);
		if (!strcmp(s, "--jobs") && more) {
			if (!parse_uint(argv[++i], RDIR_MAX_JOBS, &a->jobs))
				return cli_usage("replay", "--jobs takes 0..%d worker processes (0: the number of "
				                 "cores); got '%s'", RDIR_MAX_JOBS, argv[i]);
		} else if (!strcmp(s, "--shard") && more) {
			const char *v = argv[++i], *slash = strchr(v, '/');
			char kbuf[16];
			size_t kl = slash ? (size_t)(slash - v) : 0;
			if (!slash || kl >= sizeof kbuf)
				return shard_syntax(v);
			memcpy(kbuf, v, kl);
			kbuf[kl] = '\0';
			if (!parse_uint(kbuf, RDIR_MAX_SHARDS, &a->shard_k) ||
			    !parse_uint(slash + 1, RDIR_MAX_SHARDS, &a->shard_n) || a->shard_k < 1 ||
			    a->shard_k > a->shard_n)
				return shard_syntax(v);
		} else if (!strcmp(s, "--report") && more)
			a->report = argv[++i];
		else if (!strcmp(s, "--out-dir") && more)
			a->out_dir = argv[++i];
		else if (!strcmp(s, "--max-cycles") && more) {
			if (!cli_max_cycles(argv[++i], &a->o.max_cycles))
				return EXIT_BAD;
			a->settings[a->nsettings++] = argv[i - 1];
			a->settings[a->nsettings++] = argv[i];
		} else if (!strcmp(s, "--permissive")) {
			a->o.permissive = true;
			a->settings[a->nsettings++] = argv[i];
		} else if ((k = cli_side_file_option("replay", argc, argv, &i, &a->lo)) != 0) {
			if (k < 0)
				return EXIT_BAD;
		} else if ((k = cli_config_option(argc, argv, &i, cfg)) != 0) {
			if (k < 0)
				return EXIT_BAD;
			a->settings[a->nsettings++] = argv[i - 1];
			a->settings[a->nsettings++] = argv[i];
		} else if (s[0] == '-' && s[1])
			return cli_usage("replay", "unknown option '%s'", s);
		else if (s != dir)
			return cli_usage("replay", "unexpected argument '%s' (one folder or one trace)", s);
	}
	return EXIT_OK;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* dir/name into out (n bytes); false when it does not fit. */
static bool join_path(char *out, size_t n, const char *dir, const char *name)
{
	const int k = snprintf(out, n, "%s/%s", dir, name);
	return k >= 0 && (size_t)k < n;
}

static bool ends_with_json(const char *s)
{
	size_t n = strlen(s);
	return n > 5 && !strcmp(s + n - 5, ".json");
}

static void free_names(char **names, size_t n)
{
	for (size_t k = 0; k < n; k++)
		free(names[k]);
	free(names);
}

/* The folder's *.json files (not folders), sorted by name (strcmp): false
 * with d when the folder cannot be read or holds none. */
static bool list_frames(const char *dir, char ***out, size_t *n, ulp_diag *d)
{
	DIR *dp = opendir(dir);
	if (!dp)
		return ulp_diag_at(d, dir, 0, 0, "cannot read the folder: %s", strerror(errno));
	char **names = NULL;
	size_t cnt = 0, cap = 0;
	bool ok = true;
	for (struct dirent *e; ok && (e = readdir(dp)) != NULL;) {
		if (e->d_name[0] == '.' || !ends_with_json(e->d_name))
			continue;
		char path[4096];
		struct stat st;
		if (!join_path(path, sizeof path, dir, e->d_name))
			continue;                  /* too long a name to be one of ours */
		if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
			continue;
		if (strlen(e->d_name) >= RDIR_NAME_MAX)
			ok = ulp_diag_at(d, path, 0, 0, "a frame's file name is at most %d bytes", RDIR_NAME_MAX - 1);
		else if (cnt == RDIR_MAX_FRAMES)
			ok = ulp_diag_at(d, dir, 0, 0, "more than %d frames (RDIR_MAX_FRAMES)", RDIR_MAX_FRAMES);
		else if (cnt == cap) {
			cap = cap ? cap * 2 : 64;
			char **nn = realloc(names, cap * sizeof *nn);
			ok = nn || ulp_diag_at(d, dir, 0, 0, "out of memory");
			names = nn ? nn : names;
		}
		if (ok && !(names[cnt] = strdup(e->d_name)))
			ok = ulp_diag_at(d, dir, 0, 0, "out of memory");
		cnt += ok;
	}
	closedir(dp);
	if (ok && cnt == 0)
		ok = ulp_diag_at(d, dir, 0, 0, "no frames: the folder holds no *.json trace");
	if (!ok) {
		free_names(names, cnt);
		return false;
	}
	qsort(names, cnt, sizeof *names, by_name);
	*out = names;
	*n = cnt;
	return true;
}

/* FNV-1a 64 over every frame's name, a NUL, its length (8 bytes, little
 * endian) and its bytes: the capture's identity in a report. */
static bool capture_digest(const char *dir, char **names, size_t n, char out[32], ulp_diag *d)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (size_t k = 0; k < n; k++) {
		char path[4096];
		if (!join_path(path, sizeof path, dir, names[k]))
			return ulp_diag_at(d, dir, 0, 0, "%s: the path is too long", names[k]);
		size_t len;
		char *bytes = ulp_read_file(path, &len, d);
		if (!bytes)
			return false;
		uint8_t lb[8];
		for (int j = 0; j < 8; j++)
			lb[j] = (uint8_t)((uint64_t)len >> (8 * j));
		const uint8_t *parts[3] = { (const uint8_t *)names[k], lb, (const uint8_t *)bytes };
		size_t plen[3] = { strlen(names[k]) + 1, 8, len };
		for (int p = 0; p < 3; p++)
			for (size_t j = 0; j < plen[p]; j++)
				h = (h ^ parts[p][j]) * 0x100000001b3ull;
		free(bytes);
	}
	snprintf(out, 32, "fnv1a64:%016llx", (unsigned long long)h);
	return true;
}

/* Everything a worker needs, set up before the fork. */
typedef struct rdir_ctx {
	int argc;
	char **argv;
	const char *dir;                /* the folder, without a trailing '/' */
	const char *operand;            /* the folder's argument, as argv holds it */
	rdir_args *a;
	char **names;                   /* the folder's frames */
	unsigned *pick;                 /* the shard's frame indices */
	size_t npick;
	_Atomic unsigned *next;         /* shared: the next slot to take */
	unsigned *current;              /* shared: worker w is on slot current[w] - 1 (0: none) */
	rdir_frame *slot;               /* shared: one per picked frame */
	const char *die_on;             /* test hook ULPSIM_TEST_WORKER_DIE: the frame whose worker is killed */
} rdir_ctx;

typedef struct warn_ctx {
	const char *path;
	unsigned n;
} warn_ctx;

static void on_warn(void *ctx, const char *msg)
{
	warn_ctx *w = ctx;
	if (w->n++ < 10)
		fprintf(stderr, "ulpsim: %s: warning: %s (hangs the PICA200; --permissive goes on)\n", w->path, msg);
}

static void join(char *buf, size_t n, const char *a, const char *b, const char *suffix)
{
	snprintf(buf, n, "%s/%s%s", a, b, suffix);
}

/* Replays frame r->index's trace into r (in a worker). */
static void replay_frame(rdir_ctx *c, rdir_frame *r)
{
	char path[4096], png[4096], stats[4096], stem[RDIR_NAME_MAX];
	join(path, sizeof path, c->dir, r->name, "");
	snprintf(stem, sizeof stem, "%.*s", (int)(strlen(r->name) - 5), r->name);
	ulp_diag d;
	ulp_diag_clear(&d);
	trace t;
	ulp_config cfg;
	rdir_args a = *c->a;
	replay_result res;
	memset(&res, 0, sizeof res);
	bool ok = trace_load_with(&t, path, &a.lo, &d);
	if (ok) {
		snprintf(r->gpu, sizeof r->gpu, "%s", t.gpu);
		ulp_config_defaults(&cfg);
		/* the pre-pass applied the same options to this preset without error */
		ok = ulp_config_preset(&cfg, t.gpu, &d) &&
		     parse_dir_args(c->argc, c->argv, c->operand, &a, &cfg) == EXIT_OK;
	}
	if (ok) {
		warn_ctx w = { .path = path };
		replay_opts o = a.o;
		o.cfg = &cfg;
		o.warn = on_warn;
		o.warn_ctx = &w;
		replay_stats sc;
		replay_stats_begin(&sc, NULL, &cfg, &o);
		if (a.out_dir) {
			join(png, sizeof png, a.out_dir, stem, ".png");
			join(stats, sizeof stats, a.out_dir, stem, ".stats.txt");
			o.out_png = png;
			replay_stats_begin(&sc, stats, &cfg, &o);
		}
		ok = replay_run(&t, &o, &res, &d);
		ok = replay_stats_end(&sc, ok, &res, &d) && ok;
		ulp_image_free(res.image);
	}
	trace_free(&t);
	r->draws = res.draws;
	r->vertices = res.vertices;
	r->triangles = res.triangles;
	r->fragments = res.fragments;
	r->cycles = res.cycles;
	r->vertex_cycles = res.vertex_cycles;
	r->fragment_cycles = res.fragment_cycles;
	r->checkpoints = res.checkpoints;
	r->checks_failed = res.checks_failed;
	if (!ok) {
		ulp_diag_format(&d, r->message, sizeof r->message);
		r->status = RDIR_ERROR;
	} else if (res.checks_failed) {
		snprintf(r->message, sizeof r->message, "%u check(s) failed; first: %s", res.checks_failed,
		         res.first_failure);
		r->status = RDIR_CHECK_FAILED;
	} else
		r->status = RDIR_OK;
}

static void worker(rdir_ctx *c, unsigned w)
{
	for (;;) {
		unsigned j = atomic_fetch_add(c->next, 1);
		if (j >= c->npick)
			break;
		c->current[w] = j + 1;
		c->slot[j].status = RDIR_RUNNING;
		if (c->die_on && !strcmp(c->die_on, c->slot[j].name))
			raise(SIGKILL);             /* the test of a dying worker (docs/replay.md) */
		replay_frame(c, &c->slot[j]);
	}
}

/* Runs the picked frames on n workers; false with d when a worker cannot
 * be started (the ones started are waited for). */
static bool run_workers(rdir_ctx *c, unsigned n, ulp_diag *d)
{
	pid_t pid[RDIR_MAX_JOBS];
	unsigned started = 0;
	fflush(NULL);
	bool ok = true;
	for (; started < n; started++) {
		pid[started] = fork();
		if (pid[started] == 0) {
			worker(c, started);
			fflush(NULL);
			_exit(0);
		}
		if (pid[started] < 0) {
			ok = ulp_diag_at(d, c->dir, 0, 0, "cannot start a worker process: %s", strerror(errno));
			break;
		}
	}
	for (unsigned k = 0; k < started; k++) {
		int st;
		while (waitpid(pid[k], &st, 0) < 0 && errno == EINTR)
			;
		unsigned j = c->current[k];
		if ((WIFSIGNALED(st) || (WIFEXITED(st) && WEXITSTATUS(st))) && j &&
		    c->slot[j - 1].status == RDIR_RUNNING) {
			rdir_frame *r = &c->slot[j - 1];      /* the frame this worker was replaying */
			r->status = RDIR_ERROR;
			snprintf(r->message, sizeof r->message, "%s/%s: the worker replaying this frame died (%s %d)",
			         c->dir, r->name, WIFSIGNALED(st) ? "signal" : "exit status",
			         WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
		}
	}
	return ok;
}

/* After a load error: a JSON file that does not say it is a trace gets
 * that said instead of the loader's first complaint. */
static void not_a_trace(const char *path, ulp_diag *d)
{
	ulp_diag scratch;
	ulp_diag_clear(&scratch);
	size_t len;
	char *text = ulp_read_file(path, &len, &scratch);
	cJSON *root = text ? ulp_json_parse(text, path, &scratch) : NULL;
	const cJSON *fmt = cJSON_GetObjectItemCaseSensitive(root, "format");
	if (root && (!cJSON_IsString(fmt) || strcmp(fmt->valuestring, "ulpsim-trace"))) {
		ulp_diag_clear(d);
		ulp_diag_at(d, path, 0, 0, "$.format: not a ulpsim trace (a folder replay takes every *.json "
		            "in the folder as a frame's trace)");
	}
	cJSON_Delete(root);
	free(text);
}

/* Loads every picked frame once, as its worker will, with the options
 * applied to its preset: bad input is refused before anything runs or is
 * written.  Fills the slots' names. */
static bool prepass(rdir_ctx *c, ulp_diag *d)
{
	for (size_t j = 0; j < c->npick; j++) {
		rdir_frame *r = &c->slot[j];
		r->index = c->pick[j];
		r->status = RDIR_PENDING;
		snprintf(r->name, sizeof r->name, "%s", c->names[r->index]);
		char path[4096];
		join(path, sizeof path, c->dir, r->name, "");
		trace t;
		bool ok = trace_load_with(&t, path, &c->a->lo, d);
		if (ok) {
			ulp_config cfg;
			rdir_args a = *c->a;
			ulp_config_defaults(&cfg);
			ok = ulp_config_preset(&cfg, t.gpu, d) &&
			     parse_dir_args(c->argc, c->argv, c->operand, &a, &cfg) == EXIT_OK;
			if (!ok && !d->set)
				ulp_diag_at(d, path, 0, 0, "the options do not apply to this frame's gpu (%s)", t.gpu);
		}
		trace_free(&t);
		if (!ok) {
			not_a_trace(path, d);
			return false;
		}
	}
	return true;
}

int cmd_replay_dir(int argc, char **argv, const char *dir_arg)
{
	char dir[4096];
	snprintf(dir, sizeof dir, "%s", dir_arg);
	for (size_t n = strlen(dir); n > 1 && dir[n - 1] == '/'; n--)
		dir[n - 1] = '\0';
	char **settings = calloc((size_t)argc + 1, sizeof *settings);
	if (!settings)
		return cli_usage("replay", "out of memory");
	rdir_args a = { .settings = settings };
	ulp_config scratch;
	ulp_config_defaults(&scratch);
	if (parse_dir_args(argc, argv, dir_arg, &a, &scratch) != EXIT_OK) {
		free(settings);
		return EXIT_BAD;
	}
	ulp_diag d;
	ulp_diag_clear(&d);
	char **names = NULL;
	size_t nnames = 0;
	int rc = EXIT_BAD;
	rdir_run run = { .dir = dir, .shard_k = a.shard_k, .shard_n = a.shard_n, .settings = settings,
	                 .nsettings = a.nsettings };
	rdir_ctx c = { .argc = argc, .argv = argv, .dir = dir, .operand = dir_arg, .a = &a,
	               .die_on = getenv("ULPSIM_TEST_WORKER_DIE") };
	void *shm = MAP_FAILED;
	size_t shm_len = 0;
	if (!list_frames(dir, &names, &nnames, &d) || !capture_digest(dir, names, nnames, run.digest, &d))
		goto fail;
	c.names = names;
	run.total = (unsigned)nnames;
	c.pick = calloc(nnames, sizeof *c.pick);
	if (!c.pick) {
		ulp_diag_at(&d, dir, 0, 0, "out of memory");
		goto fail;
	}
	for (size_t i = 0; i < nnames; i++)
		if (i % a.shard_n == a.shard_k - 1)
			c.pick[c.npick++] = (unsigned)i;
	/* the shared table: the counter, current[RDIR_MAX_JOBS], the slots */
	size_t head = 64 + RDIR_MAX_JOBS * sizeof(unsigned);
	shm_len = head + (c.npick ? c.npick : 1) * sizeof(rdir_frame);
	shm = mmap(NULL, shm_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shm == MAP_FAILED) {
		ulp_diag_at(&d, dir, 0, 0, "cannot map the results table: %s", strerror(errno));
		goto fail;
	}
	c.next = shm;
	c.current = (unsigned *)((char *)shm + 64);
	c.slot = (rdir_frame *)((char *)shm + head);
	atomic_init(c.next, 0);
	if (!prepass(&c, &d) || (a.out_dir && !cli_mkdir_p(a.out_dir, &d)))
		goto fail;
	unsigned jobs = a.jobs;
	if (!jobs) {
		long nc = sysconf(_SC_NPROCESSORS_ONLN);
		jobs = nc < 1 ? 1 : nc > RDIR_MAX_JOBS ? RDIR_MAX_JOBS : (unsigned)nc;
	}
	if (jobs > c.npick)
		jobs = c.npick ? (unsigned)c.npick : 1;
	double t0 = ulp_host_seconds();
	if (c.npick && !run_workers(&c, jobs, &d))
		goto fail;
	double dt = ulp_host_seconds() - t0;
	run.frames = c.slot;
	run.nframes = c.npick;
	for (size_t j = 0; j < c.npick; j++)
		if (c.slot[j].status == RDIR_PENDING || c.slot[j].status == RDIR_RUNNING) {
			c.slot[j].status = RDIR_ERROR;
			if (snprintf(c.slot[j].message, sizeof c.slot[j].message, "%s/%s: not replayed (its workers "
			             "died)", dir, c.slot[j].name) < 0)
				c.slot[j].message[0] = '\0';
		}
	if (a.report && !rdir_report_write(&run, a.report, &d))
		goto fail;
	rdir_summary_print(&run, stdout);
	fflush(stdout);
	uint64_t cycles = 0;
	unsigned failed = 0;
	for (size_t j = 0; j < c.npick; j++) {
		const rdir_frame *r = &c.slot[j];
		cycles += r->cycles;
		if (r->status != RDIR_OK) {
			if (r->status == RDIR_CHECK_FAILED)
				fprintf(stderr, "ulpsim: %s/%s: %s\n", dir, r->name, r->message);
			else
				fprintf(stderr, "ulpsim: %s\n", r->message);
			failed++;
		}
	}
	if (failed)
		fprintf(stderr, "ulpsim: %s: %u of %zu frame(s) failed\n", dir, failed, c.npick);
	fprintf(stderr, "ulpsim: %s: %zu frame(s) on %u worker(s) in %.2f s host time, %.3g simulated cycles/s\n",
	        dir, c.npick, jobs, dt, dt > 0 ? (double)cycles / dt : 0);
	rc = rdir_exit_status(&run);
	goto done;
fail:
	rc = cli_fail(&d);
done:
	if (shm != MAP_FAILED)
		munmap(shm, shm_len);
	free(c.pick);
	free_names(names, nnames);
	free(settings);
	return rc;
}

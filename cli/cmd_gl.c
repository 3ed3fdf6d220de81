/* ulpsim gl [options] -- PROGRAM ARGS...: any GL / GLES program on the
 * simulated GPU, through Mesa with the ulpsim Gallium driver (docs/gl.md).
 * Sets the loader's variables and the driver's (frontends/gallium/
 * ulpsim_gallium.h), runs the program, then sums the driver's summary lines. */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cJSON.h>

#include "base/fileio.h"
#include "base/hosttime.h"
#include "cli/cli.h"
#include "sim/core/config.h"
#include "ulpsim/gl_env.h"

static const char usage[] =
	"usage: ulpsim gl [options] -- PROGRAM [ARGS...]\n"
	"  runs a GL 2.1 / GLES 2.0 program on the simulated GPU: Mesa 22.3.6 (make mesa)\n"
	"  with the ulpsim Gallium driver; vertex shaders on the PICA200 units, fragments\n"
	"  on the Tegra GR3D units (docs/gl.md).  Headless programs (EGL surfaceless,\n"
	"  piglit's -fbo) and X11 windows (under Xvfb) both work.  At exit prints the\n"
	"  run's summary on stderr; exits with the program's status.\n"
	"options:\n"
	"  --set KEY=VALUE       one knob; preset=tegra2|tegra3|pica200 (docs/ASSUMPTIONS.md)\n"
	"  --config FILE         knobs from a JSON config\n"
	"  --stats FILE          gem5-style stats of the whole run\n"
	"  --timeline FILE       the run's per-unit timeline (FILE.json: Perfetto)\n"
	"  --frames DIR          each presented frame as DIR/frame-NNNN.png\n"
	"  --summary FILE        also keep the driver's summary lines (JSON, one a line)\n"
	"  --capture DIR         each frame as a self-contained trace DIR/frame-NNNN.json\n"
	"                        (format version 2) that ulpsim replay and ulpsim view run\n"
	"                        without Mesa, with its image and cycles (docs/capture.md)\n"
	"  --frames A-B          with --capture: only frames A..B (0-based; \"A\": one frame)\n"
	"  --capture-frames A-B  the same, whatever --frames says\n"
	"environment: ULPSIM_MESA_LIB, the folder holding swrast_dri.so (default:\n"
	"  mesa/lib next to this ulpsim binary, where make mesa puts it)\n"
	"exit: the program's status (128 + N after signal N); 2 bad usage or no Mesa build\n";

/* The folder with our swrast_dri.so: $ULPSIM_MESA_LIB, else mesa/lib next
 * to the executable (build/ulpsim -> build/mesa/lib). */
static bool driver_dir(char *out, size_t n)
{
	const char *env = getenv("ULPSIM_MESA_LIB");
	if (env && *env) {
		if ((size_t)snprintf(out, n, "%s", env) >= n)
			return false;
	} else {
		char exe[PATH_MAX];
		ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
		if (len <= 0)
			return false;
		exe[len] = 0;
		char *slash = strrchr(exe, '/');
		if (!slash)
			return false;
		*slash = 0;
		if ((size_t)snprintf(out, n, "%s/mesa/lib", exe) >= n)
			return false;
	}
	char so[PATH_MAX + 32];
	if ((size_t)snprintf(so, sizeof so, "%s/swrast_dri.so", out) >= sizeof so)
		return false;
	return access(so, R_OK) == 0;
}

/* An absolute path for the driver (the program may change directory). */
static char *absolute(const char *p)
{
	if (p[0] == '/')
		return strdup(p);
	char cwd[PATH_MAX];
	if (!getcwd(cwd, sizeof cwd))
		return strdup(p);
	size_t n = strlen(cwd) + strlen(p) + 2;
	char *s = malloc(n);
	if (s)
		snprintf(s, n, "%s/%s", cwd, p);
	return s;
}

static bool append(char **buf, size_t *len, const char *s)
{
	size_t n = strlen(s);
	char *b = realloc(*buf, *len + n + 2);
	if (!b)
		return false;
	if (*len)
		b[(*len)++] = ';';
	memcpy(b + *len, s, n + 1);
	*len += n;
	*buf = b;
	return true;
}

typedef struct gl_summary {
	unsigned frames, watchdogs, runs;
	double draws, cycles, fragments, sim_seconds;   /* from the run lines */
	double f_draws, f_cycles, f_fragments;          /* from the frame lines */
} gl_summary;

static double num(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
	return cJSON_IsNumber(v) ? v->valuedouble : 0.0;
}

static void read_summary(const char *path, gl_summary *s)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	size_t len = 0;
	char *text = ulp_read_file(path, &len, &d);
	if (!text)
		return;
	for (char *line = text, *next; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		cJSON *o = cJSON_Parse(line);
		if (!o)
			continue;
		if (cJSON_GetObjectItemCaseSensitive(o, "frame")) {
			s->frames++;
			s->f_draws += num(o, "draws");
			s->f_cycles += num(o, "cycles");
			s->f_fragments += num(o, "fragments");
		} else if (cJSON_GetObjectItemCaseSensitive(o, "run")) {
			s->runs++;
			s->draws += num(o, "draws");
			s->cycles += num(o, "cycles");
			s->fragments += num(o, "fragments");
			s->sim_seconds += num(o, "sim_seconds");
		} else if (cJSON_GetObjectItemCaseSensitive(o, "watchdog")) {
			s->watchdogs++;
		}
		cJSON_Delete(o);
	}
	free(text);
}

static void print_summary(const gl_summary *s, double wall)
{
	double draws = s->runs ? s->draws : s->f_draws;
	double cycles = s->runs ? s->cycles : s->f_cycles;
	double frags = s->runs ? s->fragments : s->f_fragments;
	double secs = s->sim_seconds > 0 ? s->sim_seconds : wall;
	fprintf(stderr, "ulpsim gl: %u frames, %.0f draws, %.0f cycles", s->frames, draws, cycles);
	if (s->frames)
		fprintf(stderr, " (%.0f per frame)", cycles / s->frames);
	if (draws > 0)
		fprintf(stderr, ", %.0f cycles per draw", cycles / draws);
	fprintf(stderr, ", %.0f fragments, %.3g simulated cycles/s", frags, secs > 0 ? cycles / secs : 0.0);
	if (s->watchdogs)
		fprintf(stderr, ", %u draws stopped by the watchdog", s->watchdogs);
	fputc('\n', stderr);
}

/* "A" or "A-B" (A <= B): a frame range. */
static bool frame_range(const char *s, unsigned *a, unsigned *b)
{
	char tail;
	int n = sscanf(s, "%u-%u%c", a, b, &tail);
	if (n == 1 && strspn(s, "0123456789") == strlen(s)) {
		*b = *a;
		return true;
	}
	return n == 2 && strspn(s, "0123456789-") == strlen(s) && *a <= *b;
}

/* The captures' "gpu" from the knobs: only a preset can be captured. */
static const char *capture_gpu(const char *sets, const char *config)
{
	if (config)
		return NULL;
	const char *gpu = "tegra2";
	for (const char *p = sets; p && *p;) {
		size_t n = strcspn(p, ";");
		if (n == 13 && !strncmp(p, "preset=tegra2", 13))
			gpu = "tegra2";
		else if (n == 13 && !strncmp(p, "preset=tegra3", 13))
			gpu = "tegra3";
		else
			return NULL;
		p += n + (p[n] == ';');
	}
	return gpu;
}

/* eglretrace/glretrace ARGS: each FILE.trace argument must be an apitrace
 * file (snappy "at" or gzip magic: apitrace 11's readers; a file that is
 * neither makes eglretrace abort), so a wrong file is a clear error. */
static bool apitrace_args_ok(int argc, char **argv)
{
	const char *prog = strrchr(argv[0], '/');
	prog = prog ? prog + 1 : argv[0];
	size_t n = strlen(prog);
	if (n < 7 || strcmp(prog + n - 7, "retrace"))
		return true;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		size_t len = strlen(a);
		if (a[0] == '-' || len < 6 || strcmp(a + len - 6, ".trace"))
			continue;
		FILE *f = fopen(a, "rb");
		unsigned char m[2] = { 0, 0 };
		size_t got = f ? fread(m, 1, 2, f) : 0;
		if (f)
			fclose(f);
		if (!f) {
			fprintf(stderr, "ulpsim gl: %s: cannot open: %s\n", a, strerror(errno));
			return false;
		}
		if (got < 2 || !((m[0] == 'a' && m[1] == 't') || (m[0] == 0x1f && m[1] == 0x8b))) {
			fprintf(stderr, "ulpsim gl: %s: byte 0: not an apitrace file (neither the snappy \"at\" nor the "
			        "gzip magic; a brotli trace: apitrace repack it)\n", a);
			return false;
		}
	}
	return true;
}

static int mkdir_p(const char *path)
{
	char buf[PATH_MAX];
	snprintf(buf, sizeof buf, "%s", path);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(buf, 0777) != 0 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return mkdir(buf, 0777) != 0 && errno != EEXIST ? -1 : 0;
}

int cmd_gl(int argc, char **argv)
{
	int sep = -1;
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--")) {
			sep = i;
			break;
		}
	if (cli_wants_help(sep < 0 ? argc : sep, argv)) {
		fputs(usage, stdout);
		return EXIT_OK;
	}
	if (sep < 0 || sep + 1 >= argc)
		return cli_usage("gl", "give the program after '--'");
	const char *stats = NULL, *timeline = NULL, *frames = NULL, *config = NULL, *keep = NULL;
	const char *capture = NULL, *cap_frames = NULL;
	char *sets = NULL;
	size_t sets_len = 0;
	ulp_config cfg;
	ulp_config_defaults(&cfg);
	int rc = EXIT_BAD;
	for (int i = 1, k; i < sep; i++) {
		const char *a = argv[i];
		bool more = i + 1 < sep;
		if (!strcmp(a, "--stats") && more)
			stats = argv[++i];
		else if (!strcmp(a, "--timeline") && more)
			timeline = argv[++i];
		else if (!strcmp(a, "--frames") && more)
			frames = argv[++i];
		else if (!strcmp(a, "--summary") && more)
			keep = argv[++i];
		else if (!strcmp(a, "--capture") && more)
			capture = argv[++i];
		else if (!strcmp(a, "--capture-frames") && more)
			cap_frames = argv[++i];
		else if ((!strcmp(a, "--set") || !strcmp(a, "--config")) && more) {
			/* checked here, so a bad knob stops before the program runs */
			int at = i;
			if ((k = cli_config_option(sep, argv, &i, &cfg)) < 0)
				goto out;
			if (!strcmp(a, "--set") && !append(&sets, &sets_len, argv[at + 1]))
				goto out;
			if (!strcmp(a, "--config"))
				config = argv[at + 1];
		} else {
			rc = cli_usage("gl", "unknown option '%s'", a);
			goto out;
		}
	}
	unsigned fa = 0, fb = 0;
	if (capture && frames && !cap_frames && frames[0] >= '0' && frames[0] <= '9' &&
	    strspn(frames, "0123456789-") == strlen(frames)) {
		cap_frames = frames;          /* --capture DIR --frames A-B: a range, not a folder */
		frames = NULL;
	}
	if (cap_frames && (!capture || !frame_range(cap_frames, &fa, &fb))) {
		rc = cli_usage("gl", capture ? "--frames/--capture-frames: '%s' is not a frame range A-B (0-based, A <= B)"
		                             : "--capture-frames '%s' needs --capture DIR", cap_frames);
		goto out;
	}
	const char *cap_gpu = capture ? capture_gpu(sets, config) : NULL;
	if (capture && !cap_gpu) {
		rc = cli_usage("gl", "--capture: a capture's traces hold only the gpu preset (--set preset=tegra2 or "
		               "preset=tegra3); other knobs and --config would not replay the same");
		goto out;
	}
	if (!apitrace_args_ok(argc - sep - 1, argv + sep + 1))
		goto out;
	char dir[PATH_MAX];
	if (!driver_dir(dir, sizeof dir)) {
		fprintf(stderr, "ulpsim gl: no Mesa build with the ulpsim driver (%s/swrast_dri.so): run make mesa\n",
		        dir);
		goto out;
	}
	for (int k = 0; k < 2; k++) {
		const char *d = k ? capture : frames;
		if (d && mkdir_p(d) != 0) {
			fprintf(stderr, "ulpsim gl: cannot create %s: %s\n", d, strerror(errno));
			goto out;
		}
	}
	char summary[] = "/tmp/ulpsim-gl-XXXXXX";
	int fd = mkstemp(summary);
	if (fd < 0) {
		fprintf(stderr, "ulpsim gl: cannot create a summary file in /tmp: %s\n", strerror(errno));
		goto out;
	}
	close(fd);
	setenv("LIBGL_DRIVERS_PATH", dir, 1);
	setenv("LIBGL_ALWAYS_SOFTWARE", "1", 1);
	setenv("GALLIUM_DRIVER", "ulpsim", 1);
	setenv(ULPSIM_ENV_SUMMARY, summary, 1);
	const char *paths[][2] = { { ULPSIM_ENV_STATS, stats }, { ULPSIM_ENV_TIMELINE, timeline },
		                   { ULPSIM_ENV_FRAMES, frames }, { ULPSIM_ENV_CONFIG, config },
		                   { ULPSIM_ENV_CAPTURE, capture } };
	for (size_t k = 0; k < sizeof paths / sizeof paths[0]; k++) {
		if (!paths[k][1]) {
			unsetenv(paths[k][0]);
			continue;
		}
		char *abs = absolute(paths[k][1]);
		setenv(paths[k][0], abs ? abs : paths[k][1], 1);
		free(abs);
	}
	if (cap_frames)
		setenv(ULPSIM_ENV_CAPTURE_FRAMES, cap_frames, 1);
	else
		unsetenv(ULPSIM_ENV_CAPTURE_FRAMES);
	if (cap_gpu)
		setenv(ULPSIM_ENV_CAPTURE_GPU, cap_gpu, 1);
	else
		unsetenv(ULPSIM_ENV_CAPTURE_GPU);
	if (sets)
		setenv(ULPSIM_ENV_SET, sets, 1);
	else
		unsetenv(ULPSIM_ENV_SET);
	fflush(NULL);
	/* SIGINT / SIGTERM (Ctrl-C, timeout) go to the program, and the summary
	 * is still printed: held here, forwarded while waiting. */
	sigset_t stop, old;
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigprocmask(SIG_BLOCK, &stop, &old);
	double t0 = ulp_host_seconds();
	pid_t pid = fork();
	if (pid < 0) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		fprintf(stderr, "ulpsim gl: fork: %s\n", strerror(errno));
		unlink(summary);
		goto out;
	}
	if (pid == 0) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		execvp(argv[sep + 1], argv + sep + 1);
		fprintf(stderr, "ulpsim gl: cannot run %s: %s\n", argv[sep + 1], strerror(errno));
		_exit(127);
	}
	int status = 0;
	for (;;) {
		pid_t w = waitpid(pid, &status, WNOHANG);
		if (w == pid || (w < 0 && errno != EINTR))
			break;
		const struct timespec tick = { 0, 50 * 1000 * 1000 };
		int sig = sigtimedwait(&stop, NULL, &tick);
		if (sig > 0)
			kill(pid, sig);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	double wall = ulp_host_seconds() - t0;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
		FILE *f = fopen(summary, "r");
		long sz = 0;
		if (f) {
			fseek(f, 0, SEEK_END);
			sz = ftell(f);
			fclose(f);
		}
		if (sz == 0) {         /* exec failed (or the program itself said 127) */
			unlink(summary);
			rc = EXIT_BAD;
			goto out;
		}
	}
	gl_summary s;
	memset(&s, 0, sizeof s);
	read_summary(summary, &s);
	print_summary(&s, wall);
	if (keep) {
		ulp_diag d;
		ulp_diag_clear(&d);
		size_t len = 0;
		char *text = ulp_read_file(summary, &len, &d);
		if (!text || !ulp_write_file(keep, text, len, &d))
			fprintf(stderr, "ulpsim gl: %s: %s\n", keep, d.msg);
		free(text);
	}
	unlink(summary);
	rc = WIFEXITED(status) ? WEXITSTATUS(status) : WIFSIGNALED(status) ? 128 + WTERMSIG(status) : EXIT_BAD;
out:
	free(sets);
	return rc;
}

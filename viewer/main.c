/* ulpsim-view: arguments, the replay thread, the event loop, and the
 * headless screenshot mode.  docs/viewer.md. */
#include "view.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { EXIT_USAGE = 2, MAX_SETTINGS = 64 };

typedef struct options {
	const char *trace;
	const char *screenshot;
	const char *settings[MAX_SETTINGS];
	size_t nsettings;
	uint64_t at_cycle;
	bool have_at;
	uint32_t sel_x, sel_y;
	bool have_sel;
	int w, h;
	bool window;             /* the screenshot from a real window (not offscreen) */
	const char *keys;        /* keys pressed before the screenshot */
	uint64_t bench_frames;   /* draw this many frames first, print the mean time */
	size_t max_events;
	size_t max_writes;
	bool allow_paths;        /* side files from outside the trace's folder */
	uint64_t max_side_file;  /* --max-side-file (0: the default) */
} options;

static void usage(FILE *f)
{
	fputs("usage: ulpsim view TRACE.json [options]   (the program: build/ulpsim-view)\n"
	      "  --screenshot OUT.png  render the window offscreen, save it, exit\n"
	      "  --at-cycle N          the cycle cursor at N\n"
	      "  --select X,Y          select pixel (X, Y) of the render target (top-left origin):\n"
	      "                        its journey is drawn and printed on stdout\n"
	      "  --size WxH            window size (default 1280x800; screenshots 1000x700)\n"
	      "  --window              with --screenshot: take it from a real window\n"
	      "  --keys K1,K2,...      with --screenshot: press these keys first (SDL key names,\n"
	      "                        e.g. N,D,Right,Shift+D,1,2,Return,F1); prints the cursor\n"
	      "  --bench-frames N      with --screenshot: draw N frames (zooming the timeline)\n"
	      "                        first and print the mean frame time\n"
	      "  --set key=value       a configuration setting, as 'ulpsim replay --set'\n"
	      "  --allow-paths         side files from outside the trace's folder, as replay's\n"
	      "  --max-side-file SIZE  each side file at most SIZE (bytes, or K, M, G), as replay's\n"
	      "  --max-events N        timeline events kept (default 4194304)\n"
	      "  --max-writes N        colour writes logged for the frame at the cursor\n"
	      "                        (default 4194304; 16 bytes each)\n"
	      "exit codes: 0 success, 2 bad usage, input or display error.  Keys: F1 in the window.\n",
	      f);
}

static bool parse_u64(const char *s, uint64_t *out)
{
	if (!s || !*s || *s == '-' || *s == '+')
		return false;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || *end)
		return false;
	*out = v;
	return true;
}

static bool parse_pair(const char *s, char sep, uint64_t *a, uint64_t *b)
{
	const char *p = s ? strchr(s, sep) : NULL;
	if (!p || p == s || (size_t)(p - s) >= 24)
		return false;
	char first[24];
	memcpy(first, s, (size_t)(p - s));
	first[p - s] = 0;
	return parse_u64(first, a) && parse_u64(p + 1, b);
}

static int parse_args(int argc, char **argv, options *o)
{
	memset(o, 0, sizeof *o);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *val = i + 1 < argc ? argv[i + 1] : NULL;
		uint64_t x, y;
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(a, "--window")) {
			o->window = true;
			continue;
		} else if (!strcmp(a, "--allow-paths")) {
			o->allow_paths = true;
			continue;
		}
		if (a[0] != '-') {
			if (o->trace) {
				fprintf(stderr, "ulpsim-view: one trace only ('%s' and '%s')\n", o->trace, a);
				return EXIT_USAGE;
			}
			o->trace = a;
			continue;
		}
		if (!val) {
			fprintf(stderr, "ulpsim-view: %s: %s\n", a,
			        !strcmp(a, "--screenshot") || !strcmp(a, "--at-cycle") || !strcmp(a, "--select") ||
			                !strcmp(a, "--size") || !strcmp(a, "--set") || !strcmp(a, "--max-events") ||
			                !strcmp(a, "--max-writes") || !strcmp(a, "--max-side-file") ||
			                !strcmp(a, "--keys") || !strcmp(a, "--bench-frames")
			            ? "needs a value" : "unknown option");
			return EXIT_USAGE;
		}
		i++;
		if (!strcmp(a, "--screenshot")) {
			o->screenshot = val;
		} else if (!strcmp(a, "--max-side-file")) {
			if (!ulpsim_parse_side_file_cap(val, &o->max_side_file)) {
				fprintf(stderr, "ulpsim-view: --max-side-file '%s': expected bytes, or K, M or G "
				        "(1 .. 16G)\n", val);
				return EXIT_USAGE;
			}
		} else if (!strcmp(a, "--at-cycle")) {
			if (!parse_u64(val, &o->at_cycle)) {
				fprintf(stderr, "ulpsim-view: --at-cycle '%s': expected a cycle number\n", val);
				return EXIT_USAGE;
			}
			o->have_at = true;
		} else if (!strcmp(a, "--select")) {
			if (!parse_pair(val, ',', &x, &y) || x > UINT32_MAX || y > UINT32_MAX) {
				fprintf(stderr, "ulpsim-view: --select '%s': expected X,Y\n", val);
				return EXIT_USAGE;
			}
			o->sel_x = (uint32_t)x;
			o->sel_y = (uint32_t)y;
			o->have_sel = true;
		} else if (!strcmp(a, "--size")) {
			if (!parse_pair(val, 'x', &x, &y) || x < 320 || y < 240 || x > 8192 || y > 8192) {
				fprintf(stderr, "ulpsim-view: --size '%s': expected WxH, 320x240 to 8192x8192\n", val);
				return EXIT_USAGE;
			}
			o->w = (int)x;
			o->h = (int)y;
		} else if (!strcmp(a, "--bench-frames")) {
			if (!parse_u64(val, &o->bench_frames) || !o->bench_frames || o->bench_frames > 100000) {
				fprintf(stderr, "ulpsim-view: --bench-frames '%s': expected 1..100000\n", val);
				return EXIT_USAGE;
			}
		} else if (!strcmp(a, "--keys")) {
			o->keys = val;
		} else if (!strcmp(a, "--set")) {
			if (o->nsettings == MAX_SETTINGS) {
				fprintf(stderr, "ulpsim-view: at most %d --set\n", MAX_SETTINGS);
				return EXIT_USAGE;
			}
			o->settings[o->nsettings++] = val;
		} else if (!strcmp(a, "--max-events")) {
			if (!parse_u64(val, &x) || x == 0) {
				fprintf(stderr, "ulpsim-view: --max-events '%s': expected a positive number\n", val);
				return EXIT_USAGE;
			}
			o->max_events = (size_t)x;
		} else if (!strcmp(a, "--max-writes")) {
			if (!parse_u64(val, &x) || x == 0) {
				fprintf(stderr, "ulpsim-view: --max-writes '%s': expected a positive number\n", val);
				return EXIT_USAGE;
			}
			o->max_writes = (size_t)x;
		} else {
			fprintf(stderr, "ulpsim-view: %s: unknown option\n", a);
			return EXIT_USAGE;
		}
	}
	if (!o->trace) {
		fprintf(stderr, "ulpsim-view: no trace given\n");
		usage(stderr);
		return EXIT_USAGE;
	}
	if ((o->window || o->keys || o->bench_frames) && !o->screenshot) {
		fprintf(stderr, "ulpsim-view: %s goes with --screenshot\n",
		        o->window ? "--window" : o->keys ? "--keys" : "--bench-frames");
		return EXIT_USAGE;
	}
	if (!o->w) {
		o->w = o->screenshot ? 1000 : 1280;
		o->h = o->screenshot ? 700 : 800;
	}
	return -1;
}

/* After the run: the model, the texture, the initial view, --at-cycle and --select. */
static bool viewer_ready(viewer *v, const options *o)
{
	char err[256];
	if (!view_model_build(&v->m, v->sim, err, sizeof err)) {
		fprintf(stderr, "ulpsim-view: %s\n", err);
		return false;
	}
	v->ready = true;
	if (!view_image_upload(v)) {
		fprintf(stderr, "ulpsim-view: %s\n", v->msg);
		return false;
	}
	view_layout(v);
	view_image_fit(v);
	view_timeline_fit(v);
	for (unsigned k = 0; k < v->m.nlanes; k++)
		if (!strcmp(v->m.lane[k].name, "pseq"))
			v->sel_lane = k;
	v->cursor = v->m.end - 1;                   /* the final frame, until the user steps */
	if (o->have_at) {
		if (o->at_cycle >= v->m.end) {
			fprintf(stderr, "ulpsim-view: --at-cycle %llu: the run has cycles 0..%llu\n",
			        (unsigned long long)o->at_cycle, (unsigned long long)(v->m.end - 1));
			return false;
		}
		v->cursor = o->at_cycle;
	}
	if (o->have_sel) {
		if (o->sel_x >= v->m.img_w || o->sel_y >= v->m.img_h) {
			fprintf(stderr, "ulpsim-view: --select %u,%u: the render target is %ux%u\n", o->sel_x,
			        o->sel_y, v->m.img_w, v->m.img_h);
			return false;
		}
		view_select_pixel(v, o->sel_x, o->sel_y);
		char lines[VIEW_JOURNEY_LINES][VIEW_LINE];
		unsigned n = view_journey_lines(&v->journey, lines, VIEW_JOURNEY_LINES, false);
		for (unsigned i = 0; i < n; i++)
			printf("%s\n", lines[i]);
		fflush(stdout);
	}
	return true;
}

/* The statistics pane's port line, on stdout (screenshot mode). */
static void print_ports(const viewer *v)
{
	printf("%s", VIEW_PORTS_TITLE);
	char item[96];
	bool full;
	for (unsigned k = 0; view_port_item(v->sim, k, item, sizeof item, &full); k++)
		printf(" %s%s", item, full ? " (full)" : "");
	printf("\n");
	fflush(stdout);
}

/* --keys: each name pressed in turn, as the window would receive it. */
static bool press_keys(viewer *v, const char *list)
{
	char name[64];
	for (const char *p = list; *p;) {
		size_t n = strcspn(p, ",");
		if (n == 0 || n >= sizeof name) {
			fprintf(stderr, "ulpsim-view: --keys '%s': an empty or too long key name\n", list);
			return false;
		}
		memcpy(name, p, n);
		name[n] = 0;
		p += n + (p[n] == ',');
		SDL_Event e;
		memset(&e, 0, sizeof e);
		e.type = SDL_KEYDOWN;
		const char *k = name;
		if (!SDL_strncasecmp(k, "shift+", 6)) {
			e.key.keysym.mod = KMOD_LSHIFT;
			k += 6;
		}
		e.key.keysym.sym = SDL_GetKeyFromName(k);
		if (e.key.keysym.sym == SDLK_UNKNOWN) {
			fprintf(stderr, "ulpsim-view: --keys: unknown key '%s'\n", name);
			return false;
		}
		view_handle_event(v, &e);
	}
	const view_lane *l = v->m.nlanes ? &v->m.lane[v->sel_lane] : NULL;
	char item[64] = "";
	uint32_t id, arg;
	if (l && view_lane_item_at(&v->m, l, v->cursor, &id, &arg))
		snprintf(item, sizeof item, l->tegra ? "  quad %u EXEC %u" : "  item %u pc %u", id, arg);
	printf("cursor cycle %llu lane %s: %s%s%s%s\n", (unsigned long long)v->cursor,
	       l ? l->name : "-", l ? ulpsim_activity_name(view_lane_act_at(l, v->cursor)) : "-", item,
	       v->msg[0] ? "  message: " : "", v->msg);
	if (v->source)
		view_source_print(v, stdout);
	fflush(stdout);
	return true;
}

static bool save_screenshot(viewer *v, const char *path)
{
	size_t pitch = (size_t)v->w * 4;
	uint8_t *px = malloc(pitch * (size_t)v->h);
	char err[256];
	if (!px) {
		fprintf(stderr, "ulpsim-view: out of memory\n");
		return false;
	}
	bool ok = SDL_RenderReadPixels(v->r, NULL, SDL_PIXELFORMAT_RGBA32, px, (int)pitch) == 0;
	if (!ok)
		fprintf(stderr, "ulpsim-view: reading the frame back: %s\n", SDL_GetError());
	for (size_t i = 0; ok && i < (size_t)v->w * (size_t)v->h; i++)
		px[4 * i + 3] = 255;                   /* the frame is opaque */
	if (ok && !(ok = ulpsim_write_png(path, px, (uint32_t)v->w, (uint32_t)v->h, err, sizeof err)))
		fprintf(stderr, "ulpsim-view: %s\n", err);
	free(px);
	return ok;
}

static int headless(viewer *v, const options *o)
{
	char err[512];
	if (!ulpsim_run(v->sim, o->max_events, err, sizeof err)) {
		fprintf(stderr, "ulpsim-view: %s\n", err);
		return EXIT_USAGE;
	}
	SDL_Surface *surf = NULL;
	SDL_Window *win = NULL;
	if (o->window) {
		if (SDL_Init(SDL_INIT_VIDEO) != 0) {
			fprintf(stderr, "ulpsim-view: no display for --window: %s\n", SDL_GetError());
			return EXIT_USAGE;
		}
		win = SDL_CreateWindow("ulpsim-view", SDL_WINDOWPOS_UNDEFINED, SDL_WINDOWPOS_UNDEFINED,
		                       o->w, o->h, SDL_WINDOW_SHOWN);
		v->r = win ? SDL_CreateRenderer(win, -1, SDL_RENDERER_SOFTWARE) : NULL;
	} else {
		surf = SDL_CreateRGBSurfaceWithFormat(0, o->w, o->h, 32, SDL_PIXELFORMAT_RGBA32);
		v->r = surf ? SDL_CreateSoftwareRenderer(surf) : NULL;
	}
	int rc = EXIT_USAGE;
	if (!v->r) {
		fprintf(stderr, "ulpsim-view: cannot create the renderer: %s\n", SDL_GetError());
		goto out;
	}
	v->w = o->w;
	v->h = o->h;
	if (!view_text_init(&v->text, 12, err, sizeof err)) {
		fprintf(stderr, "ulpsim-view: %s\n", err);
		goto out;
	}
	if (!viewer_ready(v, o))
		goto out;
	if (win) {                                  /* let the window appear */
		SDL_Event e;
		for (int k = 0; k < 5; k++) {
			while (SDL_PollEvent(&e))
				;
			view_draw(v, 0, 0);
			SDL_RenderPresent(v->r);
			SDL_Delay(10);
		}
	}
	if (o->keys && !press_keys(v, o->keys))
		goto out;
	if (o->bench_frames) {                      /* zoom in and out: every frame redraws it all */
		Uint64 t0 = SDL_GetPerformanceCounter();
		for (uint64_t f = 0; f < o->bench_frames; f++) {
			view_timeline_zoom(v, v->pane_tl.x + v->pane_tl.w / 2, f % 20 < 10 ? 0.7 : 1 / 0.7);
			view_draw(v, 0, 0);
		}
		double s = (double)(SDL_GetPerformanceCounter() - t0) / (double)SDL_GetPerformanceFrequency();
		printf("%llu frames, %.2f ms a frame (%.0f frames/s), %llu events\n",
		       (unsigned long long)o->bench_frames, 1000 * s / (double)o->bench_frames,
		       (double)o->bench_frames / s, (unsigned long long)v->m.nev);
		view_timeline_fit(v);
	}
	view_draw(v, 0, 0);
	rc = save_screenshot(v, o->screenshot) ? 0 : EXIT_USAGE;
	print_ports(v);
out:
	view_text_fini(&v->text);
	if (v->img_tex)
		SDL_DestroyTexture(v->img_tex);
	if (v->r)
		SDL_DestroyRenderer(v->r);
	if (surf)
		SDL_FreeSurface(surf);
	if (win)
		SDL_DestroyWindow(win);
	if (o->window)
		SDL_Quit();
	return rc;
}

/* ---- interactive ---- */

typedef struct run_job {
	ulpsim *sim;
	size_t max_events;
	bool ok;
	char err[512];
	SDL_atomic_t done;
} run_job;

static int run_thread(void *data)
{
	run_job *j = data;
	j->ok = ulpsim_run(j->sim, j->max_events, j->err, sizeof j->err);
	SDL_AtomicSet(&j->done, 1);
	return 0;
}

static int interactive(viewer *v, const options *o)
{
	char err[512];
	if (SDL_Init(SDL_INIT_VIDEO) != 0) {
		fprintf(stderr, "ulpsim-view: cannot open a display: %s (try --screenshot)\n",
		        SDL_GetError());
		return EXIT_USAGE;
	}
	/* With no display SDL falls back to a driver that shows nothing
	 * ("offscreen", "dummy"): a window nobody sees.  Only when asked for. */
	const char *drv = SDL_GetCurrentVideoDriver(), *asked = SDL_getenv("SDL_VIDEODRIVER");
	if (drv && (!strcmp(drv, "offscreen") || !strcmp(drv, "dummy")) && !(asked && *asked)) {
		fprintf(stderr, "ulpsim-view: cannot open a display: no X11 or Wayland display (DISPLAY and "
		        "WAYLAND_DISPLAY are unset; SDL found only its '%s' driver); try --screenshot\n", drv);
		SDL_Quit();
		return EXIT_USAGE;
	}
	int rc = EXIT_USAGE;
	SDL_Thread *th = NULL;
	run_job job = { .sim = v->sim, .max_events = o->max_events };
	SDL_Window *win = SDL_CreateWindow("ulpsim-view", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED,
	                                   o->w, o->h, SDL_WINDOW_SHOWN | SDL_WINDOW_RESIZABLE);
	if (win) {
		v->r = SDL_CreateRenderer(win, -1, SDL_RENDERER_ACCELERATED | SDL_RENDERER_PRESENTVSYNC);
		if (!v->r)
			v->r = SDL_CreateRenderer(win, -1, SDL_RENDERER_SOFTWARE);
	}
	if (!win || !v->r) {
		fprintf(stderr, "ulpsim-view: cannot create the window: %s\n", SDL_GetError());
		goto out;
	}
	char title[160];
	snprintf(title, sizeof title, "ulpsim-view: %s", ulpsim_trace_name(v->sim));
	SDL_SetWindowTitle(win, title);
	v->w = o->w;
	v->h = o->h;
	if (SDL_GetRendererOutputSize(v->r, &v->w, &v->h) != 0) {
		v->w = o->w;
		v->h = o->h;
	}
	if (!view_text_init(&v->text, 13, err, sizeof err)) {
		fprintf(stderr, "ulpsim-view: %s\n", err);
		goto out;
	}
	view_layout(v);
	SDL_AtomicSet(&job.done, 0);
	th = SDL_CreateThread(run_thread, "ulpsim-replay", &job);
	if (!th) {
		fprintf(stderr, "ulpsim-view: cannot start the replay thread: %s\n", SDL_GetError());
		goto out;
	}
	rc = 0;
	Uint64 last = SDL_GetPerformanceCounter();
	bool dirty = true, was_playing = false;
	while (!v->quit) {
		SDL_Event e;
		/* idle (the replay done, not playing, nothing changed): sleep until an
		 * event comes; the timeout only bounds the wait */
		if (!th && !v->playing && !dirty && SDL_WaitEventTimeout(&e, 1000)) {
			view_handle_event(v, &e);
			dirty = true;
		}
		while (SDL_PollEvent(&e)) {
			view_handle_event(v, &e);
			dirty = true;
		}
		if (th && SDL_AtomicGet(&job.done)) {
			dirty = true;
			SDL_WaitThread(th, NULL);
			th = NULL;
			if (!job.ok) {
				snprintf(v->run_err, sizeof v->run_err, "%s", job.err);
				fprintf(stderr, "ulpsim-view: %s\n", job.err);
				rc = EXIT_USAGE;              /* the window stays to show it */
			} else if (!viewer_ready(v, o)) {
				rc = EXIT_USAGE;              /* a bad --at-cycle or --select */
				v->quit = true;
			}
		}
		Uint64 now = SDL_GetPerformanceCounter();
		if (v->playing) {                  /* from the frame play started, not the idle time */
			view_tick(v, was_playing ? (double)(now - last) / (double)SDL_GetPerformanceFrequency() : 0);
			dirty = true;
		}
		was_playing = v->playing;
		last = now;
		if (!dirty && !th)
			continue;
		uint64_t pc = 0, pe = 0;
		ulpsim_progress(v->sim, &pc, &pe);
		view_draw(v, pc, pe);
		SDL_RenderPresent(v->r);
		dirty = false;
		if (!v->playing)                   /* the replay's progress: about 60 frames a second */
			SDL_Delay(th ? 16 : 0);
		else
			SDL_Delay(1);
	}
	if (th)                  /* the replay cannot be interrupted: wait for it */
		SDL_WaitThread(th, NULL);
out:
	view_text_fini(&v->text);
	if (v->img_tex)
		SDL_DestroyTexture(v->img_tex);
	if (v->r)
		SDL_DestroyRenderer(v->r);
	if (win)
		SDL_DestroyWindow(win);
	SDL_Quit();
	return rc;
}

int main(int argc, char **argv)
{
	options o;
	int rc = parse_args(argc, argv, &o);
	if (rc >= 0)
		return rc;
	viewer *v = calloc(1, sizeof *v);
	if (!v) {
		fprintf(stderr, "ulpsim-view: out of memory\n");
		return EXIT_USAGE;
	}
	char err[512];
	const ulpsim_open_opts oo = { .allow_paths = o.allow_paths, .max_side_file = o.max_side_file };
	v->sim = ulpsim_open_with(o.trace, o.settings, o.nsettings, &oo, err, sizeof err);
	if (!v->sim) {
		fprintf(stderr, "ulpsim-view: %s\n", err);
		free(v);
		return EXIT_USAGE;
	}
	ulpsim_set_max_writes(v->sim, o.max_writes);
	rc = o.screenshot ? headless(v, &o) : interactive(v, &o);
	view_model_free(&v->m);
	free(v->prog[0].text);
	free(v->prog[1].text);
	ulpsim_close(v->sim);
	free(v->frame);
	free(v);
	return rc;
}

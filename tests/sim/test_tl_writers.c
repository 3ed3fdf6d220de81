/* Timeline writers: Chrome JSON (parsed back with cJSON), VCD, Kanata, on
 * synthetic event streams, toy units on a real clock and the PICA200 shader
 * unit; determinism, write failures, and long streams. */
#include <criterion/criterion.h>
#include <cjson/cJSON.h>
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "base/fileio.h"
#include "isa/pica/pica_asm.h"
#include "sim/core/clock.h"
#include "sim/out/tl_chrome.h"
#include "sim/out/tl_kanata.h"
#include "sim/out/tl_vcd.h"
#include "tests/test_util.h"
#include "units/gpu.h"

/* ---- helpers ---- */

static char *path_in(const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = malloc(n);
	cr_assert(p);
	snprintf(p, n, "%s/%s", dir, name);
	return p;
}

static char *slurp(const char *path)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	char *s = ulp_read_file(path, NULL, &d);
	cr_assert(s, "%s", d.msg);
	return s;
}

static unsigned count_files(const char *dir)
{
	DIR *dp = opendir(dir);
	cr_assert(dp);
	unsigned n = 0;
	for (struct dirent *e; (e = readdir(dp));)
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	closedir(dp);
	return n;
}

static void rm_dir(char *dir, char **files, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		remove(files[i]);
		free(files[i]);
	}
	rmdir(dir);
	free(dir);
}

/* Lines starting with prefix.  A plain loop: sanitizer string
 * interceptors make strstr loops over a large file quadratic. */
static unsigned count_lines_with(const char *s, const char *prefix)
{
	unsigned n = 0;
	size_t k = strlen(prefix);
	for (const char *p = s; *p;) {
		if (strncmp(p, prefix, k) == 0)
			n++;
		while (*p && *p != '\n')
			p++;
		if (*p)
			p++;
	}
	return n;
}

/* The last n - 1 bytes of a file, NUL-terminated. */
static void read_tail(const char *path, char *buf, size_t n)
{
	FILE *f = fopen(path, "rb");
	cr_assert(f, "%s", path);
	cr_assert_eq(fseek(f, 0, SEEK_END), 0);
	long size = ftell(f);
	long from = size > (long)n - 1 ? size - ((long)n - 1) : 0;
	cr_assert_eq(fseek(f, from, SEEK_SET), 0);
	size_t got = fread(buf, 1, n - 1, f);
	buf[got] = '\0';
	fclose(f);
}

/* Kanata R lines with the flush flag set. */
static unsigned count_flushed(const char *s)
{
	unsigned n = 0;
	for (const char *p = s; *p;) {
		const char *line = p;
		while (*p && *p != '\n')
			p++;
		if (line[0] == 'R' && line[1] == '\t' && p - line >= 2 && p[-1] == '1' && p[-2] == '\t')
			n++;
		if (*p)
			p++;
	}
	return n;
}

/* The three writers on one timeline. */
typedef struct writers {
	tl_chrome *chrome;
	tl_vcd *vcd;
	tl_kanata *kanata;
	char *dir, *path[3];
} writers;

static void writers_open(writers *w, sim_timeline *tl, uint32_t mhz, const tl_kanata_opts *ko)
{
	tl_kanata_opts kopts = ko ? *ko : (tl_kanata_opts){ 0 };
	kopts.tl = tl;
	ulp_diag d;
	ulp_diag_clear(&d);
	w->dir = test_tmpdir();
	cr_assert(w->dir);
	w->path[0] = path_in(w->dir, "t.json");
	w->path[1] = path_in(w->dir, "t.vcd");
	w->path[2] = path_in(w->dir, "t.kanata");
	w->chrome = tl_chrome_open(w->path[0], &(tl_chrome_opts){ .tl = tl, .clock_mhz = mhz }, &d);
	w->vcd = tl_vcd_open(w->path[1], &(tl_vcd_opts){ .tl = tl }, &d);
	w->kanata = tl_kanata_open(w->path[2], &kopts, &d);
	cr_assert(w->chrome && w->vcd && w->kanata, "%s", d.msg);
	cr_assert(sim_tl_add_sink(tl, tl_chrome_sink(w->chrome)));
	cr_assert(sim_tl_add_sink(tl, tl_vcd_sink(w->vcd)));
	cr_assert(sim_tl_add_sink(tl, tl_kanata_sink(w->kanata)));
	tl->enabled = true;
}

static void writers_close(writers *w, sim_timeline *tl)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	sim_tl_fini(tl);
	cr_assert(tl_chrome_close(w->chrome, &d), "%s", d.msg);
	cr_assert(tl_vcd_close(w->vcd, &d), "%s", d.msg);
	cr_assert(tl_kanata_close(w->kanata, &d), "%s", d.msg);
}

/* The synthetic stream: two quads through pseq then mfu; quad 7 comes back
 * for EXEC 1.  Events are in cycle order as the clock emits them. */
enum { PSEQ = 0, MFU = 1 };
static void emit_known(sim_timeline *tl)
{
	const uint8_t stall_full = SIM_ACT_STALL + SIM_STALL_OUTPUT_FULL;
	sim_tl_emit(tl, 10, PSEQ, SIM_TL_ACTIVITY, 0, SIM_ACT_BUSY);
	sim_tl_emit(tl, 10, PSEQ, SIM_TL_BEGIN, 7, 0);
	sim_tl_emit(tl, 11, PSEQ, SIM_TL_BEGIN, 8, 0);
	sim_tl_emit(tl, 12, MFU, SIM_TL_BEGIN, 7, 0);
	sim_tl_emit(tl, 12, PSEQ, SIM_TL_END, 7, 0);
	sim_tl_emit(tl, 12, PSEQ, SIM_TL_ACTIVITY, 0, stall_full);
	sim_tl_emit(tl, 13, PSEQ, SIM_TL_END, 8, 0);
	sim_tl_emit(tl, 13, MFU, SIM_TL_BEGIN, 8, 0);
	sim_tl_emit(tl, 13, PSEQ, SIM_TL_ACTIVITY, 0, SIM_ACT_IDLE);
	sim_tl_emit(tl, 13, MFU, SIM_TL_ACTIVITY, 0, SIM_ACT_BUSY);
	sim_tl_emit(tl, 15, MFU, SIM_TL_END, 7, 0);
	sim_tl_emit(tl, 15, MFU, SIM_TL_INSTANT, 1, 0x42);
	sim_tl_emit(tl, 16, MFU, SIM_TL_END, 8, 0);
	sim_tl_emit(tl, 16, MFU, SIM_TL_ACTIVITY, 0, SIM_ACT_IDLE);
	sim_tl_emit(tl, 16, PSEQ, SIM_TL_BEGIN, 7, 1);
	sim_tl_emit(tl, 18, PSEQ, SIM_TL_END, 7, 1);
}

static void known_run(writers *w, uint32_t mhz)
{
	sim_timeline tl;
	cr_assert(sim_tl_init(&tl));
	cr_assert_eq(sim_tl_lane(&tl, "pseq"), PSEQ);
	cr_assert_eq(sim_tl_lane(&tl, "mfu"), MFU);
	writers_open(w, &tl, mhz, NULL);
	emit_known(&tl);
	writers_close(w, &tl);
}

static const cJSON *find_event(const cJSON *evs, const char *ph, int tid, double ts)
{
	const cJSON *e;
	cJSON_ArrayForEach(e, evs) {
		const cJSON *p = cJSON_GetObjectItem(e, "ph"), *t = cJSON_GetObjectItem(e, "tid"),
		            *s = cJSON_GetObjectItem(e, "ts");
		if (cJSON_IsString(p) && strcmp(p->valuestring, ph) == 0 && cJSON_IsNumber(t) &&
		    t->valueint == tid && cJSON_IsNumber(s) && s->valuedouble == ts)
			return e;
	}
	return NULL;
}

static const char *str_of(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItem(o, key);
	return cJSON_IsString(v) ? v->valuestring : "";
}

static double num_of(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItem(o, key);
	return cJSON_IsNumber(v) ? v->valuedouble : -1;
}

static const char *thread_name(const cJSON *evs, int tid)
{
	const cJSON *e;
	cJSON_ArrayForEach(e, evs) {
		if (strcmp(str_of(e, "ph"), "M") == 0 && strcmp(str_of(e, "name"), "thread_name") == 0 &&
		    (int)num_of(e, "tid") == tid)
			return str_of(cJSON_GetObjectItem(e, "args"), "name");
	}
	return NULL;
}

/* No two "X" events on one track overlap (Perfetto cannot draw them). */
static void assert_no_overlap(const cJSON *evs)
{
	const cJSON *a, *b;
	cJSON_ArrayForEach(a, evs) {
		if (strcmp(str_of(a, "ph"), "X"))
			continue;
		cJSON_ArrayForEach(b, evs) {
			if (a == b || strcmp(str_of(b, "ph"), "X") || num_of(a, "tid") != num_of(b, "tid"))
				continue;
			double a0 = num_of(a, "ts"), a1 = a0 + num_of(a, "dur");
			double b0 = num_of(b, "ts"), b1 = b0 + num_of(b, "dur");
			cr_assert(a1 <= b0 + 1e-9 || b1 <= a0 + 1e-9, "overlap on tid %d at %g and %g",
			          (int)num_of(a, "tid"), a0, b0);
		}
	}
}

/* ---- Chrome JSON ---- */

Test(tl_writers, chrome_known_stream_parses_back)
{
	writers w;
	known_run(&w, 0);
	char *s = slurp(w.path[0]);
	cJSON *root = cJSON_Parse(s);
	cr_assert(root, "the file is JSON");
	cr_assert_str_eq(str_of(root, "displayTimeUnit"), "ns");
	cr_assert_str_eq(str_of(cJSON_GetObjectItem(root, "otherData"), "time_unit"), "1 cycle = 1 us");
	const cJSON *evs = cJSON_GetObjectItem(root, "traceEvents");
	cr_assert(cJSON_IsArray(evs));
	/* lanes: pseq tid 1000 (+ slots 1001, 1002), mfu tid 2000 */
	cr_assert_str_eq(thread_name(evs, 1000), "pseq");
	cr_assert_str_eq(thread_name(evs, 1001), "pseq #0");
	cr_assert_str_eq(thread_name(evs, 1002), "pseq #1");
	cr_assert_str_eq(thread_name(evs, 2000), "mfu");
	/* activity spans, idle not drawn */
	const cJSON *e = find_event(evs, "X", 1000, 10);
	cr_assert(e);
	cr_assert_str_eq(str_of(e, "name"), "busy");
	cr_assert_eq(num_of(e, "dur"), 2);
	e = find_event(evs, "X", 1000, 12);
	cr_assert(e);
	cr_assert_str_eq(str_of(e, "name"), "stall:output_full");
	cr_assert_eq(num_of(e, "dur"), 1);
	cr_assert_null(find_event(evs, "X", 1000, 13), "idle is a gap");
	e = find_event(evs, "X", 2000, 13);
	cr_assert(e && num_of(e, "dur") == 3);
	/* items: overlapping quads on different slots; EXEC 1 reuses slot 0 */
	e = find_event(evs, "X", 1001, 10);
	cr_assert(e && num_of(e, "dur") == 2);
	cr_assert_eq(num_of(cJSON_GetObjectItem(e, "args"), "id"), 7);
	e = find_event(evs, "X", 1002, 11);
	cr_assert(e && num_of(e, "dur") == 2);
	e = find_event(evs, "X", 1001, 16);
	cr_assert(e && num_of(e, "dur") == 2);
	cr_assert_str_eq(str_of(e, "name"), "0x1");
	e = find_event(evs, "i", 2000, 15);
	cr_assert(e);
	cr_assert_eq(num_of(cJSON_GetObjectItem(e, "args"), "arg"), 0x42);
	unsigned nx = 0;
	cJSON_ArrayForEach(e, evs)
		nx += strcmp(str_of(e, "ph"), "X") == 0;
	cr_assert_eq(nx, 3 + 5, "3 activity spans, 5 items");
	assert_no_overlap(evs);
	cJSON_Delete(root);
	free(s);
	rm_dir(w.dir, w.path, 3);
}

Test(tl_writers, chrome_clock_scaling)
{
	writers w;
	known_run(&w, 4);   /* 4 MHz: a cycle is 0.25 µs */
	char *s = slurp(w.path[0]);
	cJSON *root = cJSON_Parse(s);
	cr_assert(root);
	cr_assert_eq(num_of(cJSON_GetObjectItem(root, "otherData"), "clock_mhz"), 4);
	const cJSON *evs = cJSON_GetObjectItem(root, "traceEvents");
	const cJSON *e = find_event(evs, "X", 2000, 3.25);
	cr_assert(e, "mfu busy from cycle 13 = 3.25 us");
	cr_assert_eq(num_of(e, "dur"), 0.75);
	cr_assert(strstr(s, "\"ts\":2.500,\"dur\":0.500"), "pseq busy at 10 for 2 cycles");
	cJSON_Delete(root);
	free(s);
	rm_dir(w.dir, w.path, 3);
}

/* ---- VCD ---- */

Test(tl_writers, vcd_header_scopes_and_time_order)
{
	writers w;
	known_run(&w, 0);
	char *s = slurp(w.path[1]);
	cr_assert(strstr(s, "$timescale 1ns $end\n"));
	cr_assert(strstr(s, "$comment activity codes: 0 idle, 1 busy, 2 stall:output_full,"));
	cr_assert(strstr(s, "$scope module gpu $end\n$scope module pseq $end\n"
	                    "$var reg 8 ! activity $end\n$var reg 32 \" item $end\n"
	                    "$var reg 32 # arg $end\n$var reg 16 $ inflight $end\n"
	                    "$var event 1 % instant $end\n$upscope $end\n"
	                    "$scope module mfu $end\n$var reg 8 & activity $end\n"), "%s", s);
	const char *body = strstr(s, "$enddefinitions $end\n#0\n$dumpvars\nb0 !\nbx \"\nbx #\nb0 $\n");
	cr_assert(body, "%s", s);
	/* value changes at 10, 11, 12, 13, 15, 16, 18 in increasing order */
	const char *want = "#10\nb1 !\nb111 \"\nb0 #\nb1 $\n"
	                   "#11\nb1000 \"\nb10 $\n"
	                   "#12\nb111 '\nb0 (\nb1 )\nb10 !\nb1 $\n"
	                   "#13\nb0 !\nbx \"\nbx #\nb0 $\nb1 &\nb1000 '\nb10 )\n"
	                   "#15\nb1 )\n1*\n"
	                   "#16\nb0 &\nbx '\nbx (\nb0 )\nb111 \"\nb1 #\nb1 $\n"
	                   "#18\nbx \"\nbx #\nb0 $\n";
	cr_assert(strstr(body, want), "%s", body);
	uint64_t last = 0;
	for (const char *p = body; (p = strstr(p, "\n#"));) {
		uint64_t t = strtoull(p + 2, NULL, 10);
		cr_assert(t > last || (t == 0 && last == 0), "time %llu after %llu",
		          (unsigned long long)t, (unsigned long long)last);
		last = t;
		p += 2;
	}
	cr_assert_eq(last, 18);
	free(s);
	rm_dir(w.dir, w.path, 3);
}

/* ---- Kanata ---- */

Test(tl_writers, kanata_known_stream)
{
	writers w;
	known_run(&w, 0);
	char *s = slurp(w.path[2]);
	const char *want =
		"Kanata\t0004\nC=\t10\n"
		"I\t0\t7\t0\nL\t0\t0\tpseq 0x0 #7\nL\t0\t1\tid 7 arg 0 (pseq)\nS\t0\t0\tpseq\n"
		"C\t1\n"
		"I\t1\t8\t0\nL\t1\t0\tpseq 0x0 #8\nL\t1\t1\tid 8 arg 0 (pseq)\nS\t1\t0\tpseq\n"
		"C\t1\n"
		"E\t0\t0\tpseq\nS\t0\t0\tmfu\n"          /* quad 7 enters mfu before leaving pseq */
		"C\t1\n"
		"E\t1\t0\tpseq\nS\t1\t0\tmfu\n"          /* quad 8 leaves pseq, enters mfu: no retire */
		"C\t2\n"
		"E\t0\t0\tmfu\n"
		"R\t0\t0\t0\n"                           /* at the end of cycle 15 */
		"C\t1\n"
		"E\t1\t0\tmfu\n"
		"I\t2\t7\t0\nL\t2\t0\tpseq 0x1 #7\nL\t2\t1\tid 7 arg 1 (pseq)\nS\t2\t0\tpseq\n"
		"R\t1\t1\t0\n"
		"C\t2\n"
		"E\t2\t0\tpseq\n"
		"R\t2\t2\t0\n";
	cr_assert_str_eq(s, want);
	free(s);
	rm_dir(w.dir, w.path, 3);
}

static void quad_label(void *ctx, uint16_t lane, uint32_t id, uint32_t arg, char *buf, size_t n)
{
	(void)ctx;
	(void)lane;
	snprintf(buf, n, "quad %u\tEXEC %u", id, arg);
}

Test(tl_writers, kanata_label_callback_and_retire_grace)
{
	char *dir = test_tmpdir();
	char *path = path_in(dir, "q.kanata");
	sim_timeline tl;
	ulp_diag d;
	ulp_diag_clear(&d);
	cr_assert(sim_tl_init(&tl));
	sim_tl_lane(&tl, "alu");
	sim_tl_lane(&tl, "dw");
	tl_kanata *k = tl_kanata_open(path, &(tl_kanata_opts){ .tl = &tl, .retire_after = 2,
	                                                     .label = quad_label }, &d);
	cr_assert(k, "%s", d.msg);
	sim_tl_add_sink(&tl, tl_kanata_sink(k));
	tl.enabled = true;
	/* alu -> (port latency 2) -> dw: the item is in no lane for 2 cycles */
	sim_tl_emit(&tl, 5, 0, SIM_TL_BEGIN, 3, 2);
	sim_tl_emit(&tl, 6, 0, SIM_TL_END, 3, 2);
	sim_tl_emit(&tl, 8, 1, SIM_TL_BEGIN, 3, 2);
	sim_tl_emit(&tl, 9, 1, SIM_TL_END, 3, 2);
	sim_tl_emit(&tl, 20, 0, SIM_TL_BEGIN, 4, 0);   /* still open at close */
	sim_tl_fini(&tl);
	cr_assert(tl_kanata_close(k, &d), "%s", d.msg);
	char *s = slurp(path);
	cr_assert_str_eq(s, "Kanata\t0004\nC=\t5\n"
	                    "I\t0\t3\t0\nL\t0\t0\tquad 3 EXEC 2\nL\t0\t1\tid 3 arg 2 (alu)\nS\t0\t0\talu\n"
	                    "C\t1\nE\t0\t0\talu\nC\t2\nS\t0\t0\tdw\nC\t1\nE\t0\t0\tdw\n"
	                    "C\t2\nR\t0\t0\t0\nC\t9\n"
	                    "I\t1\t4\t0\nL\t1\t0\tquad 4 EXEC 0\nL\t1\t1\tid 4 arg 0 (alu)\nS\t1\t0\talu\n"
	                    "E\t1\t0\talu\nR\t1\t1\t1\n");
	free(s);
	remove(path);
	free(path);
	rmdir(dir);
	free(dir);
}

/* ---- toy units on a real clock ---- */

typedef struct toy_src {
	sim_unit u;
	sim_port *out;
	unsigned left, next_id;
} toy_src;

typedef struct toy_snk {
	sim_unit u;
	sim_port *in;
	unsigned period, rest, cur;
} toy_snk;

static void src_tick(sim_unit *u, uint64_t now)
{
	toy_src *s = (toy_src *)u;
	if (!s->left)
		return;
	if (sim_port_full(s->out)) {
		sim_unit_stall(u, SIM_STALL_OUTPUT_FULL);
	} else {
		unsigned id = s->next_id++;
		sim_tl_emit(u->tl, now, u->lane, SIM_TL_BEGIN, id, 0x100 + id);
		sim_tl_emit(u->tl, now, u->lane, SIM_TL_END, id, 0);
		sim_port_push(s->out, &id, now);
		sim_unit_busy(u);
		s->left--;
	}
	if (s->left)
		sim_unit_sleep_until(u, now + 1);
}

/* Takes an item, works on it `period` cycles (item in the lane), repeats. */
static void snk_tick(sim_unit *u, uint64_t now)
{
	toy_snk *k = (toy_snk *)u;
	if (k->rest) {
		sim_unit_busy(u);
		if (--k->rest == 0)
			sim_tl_emit(u->tl, now + 1, u->lane, SIM_TL_END, k->cur, 0);
		sim_unit_sleep_until(u, now + 1);
		return;
	}
	unsigned *item = sim_port_peek(k->in, now);
	if (item) {
		k->cur = *item;
		sim_port_pop(k->in, now);
		sim_tl_emit(u->tl, now, u->lane, SIM_TL_BEGIN, k->cur, 0x100 + k->cur);
		sim_unit_busy(u);
		k->rest = k->period - 1;
		if (k->rest)
			sim_unit_sleep_until(u, now + 1);
		else
			sim_tl_emit(u->tl, now + 1, u->lane, SIM_TL_END, k->cur, 0);
	}
	uint64_t r = sim_port_next_ready(k->in);
	if (!k->rest && r != UINT64_MAX)
		sim_unit_wake(u, r > now ? r : now + 1);
}

typedef struct toy {
	sim_clock clock;
	sim_port port;
	toy_src src;
	toy_snk snk;
} toy;

static void toy_run(toy *t, sim_timeline *tl, unsigned items)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	memset(t, 0, sizeof *t);
	sim_clock_init(&t->clock, 1000, tl);
	sim_unit_init(&t->src.u, "source", src_tick, NULL, 0);
	sim_unit_init(&t->snk.u, "sink", snk_tick, NULL, 0);
	cr_assert(sim_port_init(&t->port, "source->sink", sizeof(unsigned), 2, 1, &t->snk.u));
	t->src.out = &t->port;
	t->src.left = items;
	t->snk.in = &t->port;
	t->snk.period = 3;
	cr_assert(sim_clock_add_unit(&t->clock, &t->snk.u));
	cr_assert(sim_clock_add_unit(&t->clock, &t->src.u));
	sim_unit_wake(&t->src.u, 4);
	cr_assert_eq(sim_clock_run(&t->clock, UINT64_MAX, &d), SIM_RUN_DRAINED, "%s", d.msg);
	sim_clock_finish(&t->clock);
	sim_port_fini(&t->port);
}

static void toy_with_writers(writers *w, toy *t)
{
	sim_timeline tl;
	cr_assert(sim_tl_init(&tl));
	sim_tl_lane(&tl, "sink");     /* lanes exist before the first chunk */
	sim_tl_lane(&tl, "source");
	/* the sink is the last lane: waiting in the port does not retire */
	writers_open(w, &tl, 0, &(tl_kanata_opts){ .last_lanes = 1u << 0 });
	toy_run(t, &tl, 6);
	writers_close(w, &tl);
}

Test(tl_writers, toy_units_spans_match_stats)
{
	writers w;
	toy t;
	toy_with_writers(&w, &t);
	cr_assert_eq(t.src.u.stats.busy, 6);
	cr_assert_gt(t.src.u.stats.stall[SIM_STALL_OUTPUT_FULL], 0, "the slow sink backs up");
	char *s = slurp(w.path[0]);
	cJSON *root = cJSON_Parse(s);
	cr_assert(root);
	const cJSON *evs = cJSON_GetObjectItem(root, "traceEvents"), *e;
	double busy[2] = { 0, 0 }, stall[2] = { 0, 0 };
	unsigned items[2] = { 0, 0 };
	cJSON_ArrayForEach(e, evs) {
		if (strcmp(str_of(e, "ph"), "X"))
			continue;
		int tid = (int)num_of(e, "tid"), lane = tid / 1000 - 1;
		cr_assert(lane == 0 || lane == 1);
		if (tid % 1000)
			items[lane]++;
		else if (strcmp(str_of(e, "name"), "busy") == 0)
			busy[lane] += num_of(e, "dur");
		else
			stall[lane] += num_of(e, "dur");
	}
	cr_assert_eq(busy[t.snk.u.lane], (double)t.snk.u.stats.busy);
	cr_assert_eq(busy[t.src.u.lane], (double)t.src.u.stats.busy);
	cr_assert_eq(stall[t.src.u.lane], (double)t.src.u.stats.stall[SIM_STALL_OUTPUT_FULL]);
	cr_assert_eq(items[0] + items[1], 12, "6 items through each unit");
	assert_no_overlap(evs);
	cJSON_Delete(root);
	free(s);
	/* Kanata: 6 items, each through source then sink, retired once */
	s = slurp(w.path[2]);
	cr_assert_eq(count_lines_with(s, "I\t"), 6);
	cr_assert_eq(count_lines_with(s, "S\t"), 12);
	cr_assert_eq(count_lines_with(s, "R\t"), 6);
	cr_assert_eq(count_lines_with(s, "E\t"), 12);
	free(s);
	rm_dir(w.dir, w.path, 3);
}

Test(tl_writers, deterministic_outputs)
{
	writers a, b;
	toy t;
	toy_with_writers(&a, &t);
	toy_with_writers(&b, &t);
	for (int i = 0; i < 3; i++) {
		char *x = slurp(a.path[i]), *y = slurp(b.path[i]);
		cr_assert_str_eq(x, y, "%s differs", a.path[i]);
		cr_assert_gt(strlen(x), 50);
		free(x);
		free(y);
	}
	rm_dir(a.dir, a.path, 3);
	rm_dir(b.dir, b.path, 3);
}

/* ---- the PICA200 shader unit ---- */

static void zero_job(void *ctx, uint32_t id, pica_job *job)
{
	(void)ctx;
	(void)id;
	memset(job, 0, sizeof *job);
}

Test(tl_writers, pica_unit_instructions_become_kanata_instructions)
{
	const char *src = ".out o0 position\n.constf k(1.0, 2.0, 3.0, 4.0)\n.proc main\n"
	                  "  mov r0, k\n  rcp r1, r0.x\n  mov o0, r1\n  end\n.end\n";
	struct shbin sb;
	pica_program p;
	pica_uniforms u;
	pica_env env;
	ulp_config cfg;
	ulp_diag d;
	ulp_diag_clear(&d);
	memset(&u, 0, sizeof u);
	ulp_config_defaults(&cfg);
	struct pica_asm_file f = { "t.v.pica", src, strlen(src) };
	struct pica_asm_opts o = { 0 };
	cr_assert(pica_assemble(&f, 1, &o, &sb, &d), "%s", d.msg);
	cr_assert(pica_program_build(&p, &sb, 0, &cfg, &d), "%s", d.msg);
	pica_uniforms_apply_dvle(&u, p.dvle);
	pica_env_from_config(&env, &cfg);
	sim_timeline tl;
	cr_assert(sim_tl_init(&tl));
	writers w;
	writers_open(&w, &tl, 268, &(tl_kanata_opts){ .lane_local = true });
	pica_batch_stats st;
	cr_assert(pica_batch_run(&p, &u, &cfg, &env, 2, 6, zero_job, NULL, NULL, &tl, &st, &d),
	          "%s", d.msg);
	writers_close(&w, &tl);
	cr_assert_eq(st.instructions, 24);
	char *s = slurp(w.path[2]);
	cr_assert_eq(count_lines_with(s, "I\t"), 24, "one Kanata instruction per issue");
	cr_assert_eq(count_lines_with(s, "R\t"), 24);
	cr_assert_eq(count_flushed(s), 0, "every instruction retired normally");
	cr_assert(strstr(s, "L\t0\t0\tvsh0 0x0 #0\n"), "%.300s", s);
	cr_assert(strstr(s, "\t0\tvsh0\n") && strstr(s, "\t0\tvsh1\n"), "stages named by lane");
	free(s);
	s = slurp(w.path[0]);
	cJSON *root = cJSON_Parse(s);
	cr_assert(root);
	const cJSON *evs = cJSON_GetObjectItem(root, "traceEvents"), *e;
	unsigned nitems = 0;
	cJSON_ArrayForEach(e, evs)
		nitems += strcmp(str_of(e, "cat"), "item") == 0;
	cr_assert_eq(nitems, 24);
	assert_no_overlap(evs);
	cJSON_Delete(root);
	free(s);
	s = slurp(w.path[1]);
	cr_assert(strstr(s, "$scope module vsh0 $end"));
	cr_assert(strstr(s, "$scope module vsh1 $end"));
	free(s);
	rm_dir(w.dir, w.path, 3);
	pica_program_free(&p);
	shbin_free(&sb);
}

/* ---- failures ---- */

Test(tl_writers, unwritable_path_is_a_clear_error)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	cr_assert_null(tl_chrome_open("/nonexistent-ulpsim/dir/t.json", NULL, &d));
	cr_assert(d.set);
	cr_assert_str_eq(d.file, "/nonexistent-ulpsim/dir/t.json");
	cr_assert(strstr(d.msg, "cannot create output"), "%s", d.msg);
	ulp_diag_clear(&d);
	cr_assert_null(tl_vcd_open("/nonexistent-ulpsim/t.vcd", NULL, &d));
	cr_assert(d.set);
	ulp_diag_clear(&d);
	cr_assert_null(tl_kanata_open("/nonexistent-ulpsim/t.kanata", NULL, &d));
	cr_assert(d.set);
}

/* A file-size limit makes the writes fail mid-run: the timeline stops, the
 * close reports the error, and neither the output nor its temp file stays. */
Test(tl_writers, write_failure_leaves_no_file)
{
	struct rlimit old, lim;
	cr_assert_eq(getrlimit(RLIMIT_FSIZE, &old), 0);
	signal(SIGXFSZ, SIG_IGN);
	lim = old;
	lim.rlim_cur = 32 * 1024;
	cr_assert_eq(setrlimit(RLIMIT_FSIZE, &lim), 0);
	sim_timeline tl;
	cr_assert(sim_tl_init(&tl));
	sim_tl_lane(&tl, "vsh0");
	writers w;
	writers_open(&w, &tl, 0, NULL);
	for (uint32_t i = 0; i < 20000; i++) {
		sim_tl_emit(&tl, i, 0, SIM_TL_BEGIN, i, i & 0xff);
		sim_tl_emit(&tl, i + 1, 0, SIM_TL_END, i, 0);
	}
	sim_tl_fini(&tl);
	cr_assert(tl.failed, "a sink reported the error");
	ulp_diag d;
	ulp_diag_clear(&d);
	cr_assert_not(tl_chrome_close(w.chrome, &d));
	cr_assert(strstr(d.msg, "write error"), "%s", d.msg);
	ulp_diag_clear(&d);
	cr_assert_not(tl_vcd_close(w.vcd, &d));
	cr_assert(d.set);
	ulp_diag_clear(&d);
	cr_assert_not(tl_kanata_close(w.kanata, &d));
	cr_assert(d.set);
	cr_assert_eq(setrlimit(RLIMIT_FSIZE, &old), 0);
	cr_assert_eq(count_files(w.dir), 0, "no partial or temp files");
	rm_dir(w.dir, w.path, 3);
}

Test(tl_writers, abort_leaves_no_file)
{
	sim_timeline tl;
	cr_assert(sim_tl_init(&tl));
	writers w;
	writers_open(&w, &tl, 0, NULL);
	emit_known(&tl);
	sim_tl_fini(&tl);
	tl_chrome_abort(w.chrome);
	tl_vcd_abort(w.vcd);
	tl_kanata_abort(w.kanata);
	cr_assert_eq(count_files(w.dir), 0);
	rm_dir(w.dir, w.path, 3);
}

/* ---- long streams ---- */

Test(tl_writers, million_events_stream_bounded)
{
	sim_timeline tl;
	cr_assert(sim_tl_init(&tl));
	sim_tl_lane(&tl, "vsh0");
	sim_tl_lane(&tl, "vsh1");
	writers w;
	writers_open(&w, &tl, 0, &(tl_kanata_opts){ .lane_local = true });
	/* per cycle on each lane: one issue, one completion 3 cycles later, and
	 * an activity change every 8 cycles: 10^6 events, 3 items in flight */
	uint64_t n = 0;
	uint32_t c = 0;
	for (; n < 1000000; c++) {
		for (uint16_t l = 0; l < 2; l++) {
			if (c % 8 == 0) {
				sim_tl_emit(&tl, c, l, SIM_TL_ACTIVITY, 0, (c / 8) % 2 ? SIM_ACT_BUSY : SIM_ACT_STALL);
				n++;
			}
			if (c >= 3) {
				sim_tl_emit(&tl, c, l, SIM_TL_END, c - 3, 0);
				n++;
			}
			sim_tl_emit(&tl, c, l, SIM_TL_BEGIN, c, c & 0x1ff);
			n++;
		}
	}
	cr_assert_eq(tl.recorded + sim_tl_pending(&tl), n);
	cr_assert_eq(tl_chrome_dropped(w.chrome) + tl_vcd_dropped(w.vcd) + tl_kanata_dropped(w.kanata), 0);
	writers_close(&w, &tl);
	cr_assert_eq(tl.recorded, n);
	cr_assert_not(tl.failed);
	/* The ends of the files (reading them whole is slow under ASan): Kanata
	 * retired all 2c instructions, the last 6 flushed; the VCD reached the
	 * last cycle; the JSON is closed. */
	char tail[160], want[64];
	read_tail(w.path[2], tail, sizeof tail);
	snprintf(want, sizeof want, "\t%u\t1\n", 2 * c - 1);
	cr_assert(strstr(tail, want), "%s", tail);
	read_tail(w.path[1], tail, sizeof tail);
	snprintf(want, sizeof want, "\n#%u\n", c - 1);
	cr_assert(strstr(tail, want), "%s", tail);
	read_tail(w.path[0], tail, sizeof tail);
	cr_assert(strstr(tail, "\"dropped_items\":0}}\n"), "%s", tail);
	rm_dir(w.dir, w.path, 3);
}

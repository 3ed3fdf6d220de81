/* ulpsim replay DIR: --jobs, --shard, --report, --merge (docs/replay.md
 * "Many frames"), through the CLI, on a folder of the sample and
 * calibration traces. */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "base/diag.h"
#include "base/fileio.h"
#include "tests/test_util.h"

/* Frames: the samples (their side files too) and four calibration traces,
 * eleven in all, in a fresh folder (the samples folder also holds a pica
 * run case, which is not a trace). */
static char *make_frames(void)
{
	char *dir = test_tmpdir();
	cr_assert(dir);
	char cmd[1024];
	snprintf(cmd, sizeof cmd,
	         "cp traces/samples/*.json traces/samples/*.tgsi traces/samples/*.asm traces/samples/*.png %s/ && "
	         "rm %s/lit_vertex.case.json && cp traces/calibration/fill_color.tegra2.json "
	         "traces/calibration/fill_const.tegra3.json traces/calibration/fill_tex.tegra2.json "
	         "traces/calibration/zreject.tegra3.json %s/",
	         dir, dir, dir);
	cr_assert_eq(system(cmd), 0, "%s", cmd);
	return dir;
}

static void rm_rf(const char *dir)
{
	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	cr_assert_eq(system(cmd), 0);
}

static char *slurp(const char *dir, const char *name)
{
	char path[600];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	ulp_diag d;
	ulp_diag_clear(&d);
	char *s = ulp_read_file(path, NULL, &d);
	cr_assert(s, "%s: %s", path, d.msg);
	return s;
}

static bool exists(const char *dir, const char *name)
{
	char path[600];
	struct stat st;
	snprintf(path, sizeof path, "%s/%s", dir, name);
	return stat(path, &st) == 0;
}

/* dir/a and dir/b hold the same bytes. */
static bool same_file(const char *dir, const char *a, const char *b)
{
	char pa[800], pb[800];
	snprintf(pa, sizeof pa, "%s/%s", dir, a);
	snprintf(pb, sizeof pb, "%s/%s", dir, b);
	size_t la = 0, lb = 0;
	ulp_diag d;
	ulp_diag_clear(&d);
	char *x = ulp_read_file(pa, &la, &d), *y = ulp_read_file(pb, &lb, &d);
	bool same = x && y && la == lb && !memcmp(x, y, la);
	free(x);
	free(y);
	return same;
}

/* ulpsim ARGS: its exit status, stdout and stderr (free them). */
static int cli(char **out, char **err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int cli(char **out, char **err, const char *fmt, ...)
{
	char args[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(args, sizeof args, fmt, ap);
	va_end(ap);
	return test_run_cli(args, out, err);
}

/* A refused input: exit 2, err_sub on stderr, nothing on stdout. */
static void refused(const char *err_sub, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void refused(const char *err_sub, const char *fmt, ...)
{
	char args[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(args, sizeof args, fmt, ap);
	va_end(ap);
	char *out, *err;
	int st = test_run_cli(args, &out, &err);
	cr_assert_eq(st, 2, "exit %d for '%s' (stderr %s)", st, args, err);
	cr_assert(strstr(err, err_sub), "'%s': stderr '%s' lacks '%s'", args, err, err_sub);
	cr_assert_str_eq(out, "", "'%s' printed '%s'", args, out);
	free(out);
	free(err);
}

Test(replay_dir, jobs_2_equals_jobs_1)
{
	char *fr = make_frames(), *o = test_tmpdir();
	char *out1, *out2, *err;
	int s1 = cli(&out1, &err, "replay %s --jobs 1 --report %s/r1.json --out-dir %s/o1", fr, o, o);
	cr_assert_eq(s1, 0, "%s", err);
	free(err);
	int s2 = cli(&out2, &err, "replay %s --jobs 2 --report %s/r2.json --out-dir %s/o2", fr, o, o);
	cr_assert_eq(s2, 0, "%s", err);
	cr_assert(strstr(err, "11 frame(s) on 2 worker(s)"), "%s", err);
	free(err);
	cr_assert_str_eq(out1, out2);
	cr_assert(strstr(out1, ": 11 frames\n"), "%s", out1);
	cr_assert(strstr(out1, "total: 11 frames: 11 ok, 0 with failed checks, 0 errors;"), "%s", out1);
	cr_assert(strstr(out1, "slowest frames (simulated cycles):\n  fill_tex.tegra2.json"), "%s", out1);
	char *r1 = slurp(o, "r1.json"), *r2 = slurp(o, "r2.json");
	cr_assert_str_eq(r1, r2);
	/* every frame's image and stats, byte for byte, and as a one-trace replay writes them */
	char **names;
	size_t n;
	char o1[600];
	snprintf(o1, sizeof o1, "%s/o1", o);
	names = test_list_dir(o1, false, &n);
	cr_assert_eq(n, 22, "%zu outputs", n);
	for (size_t k = 0; k < n; k++) {
		char p1[800], p2[800];
		snprintf(p1, sizeof p1, "o1/%s", names[k]);
		snprintf(p2, sizeof p2, "o2/%s", names[k]);
		cr_assert(same_file(o, p1, p2), "%s differs", names[k]);
	}
	test_free_names(names, n);
	char *so, *se;
	cr_assert_eq(cli(&so, &se, "replay %s/textured_cube.json -o %s/cube.png --stats %s/cube.stats.txt", fr, o, o),
	             0);
	char *a = slurp(o, "cube.stats.txt"), *b = slurp(o, "o1/textured_cube.stats.txt");
	cr_assert_str_eq(a, b);
	free(a);
	free(b);
	cr_assert(same_file(o, "cube.png", "o1/textured_cube.png"));
	free(so);
	free(se);
	free(r1);
	free(r2);
	free(out1);
	free(out2);
	rm_rf(fr);
	rm_rf(o);
	free(fr);
	free(o);
}

/* Every split 1..5 and 13 (more shards than frames): each frame in exactly
 * one shard, and the merge prints the serial run's summary. */
Test(replay_dir, shards_cover_every_frame_once_and_merge_equals_serial)
{
	char *fr = make_frames(), *o = test_tmpdir();
	char *serial, *err;
	cr_assert_eq(cli(&serial, &err, "replay %s --jobs 1 --report %s/serial.json", fr, o), 0, "%s", err);
	free(err);
	char *serial_report = slurp(o, "serial.json");
	const unsigned splits[] = { 1, 2, 3, 5, 13 };
	for (size_t s = 0; s < sizeof splits / sizeof *splits; s++) {
		unsigned n = splits[s];
		int seen[11] = { 0 };
		char merge[4096] = "";
		for (unsigned k = n; k >= 1; k--) {
			char *out;
			cr_assert_eq(cli(&out, &err, "replay %s --jobs 1 --shard %u/%u --report %s/s%u.json", fr, k, n, o, k),
			             0, "%s", err);
			if (n > 1)
				cr_assert(strstr(out, "shard "), "%s", out);
			free(out);
			free(err);
			char name[32];
			snprintf(name, sizeof name, "s%u.json", k);
			char *text = slurp(o, name);
			cJSON *root = cJSON_Parse(text);
			cJSON *f;
			cJSON_ArrayForEach(f, cJSON_GetObjectItem(root, "frames"))
			{
				int i = cJSON_GetObjectItem(f, "index")->valueint;
				cr_assert(i >= 0 && i < 11);
				cr_assert_eq((unsigned)i % n, k - 1, "frame %d in shard %u/%u", i, k, n);
				seen[i]++;
			}
			cJSON_Delete(root);
			free(text);
			size_t l = strlen(merge);
			snprintf(merge + l, sizeof merge - l, " %s/s%u.json", o, k);
		}
		for (int i = 0; i < 11; i++)
			cr_assert_eq(seen[i], 1, "split %u: frame %d in %d shards", n, i, seen[i]);
		char *out;
		cr_assert_eq(cli(&out, &err, "replay --merge%s --report %s/merged.json", merge, o), 0, "%s", err);
		cr_assert_str_eq(out, serial, "split %u", n);
		char *mr = slurp(o, "merged.json");
		cr_assert_str_eq(mr, serial_report, "split %u", n);
		free(mr);
		free(out);
		free(err);
	}
	free(serial);
	free(serial_report);
	rm_rf(fr);
	rm_rf(o);
	free(fr);
	free(o);
}

/* Runs `bash tests/cli/SCRIPT FRAMES WORK N` over a fresh frames folder; the
 * script checks its own results and must exit 0 (its log in the message). */
static void run_frames_script(const char *script, unsigned n)
{
	char *fr = make_frames(), *o = test_tmpdir();
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "bash tests/cli/%s %s %s/work %u >%s/log 2>&1", script, fr, o, n, o);
	int st = system(cmd);
	char *log = slurp(o, "log");
	cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "%s: %s", script, log);
	free(log);
	rm_rf(fr);
	rm_rf(o);
	free(fr);
	free(o);
}

Test(replay_dir, gnu_parallel_shards)
{
	run_frames_script("replay_shards.sh", 4);
}

/* scripts/slurm-replay.sh's task, merge and submit modes without Slurm
 * (SLURM_ARRAY_* set as Slurm sets them, a fake sbatch on PATH): the merged
 * results equal a serial run; misuse exits 2. */
Test(replay_dir, slurm_script)
{
	run_frames_script("slurm_replay.sh", 3);
}

Test(replay_dir, failed_checks_and_errors_are_named)
{
	char *fr = make_frames(), *o = test_tmpdir();
	/* a frame whose checkpoint expects other cycles: exit 1, named */
	char path[600];
	snprintf(path, sizeof path, "%s/triangle.json", fr);
	char *t = slurp(fr, "triangle.json");
	char *at = strstr(t, "\"name\": \"frame0\"");
	cr_assert(at, "the triangle's checkpoint");
	size_t pre = (size_t)(at - t);
	char *t2 = malloc(strlen(t) + 64);
	snprintf(t2, strlen(t) + 64, "%.*s\"name\": \"frame0\", \"expect_cycles\": 7%s", (int)pre, t,
	         at + strlen("\"name\": \"frame0\""));
	free(test_write_file(fr, "triangle.json", t2));
	char *out, *err;
	cr_assert_eq(cli(&out, &err, "replay %s --jobs 2 --shard 1/2 --report %s/a.json", fr, o), 0, "%s", err);
	free(out);
	free(err);
	cr_assert_eq(cli(&out, &err, "replay %s --jobs 2 --shard 2/2 --report %s/b.json", fr, o), 1, "%s", err);
	cr_assert(strstr(out, "triangle.json: 1 check(s) failed; first:"), "%s", out);
	cr_assert(strstr(err, "triangle.json: 1 check(s) failed"), "%s", err);
	cr_assert(strstr(err, "1 of 5 frame(s) failed"), "%s", err);
	free(out);
	free(err);
	cr_assert_eq(cli(&out, &err, "replay --merge %s/a.json %s/b.json", o, o), 1, "%s", err);
	cr_assert(strstr(out, "10 ok, 1 with failed checks, 0 errors"), "%s", out);
	free(out);
	free(err);
	/* a budget some frames pass: those are errors (exit 2), the rest replayed and reported */
	cr_assert_eq(cli(&out, &err, "replay %s --jobs 2 --max-cycles 30000 --report %s/c.json", fr, o), 2, "%s", err);
	cr_assert(strstr(out, "fill_tex.tegra2.json: ") && strstr(out, "errors;"), "%s", out);
	cr_assert(strstr(err, "fill_tex.tegra2.json"), "%s", err);
	cr_assert(exists(o, "c.json"));
	/* a merge refuses reports replayed with other options */
	refused("$.settings: replayed with other options", "replay --merge %s/c.json %s/a.json", o, o);
	free(out);
	free(err);
	free(t);
	free(t2);
	rm_rf(fr);
	rm_rf(o);
	free(fr);
	free(o);
}

Test(replay_dir, bad_folders_are_refused_and_nothing_is_written)
{
	char *fr = make_frames(), *o = test_tmpdir(), *empty = test_tmpdir();
	refused("no frames: the folder holds no *.json trace", "replay %s", empty);
	/* the samples folder holds a pica run case */
	refused("lit_vertex.case.json: $.format: not a ulpsim trace", "replay traces/samples --report %s/r.json", o);
	/* a frame from a newer format version */
	char *t = slurp(fr, "triangle.json");
	char *v = strstr(t, "\"version\": 1");
	cr_assert(v);
	v[strlen("\"version\": ")] = '9';
	free(test_write_file(fr, "z_newer.json", t));
	refused("z_newer.json: $.version:", "replay %s --report %s/r.json", fr, o);
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "rm %s/z_newer.json", fr);
	cr_assert_eq(system(cmd), 0);
	/* a missing side file */
	v[strlen("\"version\": ")] = '1';
	char *s = strstr(t, "triangle.vs.tgsi");
	cr_assert(s);
	memcpy(s, "missing_", 8);
	free(test_write_file(fr, "z_missing.json", t));
	refused("z_missing.json: $.shaders.vs.tgsi_file: cannot open", "replay %s --out-dir %s/out", fr, o);
	cr_assert(!exists(o, "out"), "--out-dir made before the frames were checked");
	snprintf(cmd, sizeof cmd, "rm %s/z_missing.json", fr);
	cr_assert_eq(system(cmd), 0);
	/* a truncated side file: a texture's PNG cut short */
	snprintf(cmd, sizeof cmd, "head -c 600 traces/samples/gs_particles.png >%s/cut.png", fr);
	cr_assert_eq(system(cmd), 0);
	free(test_write_file(fr, "z_cut.json",
	                "{\"format\": \"ulpsim-trace\", \"version\": 1, \"resources\": {\"t\": {\"type\": \"texture\", "
	                "\"format\": \"RGBA8888\", \"width\": 128, \"height\": 128, \"png\": \"cut.png\"}}, "
	                "\"commands\": []}"));
	refused("z_cut.json: $.resources.t.png: cannot load 'cut.png'", "replay %s --report %s/r.json", fr, o);
	cr_assert(!exists(o, "r.json"), "a report was written for a refused folder");
	snprintf(cmd, sizeof cmd, "rm %s/z_cut.json", fr);
	cr_assert_eq(system(cmd), 0);
	/* shard syntax */
	const char *bad[] = { "3/2", "0/0", "1/0", "0/3", "a/b", "1/2x", "2", "/2", "1/", "-1/2", "1/99999999" };
	for (size_t k = 0; k < sizeof bad / sizeof *bad; k++)
		refused("--shard takes K/N with 1 <= K <= N", "replay %s --shard %s", fr, bad[k]);
	refused("--jobs takes 0..1024", "replay %s --jobs %s", fr, "-1");
	refused("-o is for one trace", "replay %s -o %s/x.png", fr, o);
	free(t);
	rm_rf(fr);
	rm_rf(o);
	rm_rf(empty);
	free(fr);
	free(o);
	free(empty);
}

Test(replay_dir, bad_merges_are_refused)
{
	char *fr = make_frames(), *o = test_tmpdir(), *other = test_tmpdir();
	char *out, *err;
	for (unsigned k = 1; k <= 3; k++) {
		cr_assert_eq(cli(&out, &err, "replay %s --jobs 1 --shard %u/3 --report %s/s%u.json", fr, k, o, k), 0, "%s",
		             err);
		free(out);
		free(err);
	}
	cr_assert_eq(cli(&out, &err, "replay %s --jobs 1 --shard 1/2 --report %s/h1.json", fr, o), 0, "%s", err);
	free(out);
	free(err);
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "cp traces/calibration/zreject.tegra2.json %s/", other);
	cr_assert_eq(system(cmd), 0);
	cr_assert_eq(cli(&out, &err, "replay %s --shard 1/3 --report %s/x1.json", other, o), 0, "%s", err);
	free(out);
	free(err);
	char a[700], b[700];
	snprintf(a, sizeof a, "%s/s1.json %s/s2.json", o, o);
	refused("shard 3/3's report is missing", "replay --merge %s", a);
	snprintf(b, sizeof b, "%s/s2.json %s/s3.json", o, o);
	refused("shard 1/3 again", "replay --merge %s %s/s1.json %s/s3.json", a, o, o);
	refused("but", "replay --merge %s %s/h1.json", a, o);
	refused("a report of another folder", "replay --merge %s/x1.json %s", o, b);
	free(test_write_file(o, "junk.json", "{\"format\": \"ulpsim-trace\"}"));
	refused("$.format: expected \"ulpsim-replay-report\"", "replay --merge %s/junk.json %s", o, b);
	char *r = slurp(o, "s1.json");
	char *idx = strstr(r, "\"index\":\t0");
	cr_assert(idx);
	idx[strlen("\"index\":\t")] = '1';
	free(test_write_file(o, "bad_index.json", r));
	refused("$.frames[0].index: frame 1 where shard 1/3's frame 0", "replay --merge %s/bad_index.json %s", o, b);
	char *ver = strstr(r, "\"version\":\t1");
	cr_assert(ver);
	ver[strlen("\"version\":\t")] = '7';
	free(test_write_file(o, "newer.json", r));
	refused("$.version: a version 7 report", "replay --merge %s/newer.json %s", o, b);
	refused("--merge takes the shards' reports", "replay --merge");
	refused("cannot", "replay --merge %s/nonexistent.json", o);
	cr_assert(!exists(o, "m.json"));
	free(r);
	rm_rf(fr);
	rm_rf(o);
	rm_rf(other);
	free(fr);
	free(o);
	free(other);
}

/* A 100-frame folder (frame-0000.json … frame-0099.json, the triangle and
 * the 8x8 teaching trace in turn, as a capture names its frames) on every
 * core: the summary a serial run prints. */
Test(replay_dir, hundred_frames_on_all_cores)
{
	char *fr = test_tmpdir(), *o = test_tmpdir();
	char cmd[1024];
	snprintf(cmd, sizeof cmd,
	         "cp traces/samples/triangle.*.tgsi traces/samples/triangle.fs.asm %s/ && for i in $(seq 0 99); do "
	         "if [ $((i %% 2)) = 0 ]; then s=triangle; else s=teaching_8x8; fi; "
	         "cp traces/samples/$s.json %s/$(printf frame-%%04d.json $i); done",
	         fr, fr);
	cr_assert_eq(system(cmd), 0, "%s", cmd);
	char *serial, *all, *err;
	cr_assert_eq(cli(&serial, &err, "replay %s --jobs 1", fr), 0, "%s", err);
	free(err);
	cr_assert_eq(cli(&all, &err, "replay %s --jobs 0 --out-dir %s/out", fr, o), 0, "%s", err);
	cr_assert_str_eq(all, serial);
	cr_assert(strstr(all, ": 100 frames\n"), "%s", all);
	cr_assert(strstr(all, "total: 100 frames: 100 ok, 0 with failed checks, 0 errors;"), "%s", all);
	cr_assert(strstr(all, "\nframe-0042.json  tegra2"), "%s", all);
	cr_assert(exists(o, "out/frame-0099.png") && exists(o, "out/frame-0099.stats.txt"));
	free(serial);
	free(all);
	free(err);
	rm_rf(fr);
	rm_rf(o);
	free(fr);
	free(o);
}

/* A worker that dies (killed while it replays a frame; the test hook
 * ULPSIM_TEST_WORKER_DIE names the frame): the frame is an error that names
 * it, the exit status is 2, the others are replayed (--jobs 2) or said not
 * replayed (--jobs 1, its only worker died), and the report is whole
 * (written temp+rename, nothing else left in its folder). */
Test(replay_dir, a_dying_worker_is_named)
{
	char *fr = make_frames(), *o = test_tmpdir();
	cr_assert_eq(setenv("ULPSIM_TEST_WORKER_DIE", "lit_sphere.json", 1), 0);
	for (unsigned jobs = 1; jobs <= 2; jobs++) {
		char *out, *err;
		int st = cli(&out, &err, "replay %s --jobs %u --report %s/r%u.json", fr, jobs, o, jobs);
		cr_assert_eq(st, 2, "--jobs %u: exit %d (stderr %s)", jobs, st, err);
		cr_assert(strstr(err, "lit_sphere.json: the worker replaying this frame died (signal 9)"), "%s", err);
		cr_assert(strstr(out, "lit_sphere.json"), "the summary lists the frame: %s", out);
		char name[32];
		snprintf(name, sizeof name, "r%u.json", jobs);
		char *rep = slurp(o, name);
		cJSON *root = cJSON_Parse(rep);
		cr_assert(root, "the report is JSON: %s", rep);
		unsigned ok = 0, errors = 0;
		const cJSON *f;
		cJSON_ArrayForEach(f, cJSON_GetObjectItem(root, "frames")) {
			const char *res = cJSON_GetStringValue(cJSON_GetObjectItem(f, "result"));
			const char *n = cJSON_GetStringValue(cJSON_GetObjectItem(f, "name"));
			ok += !strcmp(res, "ok");
			errors += !strcmp(res, "error");
			if (!strcmp(n, "lit_sphere.json"))
				cr_assert(!strcmp(res, "error") && strstr(cJSON_GetStringValue(cJSON_GetObjectItem(f, "message")),
				                                          "died"), "%s", rep);
		}
		cr_assert_eq(ok + errors, 11, "%s", rep);
		if (jobs == 2)
			cr_assert_eq(errors, 1, "the other worker replayed the rest: %s", rep);
		else
			cr_assert(errors >= 1 && strstr(err, "not replayed (its workers died)"), "%s", err);
		cJSON_Delete(root);
		free(rep);
		free(out);
		free(err);
	}
	unsetenv("ULPSIM_TEST_WORKER_DIE");
	size_t n;
	char **files = test_list_dir(o, false, &n);
	cr_assert_eq(n, 2, "only r1.json and r2.json in the report folder (no temporary files)");
	test_free_names(files, n);
	rm_rf(fr);
	rm_rf(o);
	free(fr);
	free(o);
}

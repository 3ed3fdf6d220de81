/* `ulpsim gl` without Mesa: usage errors, the missing build, and the
 * protocol with the driver (include/ulpsim/gl_env.h) checked with a stand-in
 * program that writes summary lines as the driver does and echoes the
 * variables it was given.  (The driver itself: tests/gl/run.sh, make test-gl.) */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tests/test_util.h"

static int run(const char *args, char **out, char **err)
{
	int st = test_run_cli(args, out, err);
	cr_assert_neq(st, -1, "ulpsim %s did not run", args);
	return st;
}

Test(gl_cli, usage_errors_exit_2)
{
	char *out, *err;
	cr_assert_eq(run("gl", &out, &err), 2);
	cr_assert(strstr(err, "after '--'"), "%s", err);
	free(out), free(err);
	cr_assert_eq(run("gl --frobnicate -- true", &out, &err), 2);
	cr_assert(strstr(err, "unknown option '--frobnicate'"), "%s", err);
	free(out), free(err);
	cr_assert_eq(run("gl --set no.such.knob=1 -- true", &out, &err), 2);
	cr_assert(strstr(err, "no.such.knob"), "%s", err);
	free(out), free(err);
	cr_assert_eq(run("gl --help", &out, &err), 0);
	cr_assert(strstr(out, "--frames DIR"), "%s", out);
	free(out), free(err);
}

Test(gl_cli, without_a_mesa_build_says_make_mesa)
{
	char *dir = test_tmpdir();
	cr_assert(dir);
	char args[512];
	snprintf(args, sizeof args, "gl -- true");
	setenv("ULPSIM_MESA_LIB", dir, 1);
	char *out, *err;
	cr_assert_eq(run(args, &out, &err), 2);
	unsetenv("ULPSIM_MESA_LIB");
	cr_assert(strstr(err, "make mesa"), "%s", err);
	cr_assert_str_eq(out, "");
	free(out), free(err);
	remove(dir);
	free(dir);
}

/* A stand-in "driver" folder (ulpsim gl only checks swrast_dri.so is
 * there) and a program that plays the driver's part. */
Test(gl_cli, passes_the_variables_and_sums_the_summary_lines)
{
	char *dir = test_tmpdir();
	cr_assert(dir);
	char *so = test_write_file(dir, "swrast_dri.so", "");
	char *prog = test_write_file(dir, "prog.sh",
		"#!/bin/sh\n"
		"echo \"$GALLIUM_DRIVER $LIBGL_ALWAYS_SOFTWARE $LIBGL_DRIVERS_PATH $ULPSIM_GL_SET\"\n"
		"case \"$ULPSIM_GL_FRAMES\" in /*) echo frames-absolute;; esac\n"
		"[ -d \"$ULPSIM_GL_FRAMES\" ] && echo frames-dir-made\n"
		"echo '{\"frame\":0,\"draws\":2,\"cycles\":1000,\"fragments\":50}' >> \"$ULPSIM_GL_SUMMARY\"\n"
		"echo '{\"frame\":1,\"draws\":2,\"cycles\":3000,\"fragments\":50}' >> \"$ULPSIM_GL_SUMMARY\"\n"
		"echo '{\"watchdog\":\"alu pc 3\"}' >> \"$ULPSIM_GL_SUMMARY\"\n"
		"echo '{\"run\":1,\"draws\":4,\"cycles\":4000,\"fragments\":100,\"sim_seconds\":2}' >> \"$ULPSIM_GL_SUMMARY\"\n"
		"exit 3\n");
	cr_assert_eq(chmod(prog, 0755), 0);
	char args[1024];
	snprintf(args, sizeof args,
	         "gl --set preset=tegra3 --set pica.units=2 --frames %s/frames --summary %s/sum.jsonl -- %s", dir,
	         dir, prog);
	setenv("ULPSIM_MESA_LIB", dir, 1);
	char *out, *err;
	int st = run(args, &out, &err);
	unsetenv("ULPSIM_MESA_LIB");
	cr_assert_eq(st, 3, "the program's status: %d (%s)", st, err);
	char want[1024];
	snprintf(want, sizeof want, "ulpsim 1 %s preset=tegra3;pica.units=2\nframes-absolute\nframes-dir-made\n", dir);
	cr_assert_str_eq(out, want);
	cr_assert(strstr(err, "2 frames, 4 draws, 4000 cycles (2000 per frame), 1000 cycles per draw, "
	                      "100 fragments, 2e+03 simulated cycles/s, 1 draws stopped by the watchdog"),
	          "%s", err);
	char sum[600];
	snprintf(sum, sizeof sum, "%s/sum.jsonl", dir);
	struct stat sb;
	cr_assert_eq(stat(sum, &sb), 0, "--summary kept the lines");
	cr_assert_gt(sb.st_size, 100);
	free(out), free(err);
	remove(sum);
	snprintf(sum, sizeof sum, "%s/frames", dir);
	remove(sum);
	remove(prog);
	remove(so);
	remove(dir);
	free(prog), free(so), free(dir);
}

Test(gl_cli, a_program_that_cannot_run_is_exit_2)
{
	char *dir = test_tmpdir();
	cr_assert(dir);
	char *so = test_write_file(dir, "swrast_dri.so", "");
	setenv("ULPSIM_MESA_LIB", dir, 1);
	char *out, *err;
	int st = run("gl -- /nonexistent/program", &out, &err);
	unsetenv("ULPSIM_MESA_LIB");
	cr_assert_eq(st, 2);
	cr_assert(strstr(err, "cannot run /nonexistent/program"), "%s", err);
	free(out), free(err);
	remove(so);
	remove(dir);
	free(so), free(dir);
}

/* --capture: the folder (absolute), the range and the preset reach the
 * driver; --frames A-B with --capture is the range; what a capture cannot
 * hold, a bad range and a file that is not an apitrace are exit 2. */
Test(gl_cli, capture_protocol_and_refusals)
{
	char *dir = test_tmpdir();
	cr_assert(dir);
	char *so = test_write_file(dir, "swrast_dri.so", "");
	char *prog = test_write_file(dir, "prog.sh",
		"#!/bin/sh\n"
		"echo \"${ULPSIM_GL_CAPTURE#/} $ULPSIM_GL_CAPTURE_FRAMES $ULPSIM_GL_CAPTURE_GPU ${ULPSIM_GL_FRAMES:-none}\"\n"
		"[ -d \"$ULPSIM_GL_CAPTURE\" ] && echo capture-dir-made\n");
	cr_assert_eq(chmod(prog, 0755), 0);
	char *bad = test_write_file(dir, "bad.trace", "not a trace");
	setenv("ULPSIM_MESA_LIB", dir, 1);
	char args[1024], want[1024], *out, *err;
	snprintf(args, sizeof args, "gl --set preset=tegra3 --capture %s/cap --frames 3-7 -- %s", dir, prog);
	cr_assert_eq(run(args, &out, &err), 0, "%s", err);
	snprintf(want, sizeof want, "%s/cap 3-7 tegra3 none\ncapture-dir-made\n", dir + 1);
	cr_assert_str_eq(out, want);
	free(out), free(err);
	const char *refused[][3] = {      /* before the folder, after it, the message */
		{ "--capture ", "/cap --set gr3d.instances=2 -- true", "hold only the gpu preset" },
		{ "--capture ", "/cap --frames 7-3 -- true", "'7-3' is not a frame range" },
		{ "--capture-frames 1-2 -- true ", "", "needs --capture DIR" },
		{ "-- eglretrace ", "/bad.trace", "bad.trace: byte 0: not an apitrace file" },
	};
	for (size_t k = 0; k < sizeof refused / sizeof refused[0]; k++) {
		snprintf(args, sizeof args, "gl %s%s%s", refused[k][0], dir, refused[k][1]);
		cr_assert_eq(run(args, &out, &err), 2, "%s: %s", args, err);
		cr_assert(strstr(err, refused[k][2]), "%s: %s", args, err);
		free(out), free(err);
	}
	unsetenv("ULPSIM_MESA_LIB");
	snprintf(args, sizeof args, "rm -rf '%s'", dir);
	cr_assert_eq(system(args), 0);
	free(prog), free(so), free(bad), free(dir);
}

/* The CLI skeleton and `ulpsim num`: outputs, exit codes, diagnostics. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "tests/test_util.h"

static void expect(const char *args, int code, const char *out_exact, const char *err_sub)
{
	char *out, *err;
	int st = test_run_cli(args, &out, &err);
	cr_assert_eq(st, code, "ulpsim %s: exit %d, want %d (stderr: %s)", args, st, code, err);
	if (out_exact)
		cr_assert_str_eq(out, out_exact, "ulpsim %s", args);
	if (err_sub)
		cr_assert(strstr(err, err_sub), "ulpsim %s: stderr '%s' lacks '%s'", args, err, err_sub);
	free(out);
	free(err);
}

Test(cli, version_and_help)
{
	expect("--version", 0, "ulpsim 0.1.0\n", NULL);
	expect("help", 0, NULL, NULL);
	expect("num --help", 0, NULL, NULL);
	expect("help num", 0, NULL, NULL);
	expect("", 2, NULL, "usage");
	expect("frobnicate", 2, NULL, "unknown command 'frobnicate'");
}

Test(cli, num_examples_from_the_issue)
{
	expect("num fp20 1.0", 0, "fp20 0x3e000 1\n", NULL);
	expect("num f24 1.0", 0, "f24 0x3f0000 1\n", NULL);
	expect("num fp20 0x3e000", 0, "fp20 0x3e000 1\n", NULL);
	expect("num f24 0x3f0000", 0, "f24 0x3f0000 1\n", NULL);
	expect("num fx10 0.5", 0, "fx10 0x80 0.5\n", NULL);
	expect("num fx10 0x300", 0, "fx10 0x300 -1\n", NULL);
	expect("num f24 0x7f8000", 0, "f24 0x7f8000 nan\n", NULL);
	expect("num fp20 -inf", 0, "fp20 0xfe000 -inf\n", NULL);
	expect("num fp20 0.1", 0, "fp20 0x37333 0.0999984741\n", NULL);
	expect("num f24 0.1", 0, "f24 0x3b9999 0.0999994278\n", NULL);
	expect("num f24 0.1 --round nearest-even", 0, "f24 0x3b999a 0.100000381\n", NULL);
	expect("num fx10 0.001953125", 0, "fx10 0x1 0.00390625\n", NULL);
}

Test(cli, num_bad_input)
{
	expect("num fp16 1.0", 2, "", "unknown format 'fp16'");
	expect("num fp20 abc", 2, "", "not a number");
	expect("num fp20 0x100000", 2, "", "does not fit in 20 bits");
	expect("num fx10 0xzz", 2, "", "not a hex code");
	expect("num fp20", 2, "", "expected a format and a value");
	expect("num fp20 1 --round up", 2, "", "--round");
}

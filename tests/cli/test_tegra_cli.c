/* ulpsim tegra asm / disasm: outputs, exit codes, atomic output files. */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/fileio.h"
#include "tests/test_util.h"

static int run(char **out, char **err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int run(char **out, char **err, const char *fmt, ...)
{
	char args[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(args, sizeof args, fmt, ap);
	va_end(ap);
	return test_run_cli(args, out, err);
}

static void write_file(const char *path, const void *data, size_t n)
{
	FILE *f = fopen(path, "wb");
	cr_assert_not_null(f, "%s", path);
	cr_assert_eq(fwrite(data, 1, n, f), n);
	fclose(f);
}

static char *slurp(const char *path, size_t *n)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	char *t = ulp_read_file(path, n, &d);
	cr_assert_not_null(t, "%s: %s", path, d.msg);
	return t;
}

Test(tegra_cli, help_and_usage)
{
	char *out, *err;
	cr_assert_eq(test_run_cli("tegra --help", &out, &err), 0);
	cr_assert(strstr(out, "asm") && strstr(out, "disasm") && strstr(out, "run"));
	free(out);
	free(err);
	cr_assert_eq(test_run_cli("tegra asm --help", &out, &err), 0);
	cr_assert(strstr(out, "--words"));
	free(out);
	free(err);
	cr_assert_eq(test_run_cli("tegra disasm --help", &out, &err), 0);
	cr_assert(strstr(out, "--grate"));
	free(out);
	free(err);
	cr_assert_eq(test_run_cli("tegra", &out, &err), 2);
	free(out);
	free(err);
	cr_assert_eq(test_run_cli("tegra frob", &out, &err), 2);
	cr_assert(strstr(err, "unknown subcommand"), "%s", err);
	free(out);
	free(err);
	cr_assert_eq(test_run_cli("tegra asm /nonexistent/x.asm --words", &out, &err), 2);
	cr_assert(strstr(err, "/nonexistent/x.asm"), "%s", err);
	free(out);
	free(err);
	char *src = test_corpus_path("tegra/grate-tests/cube2_fs.txt");
	cr_assert_eq(run(&out, &err, "tegra asm %s", src), 2);   /* no -o, no --words */
	cr_assert(strstr(err, "-o"), "%s", err);
	free(out);
	free(err);
	free(src);
}

Test(tegra_cli, asm_words_fp_and_disasm)
{
	char *src = test_corpus_path("tegra/grate-tests/fs_mfu_tests.txt");
	char *want_path = test_corpus_path("tegra/grate-tests/fs_mfu_tests.words");
	char *dis_path = test_corpus_path("tegra/grate-tests/fs_mfu_tests.disasm");
	char *dir = test_tmpdir();
	cr_assert(src && want_path && dis_path && dir);
	char fp[512], words[512];
	snprintf(fp, sizeof fp, "%s/p.fp", dir);
	snprintf(words, sizeof words, "%s/p.words", dir);

	char *out, *err;
	cr_assert_eq(run(&out, &err, "tegra asm %s --words", src), 0, "%s", err);
	char *want = slurp(want_path, NULL);
	/* identical apart from the three '#' lines at the top */
	cr_assert_str_eq(strstr(out, "\n.alu_buffer_size"), strstr(want, "\n.alu_buffer_size"));
	free(out);
	free(err);

	cr_assert_eq(run(&out, &err, "tegra asm %s -o %s", src, fp), 0, "%s", err);
	free(out);
	free(err);
	size_t n;
	char *img = slurp(fp, &n);
	cr_assert(n > 64 && memcmp(img, "ULPTGFP", 8) == 0);

	cr_assert_eq(run(&out, &err, "tegra disasm %s --grate", fp), 0, "%s", err);
	char *dis = slurp(dis_path, NULL);
	cr_assert_str_eq(out, dis);
	free(out);
	free(err);
	free(dis);

	cr_assert_eq(run(&out, &err, "tegra asm %s --words -o %s", src, words), 0, "%s", err);
	free(out);
	free(err);
	cr_assert_eq(run(&out, &err, "tegra disasm %s -o %s/p.asm", words, dir), 0, "%s", err);
	free(out);
	free(err);
	char again[600];
	snprintf(again, sizeof again, "%s/p.asm", dir);
	cr_assert_eq(run(&out, &err, "tegra asm %s --words", again), 0, "%s", err);
	cr_assert_str_eq(strstr(out, "\n.alu_buffer_size"), strstr(want, "\n.alu_buffer_size"));
	free(out);
	free(err);

	/* a truncated .fp: exit 2 with a byte offset */
	char bad[600];
	snprintf(bad, sizeof bad, "%s/bad.fp", dir);
	write_file(bad, img, n / 2);
	cr_assert_eq(run(&out, &err, "tegra disasm %s", bad), 2);
	cr_assert(strstr(err, "byte"), "%s", err);
	free(out);
	free(err);
	/* a flipped byte: CRC mismatch */
	img[70] ^= 0x10;
	write_file(bad, img, n);
	cr_assert_eq(run(&out, &err, "tegra disasm %s", bad), 2);
	cr_assert(strstr(err, "CRC"), "%s", err);
	free(out);
	free(err);

	free(img);
	free(want);
	remove(fp);
	remove(words);
	remove(again);
	remove(bad);
	rmdir(dir);
	free(dir);
	free(src);
	free(want_path);
	free(dis_path);
}

Test(tegra_cli, refused_program_leaves_no_output)
{
	char *dir = test_tmpdir();
	cr_assert_not_null(dir);
	char src[512], fp[512];
	snprintf(src, sizeof src, "%s/bad.asm", dir);
	snprintf(fp, sizeof fp, "%s/out.fp", dir);
	const char *text = ".asm\nEXEC\n  ALU:\n    ALU0: MAD r0.l, r1, r2, r3, #0\n;\n";
	write_file(src, text, strlen(text));
	char *out, *err;
	cr_assert_eq(run(&out, &err, "tegra asm %s -o %s", src, fp), 2);
	cr_assert(strstr(err, "bad.asm:4:") && strstr(err, "Invalid src register"), "%s", err);
	struct stat st;
	cr_assert_neq(stat(fp, &st), 0, "a refused program left %s", fp);
	free(out);
	free(err);
	/* output into a missing folder: exit 2, nothing written */
	cr_assert_eq(run(&out, &err, "tegra asm %s --words -o %s/none/x.words", src, dir), 2);
	free(out);
	free(err);
	remove(src);
	rmdir(dir);
	free(dir);
}

Test(tegra_cli, disasm_annotations_and_truncated_words)
{
	char *dir = test_tmpdir();
	cr_assert_not_null(dir);
	char src[512], words[512];
	snprintf(src, sizeof src, "%s/a.asm", dir);
	snprintf(words, sizeof words, "%s/a.words", dir);
	const char *text = ".asm\nEXEC\n PSEQ: 0x0081000A\n ALU:\n  ALU0: MAD r0.l, u42, #1, #0\n"
	                   " ALU_COMPLEMENT: 0x00010002\n TEX: 0x00000800\n;\n";
	/* TEX must precede ALU: this order is refused like grate refuses it */
	write_file(src, text, strlen(text));
	char *out, *err;
	cr_assert_eq(run(&out, &err, "tegra asm %s --words", src), 2);
	free(out);
	free(err);
	text = ".asm\nEXEC\n PSEQ: 0x0081000A\n TEX: 0x00000800\n ALU:\n  ALU0: MAD r0.l, u42, #1, #0\n"
	       " ALU_COMPLEMENT: 0x00010002\n DW: 0x00000003\n;\n";
	write_file(src, text, strlen(text));
	cr_assert_eq(run(&out, &err, "tegra asm %s --words -o %s", src, words), 0, "%s", err);
	free(out);
	free(err);
	cr_assert_eq(run(&out, &err, "tegra disasm %s", words), 0, "%s", err);
	cr_assert(strstr(out, "t30 PSEQ_INST: OP=LD SURF=1 ARGS=0x000A"), "%s", out);
	cr_assert(strstr(out, "u42") && strstr(out, "register 74"), "%s", out);
	cr_assert(strstr(out, "ALU_COMPLEMENT:\t0x00010002"), "%s", out);
	cr_assert(strstr(out, "TEX:\t0x00000800\t// ") && strstr(out, "FETCH_KILLED=1"), "%s", out);
	cr_assert(strstr(out, "DW:\t0x00000003\t// "), "%s", out);
	free(out);
	free(err);
	cr_assert_eq(run(&out, &err, "tegra disasm %s --grate", words), 0, "%s", err);
	cr_assert(strstr(out, "invalid reg 74"), "%s", out);
	cr_assert(!strstr(out, "ALU_COMPLEMENT"), "%s", out);
	free(out);
	free(err);
	/* truncated words: exit 2, file:line:col */
	size_t n;
	char *w = slurp(words, &n);
	write_file(words, w, n - 20);
	cr_assert_eq(run(&out, &err, "tegra disasm %s", words), 2);
	cr_assert(strstr(err, "a.words:"), "%s", err);
	free(out);
	free(err);
	free(w);
	remove(src);
	remove(words);
	rmdir(dir);
	free(dir);
}

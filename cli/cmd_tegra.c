/* ulpsim tegra <asm|disasm|run> — Tegra GR3D fragment programs.
 * Subcommands are a table; `run` lives in cli/tegra_run.c.  Each gets the
 * full argv (argv[0] = "tegra", argv[1] = the subcommand). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fileio.h"
#include "cli/cli.h"
#include "isa/tegra/fp_container.h"
#include "isa/tegra/fp_words.h"
#include "isa/tegra/tegra_asm.h"
#include "isa/tegra/tegra_disasm.h"

static const char usage_top[] =
	"usage: ulpsim tegra <subcommand> [args]\n"
	"  asm     assemble grate fragment assembly (.asm/.txt) to a .fp container or words\n"
	"  disasm  disassemble a .fp container or tegra-fp-words v1 file to grate syntax\n"
	"  run     draw with the clocked GR3D fragment units (cli/tegra_run.c)\n"
	"'ulpsim tegra <subcommand> --help' describes each.\n";

static const char usage_asm[] =
	"usage: ulpsim tegra asm PROG.asm (-o OUT.fp | --words [-o OUT.words])\n"
	"  Assembles grate's fragment-program language (tegra-fp.md §2.2) with grate's\n"
	"  quirks; programs grate refuses are refused with file:line:col.\n"
	"  -o FILE   write the binary .fp container (docs/fp-container.md), atomically;\n"
	"            '-' is stdout\n"
	"  --words   print tegra-fp-words v1 text (header and upload words) instead;\n"
	"            to stdout, or to the -o file\n"
	"exit: 0 ok, 2 bad usage or a refused program\n";

static const char usage_disasm[] =
	"usage: ulpsim tegra disasm PROG.fp|PROG.words [--grate] [-o OUT]\n"
	"  Prints grate syntax.  By default the text re-assembles to the same words:\n"
	"  it carries .constants/.uniforms/.asm, uses raw hex where grate's text would\n"
	"  lose bits, and decodes in // comments what grate leaves raw (PSEQ, TEX and\n"
	"  DW fields with t30 register-database names, ALU_COMPLEMENT, register 74).\n"
	"  --grate   reproduce grate's own disassembly text exactly (lossy, no sections)\n"
	"  -o FILE   write to FILE atomically instead of stdout\n"
	"exit: 0 ok, 2 bad usage or a malformed input\n";

typedef struct sub_opts {
	const char *in, *out;
	bool words, grate;
} sub_opts;

/* Common option scan; allow_* say which flags the subcommand takes. */
static int parse_opts(const char *cmd, int argc, char **argv, bool allow_words, bool allow_grate,
                      sub_opts *o)
{
	memset(o, 0, sizeof *o);
	for (int i = 2; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "-o") == 0) {
			if (++i >= argc)
				return cli_usage(cmd, "-o needs a file name");
			o->out = argv[i];
		} else if (allow_words && strcmp(a, "--words") == 0) {
			o->words = true;
		} else if (allow_grate && strcmp(a, "--grate") == 0) {
			o->grate = true;
		} else if (a[0] == '-' && a[1] != '\0') {
			return cli_usage(cmd, "unknown option '%s'", a);
		} else if (!o->in) {
			o->in = a;
		} else {
			return cli_usage(cmd, "unexpected argument '%s'", a);
		}
	}
	if (!o->in)
		return cli_usage(cmd, "expected an input file");
	return EXIT_OK;
}

static int write_text(const char *path, const char *text, ulp_diag *d)
{
	if (!path || strcmp(path, "-") == 0) {
		fputs(text, stdout);
		return fflush(stdout) == 0 ? EXIT_OK : EXIT_BAD;
	}
	return ulp_write_file(path, text, strlen(text), d) ? EXIT_OK : cli_fail(d);
}

static int cmd_asm(int argc, char **argv)
{
	if (cli_wants_help(argc, argv)) {
		fputs(usage_asm, stdout);
		return EXIT_OK;
	}
	sub_opts o;
	int rc = parse_opts("tegra asm", argc, argv, true, false, &o);
	if (rc != EXIT_OK)
		return rc;
	if (!o.words && !o.out)
		return cli_usage("tegra asm", "give -o OUT.fp, or --words to print the words");
	ulp_diag d;
	ulp_diag_clear(&d);
	size_t len;
	char *src = ulp_read_file(o.in, &len, &d);
	if (!src)
		return cli_fail(&d);
	tegra_fp_program *p = malloc(sizeof *p);
	if (!p) {
		free(src);
		fprintf(stderr, "ulpsim: out of memory\n");
		return EXIT_BAD;
	}
	bool ok = tegra_asm_assemble(src, len, o.in, p, &d);
	free(src);
	if (!ok) {
		free(p);
		return cli_fail(&d);
	}
	if (o.words) {
		char *text = tegra_fp_words_write(p, o.in);
		free(p);
		if (!text) {
			fprintf(stderr, "ulpsim: out of memory\n");
			return EXIT_BAD;
		}
		rc = write_text(o.out, text, &d);
		free(text);
		return rc;
	}
	size_t n;
	uint8_t *img = tegra_fp_container_write(p, &n);
	free(p);
	if (!img) {
		fprintf(stderr, "ulpsim: out of memory\n");
		return EXIT_BAD;
	}
	if (strcmp(o.out, "-") == 0) {
		ok = fwrite(img, 1, n, stdout) == n && fflush(stdout) == 0;
		free(img);
		return ok ? EXIT_OK : EXIT_BAD;
	}
	ok = ulp_write_file(o.out, img, n, &d);
	free(img);
	return ok ? EXIT_OK : cli_fail(&d);
}

static int cmd_disasm(int argc, char **argv)
{
	if (cli_wants_help(argc, argv)) {
		fputs(usage_disasm, stdout);
		return EXIT_OK;
	}
	sub_opts o;
	int rc = parse_opts("tegra disasm", argc, argv, false, true, &o);
	if (rc != EXIT_OK)
		return rc;
	ulp_diag d;
	ulp_diag_clear(&d);
	size_t len;
	char *buf = ulp_read_file(o.in, &len, &d);
	if (!buf)
		return cli_fail(&d);
	tegra_fp_program *p = malloc(sizeof *p);
	if (!p) {
		free(buf);
		fprintf(stderr, "ulpsim: out of memory\n");
		return EXIT_BAD;
	}
	bool ok = tegra_fp_load_buffer(buf, len, o.in, p, &d);
	free(buf);
	char *text = ok ? tegra_disasm(p, o.grate ? TEGRA_DISASM_GRATE : 0, o.in, &d) : NULL;
	free(p);
	if (!text)
		return cli_fail(&d);
	rc = write_text(o.out, text, &d);
	free(text);
	return rc;
}

static const struct {
	const char *name;
	int (*fn)(int, char **);
} subcommands[] = {
	{ "asm", cmd_asm },
	{ "disasm", cmd_disasm },
	{ "run", cmd_tegra_run },   /* cli/tegra_run.c; argv[1] = "run" */
};

int cmd_tegra(int argc, char **argv)
{
	if (argc < 2 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
		fputs(usage_top, argc < 2 ? stderr : stdout);
		return argc < 2 ? EXIT_BAD : EXIT_OK;
	}
	for (size_t i = 0; i < sizeof subcommands / sizeof subcommands[0]; i++)
		if (strcmp(argv[1], subcommands[i].name) == 0)
			return subcommands[i].fn(argc, argv);
	return cli_usage("tegra", "unknown subcommand '%s' (asm, disasm, run)", argv[1]);
}

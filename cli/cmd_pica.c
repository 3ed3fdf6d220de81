/* ulpsim pica — PICA200 shaders: asm (picasso-compatible), disasm.
 * Subcommands live in one table; `run` is added by the shader-unit work. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fileio.h"
#include "cli/cli.h"
#include "isa/pica/pica_asm.h"
#include "isa/pica/pica_disasm.h"
#include "isa/pica/shbin.h"

static const char usage_top[] =
	"usage: ulpsim pica <subcommand> [options]\n"
	"  asm     assemble picasso sources into one SHBIN\n"
	"  disasm  print an SHBIN in picasso syntax\n"
	"  run     run one vertex or GS invocation (or a batch) on the clocked unit\n"
	"'ulpsim pica <subcommand> --help' describes each one.\n";

static const char usage_asm[] =
	"usage: ulpsim pica asm -o OUT.shbin [--no-nop] FILE.pica [FILE.pica ...]\n"
	"  Assembles picasso 2.7 sources (.v.pica, .g.pica, .vsh) into one SHBIN, linking\n"
	"  the files in command-line order exactly as picasso does: one DVLE per file\n"
	"  (unless .nodvle), shared procedures and vertex-shader uniforms, per-file\n"
	"  constants, shared operand descriptors.  The output is byte-identical to picasso's.\n"
	"  -o FILE    output SHBIN (required; written atomically; '-' = stdout)\n"
	"  --no-nop   do not insert padding NOPs (picasso -n)\n"
	"errors: file:line:col: message, exit status 2\n";

static const char usage_disasm[] =
	"usage: ulpsim pica disasm [-o OUT.pica] FILE.shbin\n"
	"  Validates the SHBIN and prints each DVLE (type, entry, GS mode, masks, outputs,\n"
	"  uniforms, constants) as comments, then the code in picasso syntax: procedures,\n"
	"  if/else/for blocks, labels, one instruction per line with its word address and\n"
	"  word.  For picasso-made files the text assembles back to the same code words.\n"
	"  -o FILE    write the listing to FILE instead of stdout\n"
	"malformed files: file: byte N: message, exit status 2\n";

static int pica_asm_cmd(int argc, char **argv)
{
	if (cli_wants_help(argc, argv)) {
		fputs(usage_asm, stdout);
		return EXIT_OK;
	}
	const char *out = NULL;
	struct pica_asm_opts opts = { 0 };
	char **inputs = calloc((size_t)argc, sizeof *inputs);
	int nin = 0;
	if (!inputs)
		return cli_usage("pica asm", "out of memory");
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-o") || !strcmp(argv[i], "--out")) {
			if (++i >= argc) {
				free(inputs);
				return cli_usage("pica asm", "-o needs a file name");
			}
			out = argv[i];
		} else if (!strncmp(argv[i], "--out=", 6)) {
			out = argv[i] + 6;
		} else if (!strcmp(argv[i], "--no-nop") || !strcmp(argv[i], "-n")) {
			opts.no_nop = true;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			free(inputs);
			return cli_usage("pica asm", "unknown option '%s'", argv[i]);
		} else {
			inputs[nin++] = argv[i];
		}
	}
	if (!out || !nin) {
		free(inputs);
		return cli_usage("pica asm", !out ? "missing -o OUT.shbin" : "no input files");
	}
	ulp_diag d;
	ulp_diag_clear(&d);
	struct pica_asm_file *files = calloc((size_t)nin, sizeof *files);
	int rc = EXIT_OK;
	if (!files) {
		free(inputs);
		return cli_usage("pica asm", "out of memory");
	}
	for (int i = 0; i < nin && rc == EXIT_OK; i++) {
		size_t len;
		char *text = ulp_read_file(inputs[i], &len, &d);
		if (!text)
			rc = cli_fail(&d);
		files[i] = (struct pica_asm_file){ inputs[i], text, text ? len : 0 };
	}
	struct shbin s;
	uint8_t *buf = NULL;
	size_t len = 0;
	if (rc == EXIT_OK) {
		if (!pica_assemble(files, (size_t)nin, &opts, &s, &d))
			rc = cli_fail(&d);
		else {
			if (!shbin_write(&s, &buf, &len, &d) || !ulp_write_file(out, buf, len, &d))
				rc = cli_fail(&d);
			shbin_free(&s);
		}
	}
	free(buf);
	for (int i = 0; i < nin; i++)
		free((void *)files[i].text);
	free(files);
	free(inputs);
	return rc;
}

static int pica_disasm_cmd(int argc, char **argv)
{
	if (cli_wants_help(argc, argv)) {
		fputs(usage_disasm, stdout);
		return EXIT_OK;
	}
	const char *in = NULL, *out = NULL;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-o")) {
			if (++i >= argc)
				return cli_usage("pica disasm", "-o needs a file name");
			out = argv[i];
		} else if (argv[i][0] == '-' && argv[i][1]) {
			return cli_usage("pica disasm", "unknown option '%s'", argv[i]);
		} else if (!in) {
			in = argv[i];
		} else {
			return cli_usage("pica disasm", "unexpected argument '%s'", argv[i]);
		}
	}
	if (!in)
		return cli_usage("pica disasm", "no input SHBIN");
	ulp_diag d;
	ulp_diag_clear(&d);
	struct shbin s;
	if (!shbin_load(in, &s, &d))
		return cli_fail(&d);
	int rc = EXIT_OK;
	ulp_out o;
	if (!ulp_out_open(&o, out ? out : "-", &d)) {
		shbin_free(&s);
		return cli_fail(&d);
	}
	bool exact;
	if (!pica_disasm(&s, o.f, &exact, &d)) {
		ulp_out_abort(&o);
		rc = cli_fail(&d);
	} else if (!ulp_out_commit(&o, &d)) {
		rc = cli_fail(&d);
	}
	shbin_free(&s);
	return rc;
}

static const struct {
	const char *name;
	int (*fn)(int, char **);
} SUBCOMMANDS[] = {
	{ "asm", pica_asm_cmd },
	{ "disasm", pica_disasm_cmd },
	{ "run", cmd_pica_run },
};

int cmd_pica(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		fputs(usage_top, argc < 2 ? stderr : stdout);
		return argc < 2 ? EXIT_BAD : EXIT_OK;
	}
	for (size_t i = 0; i < sizeof SUBCOMMANDS / sizeof SUBCOMMANDS[0]; i++)
		if (!strcmp(argv[1], SUBCOMMANDS[i].name))
			return SUBCOMMANDS[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "ulpsim: pica: unknown subcommand '%s'\n(see 'ulpsim pica --help')\n", argv[1]);
	return EXIT_BAD;
}

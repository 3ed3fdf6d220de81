/* ulpsim tgsi compile FILE --target pica|tegra [-o OUT] [--asm]
 * TGSI text -> PICA200 SHBIN (or its picasso assembly with --asm), or a
 * fragment shader -> Tegra GR3D .fp container (or its grate assembly).
 * The compilers are frontends/pica/ and frontends/tegra/ on the IR of
 * frontends/ir/ (docs/compiler.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fileio.h"
#include "cli/cli.h"
#include "frontends/pica/pica_compile.h"
#include "frontends/tegra/tegra_compile.h"
#include "isa/tegra/fp_container.h"
#include "frontends/tgsi/tgsi.h"

static const char usage[] =
	"usage: ulpsim tgsi compile FILE --target pica|tegra [-o OUT] [--asm]\n"
	"  compile a TGSI vertex or geometry shader (FILE, \"-\" = stdin) for the\n"
	"  PICA200 shader unit.  Writes the SHBIN to OUT (atomically), or with --asm\n"
	"  the picasso assembly text (to OUT, or stdout without -o).\n"
	"  mapping: IN[n] -> vn, CONST[0][n] -> cn, immediates from c95 down,\n"
	"  OUT -> the DVLE output table (docs/compiler.md).\n"
	"  --target tegra: a fragment shader for the Tegra 2/3 GR3D fragment unit:\n"
	"  the .fp container to OUT, or with --asm the grate assembly text.\n"
	"  mapping: IN[k] -> TRAM row k (FP20 ipl), CONST[0][n].c -> u(4n+c) (n < 8),\n"
	"  SAMP[n] -> texn, OUT COLOR[0] -> render target 1.\n"
	"errors: ulpsim: FILE:LINE:COL: message (the refused instruction), exit 2\n";

static int write_text(const char *out, const char *text, size_t len)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	if (out) {
		if (!ulp_write_file(out, text, len, &d))
			return cli_fail(&d);
	} else if (fwrite(text, 1, len, stdout) != len || fflush(stdout) != 0) {
		fprintf(stderr, "ulpsim: tgsi compile: cannot write to stdout\n");
		return EXIT_BAD;
	}
	return EXIT_OK;
}

static int compile_tegra(tgsi_shader *sh, const char *name, const char *out, bool want_asm)
{
	tegra_compile_result r;
	bool ok = tegra_compile(sh, name, &r);
	tgsi_shader_free(sh);
	if (!ok) {
		ulp_diag d = r.d;
		tegra_compile_result_free(&r);
		return cli_fail(&d);
	}
	int rc;
	if (want_asm) {
		rc = write_text(out, r.asm_text, r.asm_len);
	} else {
		size_t len = 0;
		uint8_t *buf = tegra_fp_container_write(&r.prog, &len);
		ulp_diag d;
		ulp_diag_clear(&d);
		if (!buf) {
			fprintf(stderr, "ulpsim: tgsi compile: out of memory\n");
			rc = EXIT_BAD;
		} else {
			rc = ulp_write_file(out, buf, len, &d) ? EXIT_OK : cli_fail(&d);
		}
		free(buf);
	}
	tegra_compile_result_free(&r);
	return rc;
}

int cmd_tgsi_compile(int argc, char **argv)
{
	if (cli_wants_help(argc, argv)) {
		fputs(usage, stdout);
		return EXIT_OK;
	}
	const char *in = NULL, *out = NULL, *target = NULL;
	bool want_asm = false;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-o") == 0) {
			if (++i >= argc)
				return cli_usage("tgsi", "compile: -o needs a file name");
			out = argv[i];
		} else if (strcmp(argv[i], "--target") == 0) {
			if (++i >= argc)
				return cli_usage("tgsi", "compile: --target needs pica or tegra");
			target = argv[i];
		} else if (strncmp(argv[i], "--target=", 9) == 0) {
			target = argv[i] + 9;
		} else if (strcmp(argv[i], "--asm") == 0) {
			want_asm = true;
		} else if (argv[i][0] == '-' && argv[i][1] != '\0') {
			return cli_usage("tgsi", "compile: unknown option '%s'", argv[i]);
		} else if (!in) {
			in = argv[i];
		} else {
			return cli_usage("tgsi", "compile: unexpected argument '%s'", argv[i]);
		}
	}
	if (!in)
		return cli_usage("tgsi", "compile: expected an input file");
	if (!target)
		return cli_usage("tgsi", "compile: --target pica or --target tegra is required");
	bool tegra = strcmp(target, "tegra") == 0;
	if (!tegra && strcmp(target, "pica") != 0)
		return cli_usage("tgsi", "compile: unknown target '%s' (pica or tegra)", target);
	if (!out && !want_asm)
		return cli_usage("tgsi", "compile: -o OUT is required for a %s (or use --asm)",
		                 tegra ? ".fp container" : "SHBIN");

	ulp_diag d;
	ulp_diag_clear(&d);
	size_t len;
	char *text = ulp_read_file(in, &len, &d);
	if (!text)
		return cli_fail(&d);
	const char *name = strcmp(in, "-") == 0 ? "<stdin>" : in;
	tgsi_shader *sh = tgsi_parse(text, len, name, NULL, &d);
	free(text);
	if (!sh)
		return cli_fail(&d);
	if (tegra)
		return compile_tegra(sh, name, out, want_asm);
	pica_compile_opts opts = { .no_shbin = want_asm };
	pica_compile_result r;
	bool ok = pica_compile(sh, name, &opts, &r);
	tgsi_shader_free(sh);
	if (!ok) {
		d = r.d;
		pica_compile_result_free(&r);
		return cli_fail(&d);
	}
	int rc = EXIT_OK;
	if (want_asm) {
		if (out) {
			if (!ulp_write_file(out, r.asm_text, r.asm_len, &d))
				rc = cli_fail(&d);
		} else if (fwrite(r.asm_text, 1, r.asm_len, stdout) != r.asm_len || fflush(stdout) != 0) {
			fprintf(stderr, "ulpsim: tgsi compile: cannot write to stdout\n");
			rc = EXIT_BAD;
		}
	} else {
		uint8_t *buf = NULL;
		size_t blen = 0;
		if (!shbin_write(&r.shbin, &buf, &blen, &d) || !ulp_write_file(out, buf, blen, &d))
			rc = cli_fail(&d);
		free(buf);
	}
	pica_compile_result_free(&r);
	return rc;
}

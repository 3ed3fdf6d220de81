/* ulpsim tgsi <subcommand>: TGSI text tools.
 *   fmt      parse and reprint in tgsi_dump's format (frontends/tgsi/)
 *   run      reference interpreter (Mesa 22.3 tgsi_exec semantics, one lane;
 *            vertex, fragment or one GS invocation)
 *   compile  to PICA200 (cli/tgsi_compile.c; Tegra not yet)
 * Subcommands are rows of `subcommands` below. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fileio.h"
#include "cli/cli.h"
#include "frontends/tgsi/tgsi.h"
#include "frontends/tgsi/tgsi_exec.h"

static const char usage[] =
	"usage: ulpsim tgsi <subcommand> [options]\n"
	"subcommands:\n"
	"  fmt FILE [-o OUT] [--floats as-written|decimal|hex] [--mesa]\n"
	"      parse FILE (\"-\" = stdin) and reprint it exactly as Mesa 22.3's\n"
	"      tgsi_dump would; FLT32 immediates keep the notation they were\n"
	"      written in (\"%10.4f\" decimal or 0x bit pattern) unless --floats\n"
	"      says otherwise.  --mesa rejects the legacy opcodes (ABS, SUB, XPD,\n"
	"      DPH, SCS, KIL, CLAMP) as Mesa 22.3 does.  -o writes OUT atomically.\n"
	"  run FILE --case CASE.json [--bits] [--max-steps N] [-o OUT]\n"
	"      run one invocation (vertex, fragment or GS) with Mesa 22.3 tgsi_exec\n"
	"      semantics in f32 and print\n"
	"      {\"outputs\": {\"OUT[0]\": [x, y, z, w], ...}, \"killed\": false}, or for\n"
	"      GEOM {\"output_primitive\": \"...\", \"primitives\": [{\"vertices\":\n"
	"      [{\"OUT[0]\": [...], ...}, ...]}, ...]} (EMIT/ENDPRIM, stream 0)\n"
	"      CASE.json: {\"IN[0]\": [x, y, z, w], \"IN[1][0]\": [...] (GS vertex 1),\n"
	"      \"CONST[0][2]\": [...], \"SV[0]\": [...], \"INSTANCEID\": [...] (a declared\n"
	"      IN/SV semantic), \"SAMP[0]\": [r, g, b, a] (one constant texel) or\n"
	"      \"SAMP[1]\": {\"width\": W, \"height\": H, \"texels\": [[r, g, b, a], ...]\n"
	"      (row-major, first row at t = 0) or \"png\": \"FILE.png\" (relative to\n"
	"      CASE.json), \"filter\": \"nearest\"|\"linear\", \"wrap\": \"repeat\"|\"clamp\"|\n"
	"      \"mirror\" or [s, t], \"compare\": \"less\"|... for SHADOW targets}};\n"
	"      values are numbers, \"inf\", \"-inf\", \"nan\" or \"0x%08x\" bit patterns;\n"
	"      every key names a register the shader declares.  --bits prints outputs\n"
	"      as bit patterns.  Details: docs/tgsi-frontend.md.\n"
	"  compile FILE --target pica|tegra [-o OUT] [--asm]\n"
	"      pica: a VERT/GEOM shader to a PICA200 SHBIN (OUT), or with --asm its\n"
	"      picasso text (OUT or stdout); tegra: a FRAG shader to a Tegra .fp\n"
	"      container (OUT), or with --asm its grate text (docs/compiler.md)\n"
	"errors: ulpsim: FILE:LINE:COL: message, exit 2\n";

static int tgsi_fmt(int argc, char **argv)
{
	if (cli_wants_help(argc, argv)) {
		fputs(usage, stdout);
		return EXIT_OK;
	}
	const char *in = NULL, *out = NULL;
	enum tgsi_dump_floats floats = TGSI_DUMP_FLOATS_AS_WRITTEN;
	tgsi_parse_options opts = { .reject_legacy = false };
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-o") == 0) {
			if (++i >= argc)
				return cli_usage("tgsi", "fmt: -o needs a file name");
			out = argv[i];
		} else if (strcmp(argv[i], "--floats") == 0) {
			if (++i >= argc)
				return cli_usage("tgsi", "fmt: --floats needs as-written, decimal or hex");
			if (strcmp(argv[i], "as-written") == 0)
				floats = TGSI_DUMP_FLOATS_AS_WRITTEN;
			else if (strcmp(argv[i], "decimal") == 0)
				floats = TGSI_DUMP_FLOATS_DECIMAL;
			else if (strcmp(argv[i], "hex") == 0)
				floats = TGSI_DUMP_FLOATS_HEX;
			else
				return cli_usage("tgsi", "fmt: --floats takes as-written, decimal or hex");
		} else if (strcmp(argv[i], "--mesa") == 0) {
			opts.reject_legacy = true;
		} else if (argv[i][0] == '-' && argv[i][1] != '\0') {
			return cli_usage("tgsi", "fmt: unknown option '%s'", argv[i]);
		} else if (!in) {
			in = argv[i];
		} else {
			return cli_usage("tgsi", "fmt: unexpected argument '%s'", argv[i]);
		}
	}
	if (!in)
		return cli_usage("tgsi", "fmt: expected an input file");

	ulp_diag d;
	ulp_diag_clear(&d);
	size_t len;
	char *text = ulp_read_file(in, &len, &d);
	if (!text)
		return cli_fail(&d);
	tgsi_shader *sh = tgsi_parse(text, len, strcmp(in, "-") == 0 ? "<stdin>" : in, &opts, &d);
	free(text);
	if (!sh)
		return cli_fail(&d);
	size_t olen;
	char *s = tgsi_dump_str(sh, floats, &olen);
	tgsi_shader_free(sh);
	if (!s) {
		fprintf(stderr, "ulpsim: tgsi: out of memory\n");
		return EXIT_BAD;
	}
	int rc = EXIT_OK;
	if (out) {
		if (!ulp_write_file(out, s, olen, &d))
			rc = cli_fail(&d);
	} else if (fwrite(s, 1, olen, stdout) != olen || fflush(stdout) != 0) {
		fprintf(stderr, "ulpsim: tgsi: cannot write to stdout\n");
		rc = EXIT_BAD;
	}
	free(s);
	return rc;
}

static int tgsi_run(int argc, char **argv)
{
	if (cli_wants_help(argc, argv)) {
		fputs(usage, stdout);
		return EXIT_OK;
	}
	const char *in = NULL, *case_path = NULL, *out = NULL;
	bool bits = false;
	unsigned long long max_steps = 0;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--case") == 0) {
			if (++i >= argc)
				return cli_usage("tgsi", "run: --case needs a file name");
			case_path = argv[i];
		} else if (strcmp(argv[i], "-o") == 0) {
			if (++i >= argc)
				return cli_usage("tgsi", "run: -o needs a file name");
			out = argv[i];
		} else if (strcmp(argv[i], "--bits") == 0) {
			bits = true;
		} else if (strcmp(argv[i], "--max-steps") == 0) {
			char *end;
			if (++i >= argc || (max_steps = strtoull(argv[i], &end, 10)) == 0 || *end)
				return cli_usage("tgsi", "run: --max-steps needs a positive number");
		} else if (argv[i][0] == '-' && argv[i][1] != '\0') {
			return cli_usage("tgsi", "run: unknown option '%s'", argv[i]);
		} else if (!in) {
			in = argv[i];
		} else {
			return cli_usage("tgsi", "run: unexpected argument '%s'", argv[i]);
		}
	}
	if (!in || !case_path)
		return cli_usage("tgsi", "run: expected a shader file and --case CASE.json");

	ulp_diag d;
	ulp_diag_clear(&d);
	size_t len, clen;
	char *text = ulp_read_file(in, &len, &d);
	if (!text)
		return cli_fail(&d);
	const char *name = strcmp(in, "-") == 0 ? "<stdin>" : in;
	tgsi_shader *sh = tgsi_parse(text, len, name, NULL, &d);
	free(text);
	if (!sh)
		return cli_fail(&d);
	char *cs = ulp_read_file(case_path, &clen, &d);
	tgsi_exec_machine m;
	bool inited = cs != NULL;
	bool ok = inited && tgsi_exec_init(&m, sh, name, &d);
	if (ok) {
		if (max_steps)
			m.max_steps = max_steps;
		ok = tgsi_exec_load_case(&m, cs, clen, case_path, &d) && tgsi_exec_run(&m, &d);
	}
	free(cs);
	char *json = ok ? tgsi_exec_outputs_json(&m, bits) : NULL;
	if (ok && !json) {
		ok = false;
		ulp_diag_at(&d, name, 0, 0, "out of memory");
	}
	if (inited)
		tgsi_exec_fini(&m);
	tgsi_shader_free(sh);
	if (!ok)
		return cli_fail(&d);
	int rc = EXIT_OK;
	if (out) {
		if (!ulp_write_file(out, json, strlen(json), &d))
			rc = cli_fail(&d);
	} else if (fputs(json, stdout) == EOF || fflush(stdout) != 0) {
		fprintf(stderr, "ulpsim: tgsi: cannot write to stdout\n");
		rc = EXIT_BAD;
	}
	free(json);
	return rc;
}

static const struct {
	const char *name;
	int (*run)(int argc, char **argv);
} subcommands[] = {
	{ "fmt", tgsi_fmt },
	{ "run", tgsi_run },
	{ "compile", cmd_tgsi_compile },
};

int cmd_tgsi(int argc, char **argv)
{
	/* Only "ulpsim tgsi --help" is the group's help; subcommands answer their own. */
	if (argc < 2 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
		fputs(usage, argc < 2 ? stderr : stdout);
		return argc < 2 ? EXIT_BAD : EXIT_OK;
	}
	for (size_t i = 0; i < sizeof subcommands / sizeof subcommands[0]; i++)
		if (strcmp(argv[1], subcommands[i].name) == 0)
			return subcommands[i].run(argc - 1, argv + 1);
	return cli_usage("tgsi", "unknown subcommand '%s' (fmt, run, compile)", argv[1]);
}

/* ulpsim trace check file.json | ulpsim trace schema */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "traces/replay/replay.h"
#include "traces/trace.h"

static const char usage[] =
	"usage: ulpsim trace check [--allow-paths] [--max-side-file SIZE] FILE.json\n"
	"                                       validate a trace (format v1), compile the\n"
	"                                       shaders it names, list its contents\n"
	"       ulpsim trace schema            print the format's JSON Schema\n"
	"The format: docs/trace-format.md.  A bad trace is refused with the JSON path\n"
	"of the offending value (a shader's error: its file:line:col too), exit 2.\n"
	"--allow-paths reads side files from outside the trace's folder;\n"
	"--max-side-file caps each side file (bytes, or K, M, G; default 256M).\n";

int cmd_trace(int argc, char **argv)
{
	if (argc < 2 || cli_wants_help(argc, argv)) {
		fputs(usage, argc < 2 ? stderr : stdout);
		return argc < 2 ? EXIT_BAD : EXIT_OK;
	}
	if (strcmp(argv[1], "schema") == 0) {
		if (argc != 2)
			return cli_usage("trace", "schema takes no arguments");
		char *s = trace_schema_json();
		if (!s)
			return cli_usage("trace", "out of memory");
		printf("%s\n", s);
		free(s);
		return EXIT_OK;
	}
	if (strcmp(argv[1], "check") == 0) {
		trace_load_opts lo = { 0 };
		const char *file = NULL;
		for (int i = 2; i < argc; i++) {
			int k = cli_side_file_option("trace", argc, argv, &i, &lo);
			if (k < 0)
				return EXIT_BAD;
			if (k > 0)
				continue;
			if (argv[i][0] == '-' && argv[i][1])
				return cli_usage("trace", "unknown option '%s'", argv[i]);
			else if (file)
				return cli_usage("trace", "check takes one trace file");
			else
				file = argv[i];
		}
		if (!file)
			return cli_usage("trace", "check takes one trace file");
		trace t;
		ulp_diag d;
		ulp_diag_clear(&d);
		if (!trace_load_with(&t, file, &lo, &d) || !replay_check_shaders(&t, &d)) {
			trace_free(&t);
			return cli_fail(&d);
		}
		printf("%s: ulpsim-trace v%u '%s' (%s): %zu resources, %zu shaders, %zu commands\n", file,
		       t.version, t.name, t.gpu, t.nres, t.nsh, t.ncmd);
		trace_free(&t);
		return EXIT_OK;
	}
	return cli_usage("trace", "unknown subcommand '%s' (check, schema)", argv[1]);
}

/* ulpsim trace check file.json | ulpsim trace pack IN OUT | ulpsim trace schema */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "traces/replay/replay.h"
#include "base/fileio.h"
#include "traces/trace.h"

static const char usage[] =
	"usage: ulpsim trace check [--allow-paths] [--max-side-file SIZE] FILE.json\n"
	"                                       validate a trace (format v1), compile the\n"
	"                                       shaders it names, list its contents\n"
	"       ulpsim trace pack [--allow-paths] [--max-side-file SIZE] IN.json OUT.json\n"
	"                                       IN with its resources' number arrays and hex\n"
	"                                       as base64 (\"b64\": the same bytes, a fraction\n"
	"                                       of the load time), written atomically; relative\n"
	"                                       side-file names resolve from OUT's folder\n"
	"       ulpsim trace schema            print the format's JSON Schema\n"
	"The format: docs/trace-format.md.  A bad trace is refused with the JSON path\n"
	"of the offending value (a shader's error: its file:line:col too), exit 2.\n"
	"--allow-paths reads side files from outside the trace's folder;\n"
	"--max-side-file caps each side file (bytes, or K, M, G; default 256M).\n";

/* The folder of path, resolved (malloc'd; NULL when it does not resolve). */
static char *folder_of(const char *path)
{
	char *copy = strdup(path);
	if (!copy)
		return NULL;
	char *slash = strrchr(copy, '/');
	if (slash)
		*(slash == copy ? slash + 1 : slash) = 0;
	char *real = realpath(slash ? copy : ".", NULL);
	free(copy);
	return real;
}

/* trace pack: t (loaded from in) packed, written to out atomically. */
static int trace_pack_cli(trace *t, const char *in, const char *out)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	unsigned packed = 0;
	size_t before = 0;
	char *old = ulp_read_file(in, &before, &d);
	free(old);
	char *text = trace_pack_json(t, &packed, &d);
	trace_free(t);
	if (!text || !ulp_write_file(out, text, strlen(text), &d)) {
		free(text);
		return cli_fail(&d);
	}
	fprintf(stderr, "ulpsim: %s: %u data field%s as base64: %zu bytes -> %s, %zu bytes\n", in, packed,
	        packed == 1 ? "" : "s", before, out, strlen(text));
	free(text);
	char *a = folder_of(in), *b = strcmp(out, "-") ? folder_of(out) : NULL;
	if (a && b && strcmp(a, b))
		fprintf(stderr, "ulpsim: note: %s is in another folder than %s: its relative side-file names "
		        "resolve from there\n", out, in);
	free(a);
	free(b);
	return EXIT_OK;
}

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
	if (strcmp(argv[1], "check") == 0 || strcmp(argv[1], "pack") == 0) {
		const bool pack = argv[1][0] == 'p';
		trace_load_opts lo = { 0 };
		const char *file = NULL, *out = NULL;
		for (int i = 2; i < argc; i++) {
			int k = cli_side_file_option("trace", argc, argv, &i, &lo);
			if (k < 0)
				return EXIT_BAD;
			if (k > 0)
				continue;
			if (argv[i][0] == '-' && argv[i][1])
				return cli_usage("trace", "unknown option '%s'", argv[i]);
			else if (file && (!pack || out))
				return cli_usage("trace", pack ? "pack takes IN.json OUT.json" : "check takes one trace file");
			else if (file)
				out = argv[i];
			else
				file = argv[i];
		}
		if (!file || (pack && !out))
			return cli_usage("trace", pack ? "pack takes IN.json OUT.json" : "check takes one trace file");
		trace t;
		ulp_diag d;
		ulp_diag_clear(&d);
		if (!trace_load_with(&t, file, &lo, &d) || (!pack && !replay_check_shaders(&t, &d))) {
			trace_free(&t);
			return cli_fail(&d);
		}
		if (pack)
			return trace_pack_cli(&t, file, out);
		printf("%s: ulpsim-trace v%u '%s' (%s): %zu resources, %zu shaders, %zu commands\n", file,
		       t.version, t.name, t.gpu, t.nres, t.nsh, t.ncmd);
		trace_free(&t);
		return EXIT_OK;
	}
	return cli_usage("trace", "unknown subcommand '%s' (check, pack, schema)", argv[1]);
}

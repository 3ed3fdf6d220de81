/* ulpsim: one binary, git-style subcommands (cli/commands.def). */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "sim/core/config.h"
#include "traces/trace.h"

typedef struct cli_command {
	const char *name;
	const char *summary;
	int (*run)(int argc, char **argv);
} cli_command;

static const cli_command commands[] = {
#define CMD(name, summary) { #name, summary, cmd_##name },
#include "cli/commands.def"
#undef CMD
};

int cli_fail(const ulp_diag *d)
{
	ulp_diag_print(d, stderr);
	return EXIT_BAD;
}

int cli_usage(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "ulpsim: %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n(see 'ulpsim %s --help')\n", cmd);
	return EXIT_BAD;
}

int cli_config_option(int argc, char **argv, int *i, struct ulp_config *cfg)
{
	const char *a = argv[*i];
	bool is_config = strcmp(a, "--config") == 0, is_set = strcmp(a, "--set") == 0;
	bool is_threads = strcmp(a, "--threads") == 0;     /* --set sim.threads=N */
	if (!is_config && !is_set && !is_threads)
		return 0;
	if (*i + 1 >= argc) {
		fprintf(stderr, "ulpsim: %s takes a value\n", a);
		return -1;
	}
	const char *v = argv[++*i];
	ulp_diag d;
	ulp_diag_clear(&d);
	char set[64];
	if (is_threads) {
		snprintf(set, sizeof set, "sim.threads=%.40s", v);
		v = set;
	}
	if (is_config ? ulp_config_load(cfg, v, &d) : ulp_config_set(cfg, v, &d))
		return 1;
	cli_fail(&d);
	return -1;
}

int cli_side_file_option(const char *cmd, int argc, char **argv, int *i, trace_load_opts *lo)
{
	const char *a = argv[*i];
	if (!strcmp(a, "--allow-paths")) {
		lo->allow_paths = true;
		return 1;
	}
	if (strcmp(a, "--max-side-file"))
		return 0;
	if (*i + 1 >= argc || !trace_parse_side_file_cap(argv[*i + 1], &lo->max_file_bytes)) {
		cli_usage(cmd, "--max-side-file takes a size: bytes, or with a K, M or G suffix (1 .. 16G)");
		return -1;
	}
	++*i;
	return 1;
}

bool cli_max_cycles(const char *v, uint64_t *cycles)
{
	char *end;
	errno = 0;
	unsigned long long m = strtoull(v, &end, 10);
	if (errno || end == v || *end || v[0] == '-' || m == 0 || m == ULLONG_MAX) {
		cli_usage("replay", "--max-cycles takes a number of cycles (1 or more)");
		return false;
	}
	*cycles = m;
	return true;
}

bool cli_wants_help(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			return false;
		if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0)
			return true;
	}
	return false;
}

static void print_help(FILE *f)
{
	fprintf(f, "ulpsim %s: cycle-accurate simulator of the PICA200 shader unit and the\n"
	           "Tegra 2/3 GR3D fragment pipeline.\n\n"
	           "usage: ulpsim <command> [options] [args]\n\ncommands:\n", ULPSIM_VERSION);
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "  %-10s %s\n\n", "help", "this text, or 'ulpsim help <command>'");
	fprintf(f, "exit codes: 0 success, 1 a check or comparison failed, 2 bad usage or input\n");
}
bool cli_mkdir_p(const char *path, ulp_diag *d)
{
	char buf[1024];
	size_t n = strlen(path);
	if (!n || n >= sizeof buf)
		return ulp_diag_at(d, path, 0, 0, "cannot create the folder: path too long or empty");
	memcpy(buf, path, n + 1);
	for (size_t k = 1; k <= n; k++) {
		if (buf[k] != '/' && buf[k] != '\0')
			continue;
		char c = buf[k];
		buf[k] = '\0';
		struct stat st;
		if (mkdir(buf, 0777) != 0 && errno != EEXIST)
			return ulp_diag_at(d, buf, 0, 0, "cannot create the folder: %s", strerror(errno));
		if (stat(buf, &st) != 0 || !S_ISDIR(st.st_mode))
			return ulp_diag_at(d, buf, 0, 0, "exists and is not a folder");
		buf[k] = c;
	}
	return true;
}

static const cli_command *find_command(const char *name)
{
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		print_help(stderr);
		return EXIT_BAD;
	}
	const char *name = argv[1];
	if (strcmp(name, "--version") == 0 || strcmp(name, "version") == 0) {
		printf("ulpsim %s\n", ULPSIM_VERSION);
		return EXIT_OK;
	}
	if (strcmp(name, "help") == 0 || strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0) {
		if (argc > 2 && strcmp(name, "help") == 0) {
			const cli_command *c = find_command(argv[2]);
			if (!c) {
				fprintf(stderr, "ulpsim: unknown command '%s'\n", argv[2]);
				return EXIT_BAD;
			}
			char *sub[] = { argv[2], "--help", NULL };
			return c->run(2, sub);
		}
		print_help(stdout);
		return EXIT_OK;
	}
	const cli_command *c = find_command(name);
	if (!c) {
		fprintf(stderr, "ulpsim: unknown command '%s' (see 'ulpsim help')\n", name);
		return EXIT_BAD;
	}
	return c->run(argc - 1, argv + 1);
}

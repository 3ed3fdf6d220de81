/* Shared helpers for the ulpsim command-line tool (not part of the library). */
#ifndef ULP_CLI_H
#define ULP_CLI_H

#include <stdbool.h>
#include <stdint.h>

#include "base/diag.h"

/* Exit codes (README): 0 success, 1 a check or comparison failed,
 * 2 bad usage or bad input. */
enum { EXIT_OK = 0, EXIT_CHECK = 1, EXIT_BAD = 2 };

#define ULPSIM_VERSION "0.1.0"

#define CMD(name, summary) int cmd_##name(int argc, char **argv);
#include "cli/commands.def"
#undef CMD

/* Subcommands that live in their own files, dispatched from their group's
 * table: ulpsim pica run (cli/pica_run.c), ulpsim tegra run
 * (cli/tegra_run.c), ulpsim tgsi compile (cli/tgsi_compile.c). */
int cmd_pica_run(int argc, char **argv);
int cmd_tegra_run(int argc, char **argv);
int cmd_tgsi_compile(int argc, char **argv);

/* Print d as "ulpsim: file:line:col: msg" and return EXIT_BAD. */
int cli_fail(const ulp_diag *d);
/* "ulpsim: <cmd>: <msg>" plus a pointer to --help; returns EXIT_BAD. */
int cli_usage(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The knob options every simulating command takes: --config FILE and
 * --set KEY=VALUE.  When argv[*i] is one of them, applies it, advances *i
 * past its value and returns 1; returns 0 when it is not; -1 after
 * printing an error (the command then returns EXIT_BAD). */
struct ulp_config;
int cli_config_option(int argc, char **argv, int *i, struct ulp_config *cfg);
/* The side-file options of commands that load traces (docs/trace-format.md
 * "Side files"): --allow-paths and --max-side-file SIZE.  As
 * cli_config_option: 0 not one of them, 1 taken (and *i moved past its
 * value), -1 a bad value (the usage message printed). */
struct trace_load_opts;
/* replay's --max-cycles value (1 or more) into *cycles; false with the
 * usage message printed. */
bool cli_max_cycles(const char *v, uint64_t *cycles);
int cli_side_file_option(const char *cmd, int argc, char **argv, int *i, struct trace_load_opts *lo);

/* mkdir -p path: false with d naming the path that could not be made. */
bool cli_mkdir_p(const char *path, ulp_diag *d);

/* True when argv holds -h or --help (before any "--"). */
bool cli_wants_help(int argc, char **argv);

#endif

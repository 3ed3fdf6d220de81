/* ulpsim correlate — placeholder until its issue lands; replaced by the real command. */
#include <stdio.h>

#include "cli/cli.h"

int cmd_correlate(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "ulpsim: correlate: this command is not in this build yet\n");
	return EXIT_BAD;
}

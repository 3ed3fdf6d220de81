/* ulpsim compare — placeholder until its issue lands; replaced by the real command. */
#include <stdio.h>

#include "cli/cli.h"

int cmd_compare(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "ulpsim: compare: this command is not in this build yet\n");
	return EXIT_BAD;
}

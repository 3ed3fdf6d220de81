/* ulpsim view TRACE.json [viewer options]: runs the SDL2 viewer, the
 * ulpsim-view program built beside this one (docs/viewer.md).  The viewer
 * is a separate binary so that ulpsim itself never links SDL. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"

enum { VIEW_PATH_MAX = 4096 };

int cmd_view(int argc, char **argv)
{
	char self[VIEW_PATH_MAX], viewer[VIEW_PATH_MAX + 16];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	if (n <= 0) {
		fprintf(stderr, "ulpsim: view: cannot find this program (/proc/self/exe: %s)\n",
		        strerror(errno));
		return EXIT_BAD;
	}
	self[n] = 0;
	char *slash = strrchr(self, '/');
	if (slash)
		slash[1] = 0;
	else
		self[0] = 0;
	snprintf(viewer, sizeof viewer, "%sulpsim-view", self);
	if (access(viewer, X_OK) != 0) {
		fprintf(stderr,
		        "ulpsim: view: the viewer is not built (%s: %s).\n"
		        "It needs SDL2 and SDL2_ttf: 'make deps' installs them, then 'make' builds it.\n",
		        viewer, strerror(errno));
		return EXIT_BAD;
	}
	char **args = calloc((size_t)argc + 1, sizeof *args);
	if (!args) {
		fprintf(stderr, "ulpsim: view: out of memory\n");
		return EXIT_BAD;
	}
	args[0] = viewer;
	for (int i = 1; i < argc; i++)
		args[i] = argv[i];
	fflush(NULL);
	execv(viewer, args);
	fprintf(stderr, "ulpsim: view: cannot run %s: %s\n", viewer, strerror(errno));
	free(args);
	return EXIT_BAD;
}

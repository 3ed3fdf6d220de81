/* PLACEHOLDER until branch h-session's ulpsim_context.c lands: the screen
 * links without it, and creating a context fails cleanly.  Delete this file
 * when merging h-session. */
#include <stdio.h>

#include "frontends/gallium/ulpsim_gallium.h"

struct pipe_context *ulpsim_context_create(struct pipe_screen *screen, void *priv, unsigned flags)
{
	(void)screen, (void)priv, (void)flags;
	fprintf(stderr, "ulpsim: this driver build has no pipe_context yet (placeholder)\n");
	return NULL;
}

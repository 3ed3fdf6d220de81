/* The piglit [test] reader and the harness's state commands
 * (traces/piglit/): every command applied, draws set up, nothing rendered. */
#include <stdbool.h>
#include <stdio.h>
#include "fuzz/fuzz.h"
#include "base/fileio.h"
#include "traces/piglit/piglit.h"

/* The input is a test.txt; meta.json, vs.tgsi and fs.tgsi come from one
 * corpus test with uniforms and a sampler (FUZZ_PIGLIT_DIR), so that
 * uniform and texture commands reach the state code. */
static char *meta, *vs, *fs;

static char *side(const char *dir, const char *name)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	size_t len;
	ulp_diag d;
	ulp_diag_clear(&d);
	return ulp_read_file(path, &len, &d);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	const char *dir = getenv("FUZZ_PIGLIT_DIR");
	if (!dir || !*dir)
		dir = "../shared/corpus/tgsi-noint/"
		      "tests__spec__glsl-1.10__execution__samplers__glsl-fs-sampler-numbering-2";
	meta = side(dir, "meta.json");
	vs = side(dir, "vs.tgsi");
	fs = side(dir, "fs.tgsi");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *txt = fuzz_text(data, size);
	pg_test *t = calloc(1, sizeof *t);
	pg_state *s = calloc(1, sizeof *s);
	if (!txt || !t || !s)
		goto out;
	ulp_diag d;
	ulp_diag_clear(&d);
	if (!pg_test_parse(t, txt, meta, vs, fs, "fuzz", &d))
		goto out_test;
	char reason[256];
	if (pg_state_init(s, t, &d) && pg_state_prepare(s, t, reason, sizeof reason)) {
		for (size_t i = 0; i < t->ncmds; i++) {
			const pg_cmd *c = &t->cmds[i];
			bool ok = true;
			switch (c->kind) {
			case PG_UNSUPPORTED: case PG_CLEAR: case PG_PROBE:
				break;
			case PG_DRAW_RECT: case PG_DRAW_ARRAYS: {
				pg_draw dr;
				if ((ok = pg_state_draw(s, t, c, &dr, reason, sizeof reason)))
					pg_draw_free(&dr);
				break;
			}
			default:
				ok = pg_state_apply(s, t, c, reason, sizeof reason);
			}
			if (!ok)
				break;
		}
	}
	pg_state_free(s);
out_test:
	pg_test_free(t);
out:
	free(s);
	free(t);
	free(txt);
	return 0;
}

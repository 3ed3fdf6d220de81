/* The tests' streaming-session fixture (functions in tests/test_util.c). */
#ifndef ULP_TESTS_TEST_SESSION_FX_H
#define ULP_TESTS_TEST_SESSION_FX_H

#include <stdbool.h>

#include "base/diag.h"
#include "sim/core/config.h"
#include "traces/replay/replay.h"
#include "traces/replay/session.h"

/* A streaming session (traces/replay/session.h) with the default config and
 * a lazy unit list, as the Gallium driver opens one; the tests' fixture. */
typedef struct test_session {
	ulp_config cfg;
	replay_opts o;
	replay_result res;
	replay_session *s;
	ulp_diag d;
} test_session;
void test_session_open(test_session *f, const char *name);
/* One command (JSON text): the session's verdict, its error in f->d. */
bool test_session_cmd(test_session *f, const char *json);
/* Finishes (must_finish: asserts that it finishes) and frees all. */
void test_session_close(test_session *f, bool must_finish);

#endif

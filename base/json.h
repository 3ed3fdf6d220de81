/* JSON input with diagnostics: parse text, and on a syntax error report the
 * line and column cJSON stopped at. */
#ifndef ULP_BASE_JSON_H
#define ULP_BASE_JSON_H

#include <cjson/cJSON.h>

#include "base/diag.h"

/* The parsed document (free with cJSON_Delete), or NULL with d set to
 * "file:line:col: invalid JSON". */
cJSON *ulp_json_parse(const char *text, const char *file, ulp_diag *d);

#endif

/* JSON output of simulated values: floats as %.9g (round-trips a binary32),
 * infinities and NaN as the strings "inf", "-inf", "nan". */
#ifndef ULP_CLI_JSON_OUT_H
#define ULP_CLI_JSON_OUT_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdio.h>

/* Bare text: "1.5", "inf", "-inf", "nan". */
void json_out_float(char *buf, size_t n, float v);
cJSON *json_out_vec4(const float v[4]);
/* Print root (formatted) and a newline. */
void json_out_print(const cJSON *root, FILE *f);

#endif

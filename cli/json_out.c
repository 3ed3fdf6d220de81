#include "cli/json_out.h"

#include <math.h>

void json_out_float(char *buf, size_t n, float v)
{
	if (isnan(v))
		snprintf(buf, n, "nan");
	else if (isinf(v))
		snprintf(buf, n, "%s", v < 0 ? "-inf" : "inf");
	else
		snprintf(buf, n, "%.9g", (double)v);
}

static cJSON *json_out_number(float v)
{
	char buf[32];
	if (isnan(v) || isinf(v)) {
		json_out_float(buf, sizeof buf, v);
		return cJSON_CreateString(buf);
	}
	json_out_float(buf, sizeof buf, v);
	return cJSON_CreateRaw(buf);
}

cJSON *json_out_vec4(const float v[4])
{
	cJSON *a = cJSON_CreateArray();
	for (int k = 0; a && k < 4; k++)
		cJSON_AddItemToArray(a, json_out_number(v[k]));
	return a;
}

void json_out_print(const cJSON *root, FILE *f)
{
	char *s = cJSON_Print(root);
	if (s) {
		fputs(s, f);
		fputc('\n', f);
	}
	cJSON_free(s);
}

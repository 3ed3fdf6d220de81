#include "base/json.h"

cJSON *ulp_json_parse(const char *text, const char *file, ulp_diag *d)
{
	const char *end = NULL;
	cJSON *root = cJSON_ParseWithOpts(text, &end, 0);
	if (root)
		return root;
	const char *at = end ? end : cJSON_GetErrorPtr();
	long off = at && at >= text ? (long)(at - text) : 0;
	int line = 1, col = 1;
	for (long i = 0; i < off && text[i]; i++, col++)
		if (text[i] == '\n')
			line++, col = 0;
	ulp_diag_at(d, file, line, col, "invalid JSON");
	return NULL;
}

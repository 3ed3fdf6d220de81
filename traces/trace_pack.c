/* `ulpsim trace pack`: a loaded trace's inline number arrays (and hex) as
 * base64 (docs/trace-format.md "Data forms"), so that a trace written with
 * number arrays (JSON parsers make a node per number) is converted once. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "traces/trace.h"
#include "traces/trace_data.h"

/* The one data form o gives (the loader checked there is exactly one). */
static cJSON *data_item(cJSON *o, bool texture, const trace_data_form **form)
{
	for (const trace_data_form *f = TRACE_DATA_FORMS; f->name; f++) {
		if (!(texture ? f->texture_version : f->buffer_version))
			continue;
		cJSON *v = cJSON_GetObjectItemCaseSensitive(o, f->name);
		if (v) {
			*form = f;
			return v;
		}
	}
	return NULL;
}

/* o's inline array or hex data, which decodes to bytes[0..len), as "b64"
 * in its place: 1 when rewritten, 0 when o gives another form, -1 when out
 * of memory. */
static int pack_one(cJSON *o, bool texture, const uint8_t *bytes, size_t len)
{
	const trace_data_form *f = NULL;
	cJSON *v = data_item(o, texture, &f);
	if (!v || !(f->item_bytes || f->kind == TD_HEX))
		return 0;
	char *s = trace_b64_encode(bytes, len);
	cJSON *b = s ? cJSON_CreateString(s) : NULL;
	free(s);
	char *key = b ? malloc(4) : NULL;
	if (!key) {
		cJSON_Delete(b);
		return -1;
	}
	memcpy(key, "b64", 4);
	b->string = key;                      /* cJSON's default allocator: freed with the item */
	return cJSON_ReplaceItemViaPointer(o, v, b) ? 1 : (cJSON_Delete(b), -1);
}

/* cJSON prints -0 as 0: a raw "-0.0" keeps the sign (a constant's sign
 * can matter to a shader).  False when out of memory. */
static bool keep_negative_zero(cJSON *v)
{
	for (cJSON *it = v->child; it; it = it->next) {
		if (cJSON_IsNumber(it) && it->valuedouble == 0 && signbit(it->valuedouble)) {
			cJSON *raw = cJSON_CreateRaw("-0.0");
			if (!raw || (it->string && !(raw->string = malloc(strlen(it->string) + 1)))) {
				cJSON_Delete(raw);
				return false;
			}
			if (it->string)
				strcpy(raw->string, it->string);
			if (!cJSON_ReplaceItemViaPointer(v, it, raw))
				return false;
			it = raw;
		} else if (!keep_negative_zero(it)) {
			return false;
		}
	}
	return true;
}

char *trace_pack_json(trace *t, unsigned *packed, ulp_diag *d)
{
	*packed = 0;
	cJSON *res = cJSON_GetObjectItemCaseSensitive(t->root, "resources");
	size_t i = 0;
	for (cJSON *it = res ? res->child : NULL; it && i < t->nres; it = it->next, i++) {
		const trace_resource *r = &t->res[i];          /* the loader took them in order */
		const bool tex = r->type == TRACE_TEXTURE;
		cJSON *lv = tex ? cJSON_GetObjectItemCaseSensitive(it, "levels") : NULL;
		for (unsigned k = 0; k < (tex ? r->nlevels : 1); k++) {
			cJSON *o = k ? cJSON_GetArrayItem(lv, (int)k - 1) : it;
			size_t len = r->len;
			if (tex) {
				uint32_t w = r->width >> k ? r->width >> k : 1, h = r->height >> k ? r->height >> k : 1;
				len = (size_t)w * h * trace_texfmt_bpp(r->format);
			}
			int n = pack_one(o, tex, r->bytes + (tex ? r->level_off[k] : 0), len);
			if (n < 0) {
				ulp_diag_at(d, t->path, 0, 0, "out of memory");
				return NULL;
			}
			*packed += (unsigned)n;
		}
	}
	cJSON *ver = cJSON_GetObjectItemCaseSensitive(t->root, "version");
	if (*packed && ver && ver->valuedouble < 2)       /* b64 is a field of version 2 */
		cJSON_SetNumberValue(ver, 2);
	char *text = keep_negative_zero(t->root) ? cJSON_Print(t->root) : NULL;
	if (!text)
		ulp_diag_at(d, t->path, 0, 0, "out of memory");
	return text;
}

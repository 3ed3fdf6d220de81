#include "sim/core/config.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/fileio.h"
#include "base/json.h"

enum cfg_type { T_BOOL, T_INT, T_REAL, T_ROUND, T_ENUM_MAXNEG, T_ENUM_OVERFLOW, T_ENUM_UNDOC, T_ENUM_DSTI, T_ENUM_ARITH };

/* Names of enum values, in enum order.  ORDER: enum ulp_round etc. */
static const char *const names_round[] = { "nearest-even", "truncate", "nearest-away", NULL };
static const char *const names_maxneg[] = { "formula", "neg_inf", NULL };
static const char *const names_overflow[] = { "clamp", "wrap", NULL };
static const char *const names_undoc[] = { "error", "nop", NULL };
static const char *const names_dsti[] = { "same", "swapped", NULL };
static const char *const names_arith[] = { "hw", "exact", NULL };

typedef struct knob {
	cfg_knob_info info;
	enum cfg_type type;
	size_t offset;
	int64_t lo, hi;
} knob;

static const knob knobs[] = {
#define KNOB(field, key, type, def, lo, hi, kind, doc) \
	{ { key, doc, CFG_##kind }, T_##type, offsetof(ulp_config, field), lo, hi },
#include "sim/core/config.def"
#undef KNOB
};
enum { NKNOBS = sizeof knobs / sizeof knobs[0] };

void ulp_config_defaults(ulp_config *c)
{
	memset(c, 0, sizeof *c);
#define KNOB(field, key, type, def, lo, hi, kind, doc) c->field = def;
#include "sim/core/config.def"
#undef KNOB
}

size_t ulp_config_knob_count(void) { return NKNOBS; }
const cfg_knob_info *ulp_config_knob(size_t i) { return i < NKNOBS ? &knobs[i].info : NULL; }

static const knob *find_knob(const char *key)
{
	for (size_t i = 0; i < NKNOBS; i++)
		if (strcmp(knobs[i].info.key, key) == 0)
			return &knobs[i];
	return NULL;
}

static const char *const *enum_names(enum cfg_type t)
{
	switch (t) {
	case T_ROUND: return names_round;
	case T_ENUM_MAXNEG: return names_maxneg;
	case T_ENUM_OVERFLOW: return names_overflow;
	case T_ENUM_UNDOC: return names_undoc;
	case T_ENUM_DSTI: return names_dsti;
	case T_ENUM_ARITH: return names_arith;
	default: return NULL;
	}
}

static void store_enum(ulp_config *c, const knob *k, int v)
{
	void *p = (char *)c + k->offset;
	switch (k->type) {
	case T_ROUND: *(enum ulp_round *)p = (enum ulp_round)v; break;
	case T_ENUM_MAXNEG: *(enum f24_max_neg_inf *)p = (enum f24_max_neg_inf)v; break;
	case T_ENUM_OVERFLOW: *(enum fx10_overflow *)p = (enum fx10_overflow)v; break;
	case T_ENUM_UNDOC: *(enum pica_undoc_policy *)p = (enum pica_undoc_policy)v; break;
	case T_ENUM_DSTI: *(enum pica_dsti *)p = (enum pica_dsti)v; break;
	case T_ENUM_ARITH: *(enum ulp_arith *)p = (enum ulp_arith)v; break;
	default: break;
	}
}

static int load_enum(const ulp_config *c, const knob *k)
{
	const void *p = (const char *)c + k->offset;
	switch (k->type) {
	case T_ROUND: return (int)*(const enum ulp_round *)p;
	case T_ENUM_MAXNEG: return (int)*(const enum f24_max_neg_inf *)p;
	case T_ENUM_OVERFLOW: return (int)*(const enum fx10_overflow *)p;
	case T_ENUM_UNDOC: return (int)*(const enum pica_undoc_policy *)p;
	case T_ENUM_DSTI: return (int)*(const enum pica_dsti *)p;
	case T_ENUM_ARITH: return (int)*(const enum ulp_arith *)p;
	default: return 0;
	}
}

/* Parse text as the knob's value.  where names it for messages. */
static bool set_from_text(ulp_config *c, const knob *k, const char *text, const char *file,
                          const char *where, ulp_diag *d)
{
	void *p = (char *)c + k->offset;
	char *end;
	errno = 0;
	switch (k->type) {
	case T_BOOL:
		if (strcmp(text, "true") == 0 || strcmp(text, "1") == 0)
			*(bool *)p = true;
		else if (strcmp(text, "false") == 0 || strcmp(text, "0") == 0)
			*(bool *)p = false;
		else
			return ulp_diag_at(d, file, 0, 0, "%s: '%s' is not true or false", where, text);
		return true;
	case T_INT: {
		long long v = strtoll(text, &end, 0);
		if (end == text || *end || errno)
			return ulp_diag_at(d, file, 0, 0, "%s: '%s' is not an integer", where, text);
		if (v < k->lo || v > k->hi)
			return ulp_diag_at(d, file, 0, 0, "%s: %lld is outside %lld..%lld", where, v,
			                   (long long)k->lo, (long long)k->hi);
		*(int64_t *)p = v;
		return true;
	}
	case T_REAL: {
		double v = strtod(text, &end);
		if (end == text || *end)
			return ulp_diag_at(d, file, 0, 0, "%s: '%s' is not a number", where, text);
		*(double *)p = v;
		return true;
	}
	default: {
		const char *const *names = enum_names(k->type);
		for (int i = 0; names && names[i]; i++) {
			if (strcmp(names[i], text) == 0) {
				store_enum(c, k, i);
				return true;
			}
		}
		char opts[256] = "";
		for (int i = 0; names && names[i]; i++) {
			strncat(opts, i ? ", " : "", sizeof opts - strlen(opts) - 1);
			strncat(opts, names[i], sizeof opts - strlen(opts) - 1);
		}
		return ulp_diag_at(d, file, 0, 0, "%s: '%s' is not one of %s", where, text, opts);
	}
	}
}

static bool apply_item(ulp_config *c, const cJSON *item, const char *prefix, const char *file,
                       ulp_diag *d)
{
	for (const cJSON *it = item->child; it; it = it->next) {
		char key[256];
		if (snprintf(key, sizeof key, "%s%s%s", prefix, *prefix ? "." : "", it->string) >=
		    (int)sizeof key)
			return ulp_diag_at(d, file, 0, 0, "$.%s: key too long", prefix);
		if (cJSON_IsObject(it)) {
			if (!apply_item(c, it, key, file, d))
				return false;
			continue;
		}
		char where[300];
		snprintf(where, sizeof where, "$.%s", key);
		if (strcmp(key, "preset") == 0) {
			if (!cJSON_IsString(it))
				return ulp_diag_at(d, file, 0, 0, "%s: expected a preset name", where);
			if (!ulp_config_preset(c, it->valuestring, d))
				return false;
			continue;
		}
		const knob *k = find_knob(key);
		if (!k)
			return ulp_diag_at(d, file, 0, 0, "%s: unknown knob '%s'", where, key);
		char text[64];
		if (cJSON_IsBool(it))
			snprintf(text, sizeof text, "%s", cJSON_IsTrue(it) ? "true" : "false");
		else if (cJSON_IsNumber(it) && k->type == T_INT && it->valuedouble == (double)(int64_t)it->valuedouble)
			snprintf(text, sizeof text, "%lld", (long long)it->valuedouble);
		else if (cJSON_IsNumber(it))
			snprintf(text, sizeof text, "%.17g", it->valuedouble);
		else if (cJSON_IsString(it))
			snprintf(text, sizeof text, "%s", it->valuestring);
		else
			return ulp_diag_at(d, file, 0, 0, "%s: expected a value", where);
		if ((k->type == T_BOOL) != cJSON_IsBool(it) && !cJSON_IsString(it))
			return ulp_diag_at(d, file, 0, 0, "%s: wrong type", where);
		if (!set_from_text(c, k, text, file, where, d))
			return false;
	}
	return true;
}

bool ulp_config_apply_json(ulp_config *c, const char *json, const char *file, ulp_diag *d)
{
	cJSON *root = ulp_json_parse(json, file, d);
	if (!root)
		return false;
	bool ok = cJSON_IsObject(root) ? apply_item(c, root, "", file, d)
	                               : ulp_diag_at(d, file, 0, 0, "$: expected an object");
	cJSON_Delete(root);
	return ok;
}

bool ulp_config_load(ulp_config *c, const char *path, ulp_diag *d)
{
	char *text = ulp_read_file(path, NULL, d);
	if (!text)
		return false;
	bool ok = ulp_config_apply_json(c, text, path, d);
	free(text);
	return ok;
}

/* Presets: named sets of knob values (docs/ASSUMPTIONS.md for their sources). */
typedef struct preset { const char *name; const char *const *sets; } preset;
static const char *const P_TEGRA2[] = { "gr3d.instances=1", "gr3d.clock_mhz=300", NULL };
static const char *const P_TEGRA3[] = { "gr3d.instances=2", "gr3d.clock_mhz=416", NULL };
static const char *const P_PICA200[] = { "pica.units=4", "pica.clock_mhz=268", NULL };
static const preset PRESETS[] = {
	{ "tegra2", P_TEGRA2 }, { "tegra3", P_TEGRA3 }, { "pica200", P_PICA200 },
};

bool ulp_config_preset(ulp_config *c, const char *name, ulp_diag *d)
{
	for (size_t i = 0; i < sizeof PRESETS / sizeof PRESETS[0]; i++) {
		if (strcmp(PRESETS[i].name, name))
			continue;
		for (const char *const *s = PRESETS[i].sets; *s; s++)
			if (!ulp_config_set(c, *s, d))
				return false;
		return true;
	}
	return ulp_diag_at(d, "preset", 0, 0, "unknown preset '%s' (tegra2, tegra3, pica200)", name);
}

bool ulp_config_set(ulp_config *c, const char *assignment, ulp_diag *d)
{
	if (strncmp(assignment, "preset=", 7) == 0)
		return ulp_config_preset(c, assignment + 7, d);
	const char *eq = strchr(assignment, '=');
	if (!eq || eq == assignment)
		return ulp_diag_at(d, "--set", 0, 0, "expected key=value, got '%s'", assignment);
	char key[128];
	size_t n = (size_t)(eq - assignment);
	if (n >= sizeof key)
		return ulp_diag_at(d, "--set", 0, 0, "key too long");
	memcpy(key, assignment, n);
	key[n] = '\0';
	const knob *k = find_knob(key);
	if (!k)
		return ulp_diag_at(d, "--set", 0, 0, "unknown knob '%s'", key);
	return set_from_text(c, k, eq + 1, "--set", key, d);
}

static cJSON *object_at(cJSON *root, const char *key, char *leaf, size_t leafsz)
{
	cJSON *obj = root;
	const char *s = key;
	for (const char *dot; (dot = strchr(s, '.')); s = dot + 1) {
		char part[64];
		size_t n = (size_t)(dot - s) < sizeof part - 1 ? (size_t)(dot - s) : sizeof part - 1;
		memcpy(part, s, n);
		part[n] = '\0';
		cJSON *next = cJSON_GetObjectItemCaseSensitive(obj, part);
		if (!next)
			next = cJSON_AddObjectToObject(obj, part);
		obj = next;
	}
	snprintf(leaf, leafsz, "%s", s);
	return obj;
}

void ulp_config_dump_json(const ulp_config *c, FILE *f)
{
	cJSON *root = cJSON_CreateObject();
	for (size_t i = 0; root && i < NKNOBS; i++) {
		const knob *k = &knobs[i];
		if (k->info.kind == CFG_HOST)     /* not a result's input */
			continue;
		char leaf[64];
		cJSON *obj = object_at(root, k->info.key, leaf, sizeof leaf);
		if (!obj)
			continue;
		const void *p = (const char *)c + k->offset;
		switch (k->type) {
		case T_BOOL: cJSON_AddBoolToObject(obj, leaf, *(const bool *)p); break;
		case T_INT: cJSON_AddNumberToObject(obj, leaf, (double)*(const int64_t *)p); break;
		case T_REAL: cJSON_AddNumberToObject(obj, leaf, *(const double *)p); break;
		default: cJSON_AddStringToObject(obj, leaf, enum_names(k->type)[load_enum(c, k)]); break;
		}
	}
	char *s = root ? cJSON_Print(root) : NULL;
	if (s) {
		fputs(s, f);
		fputc('\n', f);
	}
	cJSON_free(s);
	cJSON_Delete(root);
}

/* The JSON Schema of the trace format, generated from the loader's own
 * command table so the two cannot drift (traces/schema/trace.schema.json
 * is this output; tests/traces/test_trace.c compares them). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "traces/trace_data.h"
#include "traces/trace_int.h"

#define ID_PATTERN "^[A-Za-z0-9_.-]{1,63}$"

static cJSON *num_range(const char *type, double lo, double hi)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "type", type);
	cJSON_AddNumberToObject(o, "minimum", lo);
	cJSON_AddNumberToObject(o, "maximum", hi);
	return o;
}

static cJSON *enum_of(const char *const *names)
{
	cJSON *o = cJSON_CreateObject();
	cJSON *a = cJSON_AddArrayToObject(o, "enum");
	for (int i = 0; names[i]; i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(names[i]));
	return o;
}

static cJSON *tuple(int n, const cJSON *const *items)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "type", "array");
	cJSON *p = cJSON_AddArrayToObject(o, "prefixItems");
	for (int i = 0; i < n; i++)
		cJSON_AddItemToArray(p, cJSON_Duplicate(items[i], true));
	cJSON_AddNumberToObject(o, "minItems", n);
	cJSON_AddNumberToObject(o, "maxItems", n);
	return o;
}

static cJSON *array_of(cJSON *items, double lo, double hi)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "type", "array");
	cJSON_AddItemToObject(o, "items", items);
	if (lo > 0)
		cJSON_AddNumberToObject(o, "minItems", lo);
	if (hi > 0)
		cJSON_AddNumberToObject(o, "maxItems", hi);
	return o;
}

static cJSON *string_pattern(const char *pattern)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "type", "string");
	cJSON_AddStringToObject(o, "pattern", pattern);
	return o;
}

static cJSON *object_of(const field *fields, const char *cmd);

static cJSON *field_schema(const field *f)
{
	switch (f->kind) {
	case F_INT: return num_range("integer", f->lo, f->hi);
	case F_NUM: return num_range("number", f->lo, f->hi);
	case F_BOOL: {
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "type", "boolean");
		return o;
	}
	case F_STR: case F_FILE: {
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "type", "string");
		cJSON_AddNumberToObject(o, "minLength", 1);
		return o;
	}
	case F_ENUM: return enum_of(f->enums);
	case F_COLOR: return array_of(num_range("number", 0, 1), 4, 4);
	case F_VEC3: return array_of(num_range("number", f->lo, f->hi), 3, 3);
	case F_CYCLES: {
		cJSON *o = cJSON_CreateObject();
		cJSON *any = cJSON_AddArrayToObject(o, "oneOf");
		cJSON_AddItemToArray(any, num_range("integer", 0, 1e18));
		cJSON_AddItemToArray(any, string_pattern("^[0-9]+(\xC2\xB1|\\+-)[0-9.]+%$"));
		return o;
	}
	case F_SWIZZLE: return string_pattern("^[rgba01]{4}$");
	case F_ID_SHADER: case F_ID_BUF: case F_ID_TEX: case F_ID_RES: return string_pattern(ID_PATTERN);
	case F_OBJ: return object_of(f->sub, NULL);
	case F_OBJ_ARRAY: return array_of(object_of(f->sub, NULL), f->lo, f->hi);
	case F_F32_ARRAY: return array_of(num_range("number", -TRACE_MAX_NUMBER, TRACE_MAX_NUMBER), f->lo, f->hi);
	case F_PICA_WRITES: case F_GR3D_WRITES: {
		const bool pica = f->kind == F_PICA_WRITES;
		cJSON *reg = num_range("integer", 0, pica ? 0x2FF : 0xFFF);
		cJSON *mask = num_range("integer", 0, 15);
		cJSON *val = num_range("integer", 0, 4294967295.0);
		const cJSON *p3[3] = { reg, mask, val }, *g2[2] = { reg, val };
		cJSON *t = pica ? tuple(3, p3) : tuple(2, g2);
		cJSON_Delete(reg);
		cJSON_Delete(mask);
		cJSON_Delete(val);
		return array_of(t, 0, 0);
	}
	}
	return cJSON_CreateObject();
}

static cJSON *object_of(const field *fields, const char *cmd)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "type", "object");
	cJSON *props = cJSON_AddObjectToObject(o, "properties");
	cJSON *req = cJSON_CreateArray();
	if (cmd) {
		cJSON *c = cJSON_AddObjectToObject(props, "cmd");
		cJSON_AddStringToObject(c, "const", cmd);
		cJSON_AddItemToArray(req, cJSON_CreateString("cmd"));
	}
	for (const field *f = fields; f->name; f++) {
		cJSON_AddItemToObject(props, f->name, field_schema(f));
		if (f->required)
			cJSON_AddItemToArray(req, cJSON_CreateString(f->name));
	}
	cJSON_AddItemToObject(o, "required", req);
	cJSON_AddBoolToObject(o, "additionalProperties", false);
	return o;
}

static cJSON *required_each(const char *const *names)
{
	cJSON *a = cJSON_CreateArray();
	for (int i = 0; names[i]; i++) {
		cJSON *r = cJSON_CreateObject();
		cJSON *l = cJSON_AddArrayToObject(r, "required");
		cJSON_AddItemToArray(l, cJSON_CreateString(names[i]));
		cJSON_AddItemToArray(a, r);
	}
	return a;
}

/* One data form's value (trace_data.h). */
static cJSON *data_schema(const trace_data_form *f)
{
	switch (f->kind) {
	case TD_F32: return array_of(num_range("number", -TRACE_MAX_NUMBER, TRACE_MAX_NUMBER), 0, 0);
	case TD_U32: case TD_U16: case TD_U8: return array_of(num_range("integer", 0, f->item_max), 0, 0);
	case TD_HEX: return string_pattern("^([0-9A-Fa-f]{2})*$");
	case TD_B64: return string_pattern("^([A-Za-z0-9+/]{4})*([A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$");
	case TD_FILE: case TD_PNG: return string_pattern(".");
	case TD_FILL: return array_of(num_range("number", 0, 1), 4, 4);
	}
	return cJSON_CreateObject();
}

/* The data forms of a buffer or a texture as properties of props, and the
 * "exactly one of them" rule. */
static void data_forms(cJSON *obj, cJSON *props, bool texture)
{
	cJSON *one = cJSON_CreateArray();
	for (const trace_data_form *f = TRACE_DATA_FORMS; f->name; f++) {
		if (!(texture ? f->texture_version : f->buffer_version))
			continue;
		cJSON_AddItemToObject(props, f->name, data_schema(f));
		cJSON *r = cJSON_CreateObject();
		cJSON_AddItemToArray(cJSON_AddArrayToObject(r, "required"), cJSON_CreateString(f->name));
		cJSON_AddItemToArray(one, r);
	}
	cJSON_AddItemToObject(obj, "oneOf", one);
}

/* Resources and shaders: the rules of trace_res.c. */
static cJSON *resource_defs(void)
{
	cJSON *buf = cJSON_CreateObject();
	cJSON_AddStringToObject(buf, "type", "object");
	cJSON *bp = cJSON_AddObjectToObject(buf, "properties");
	cJSON_AddItemToObject(cJSON_AddObjectToObject(bp, "type"), "const", cJSON_CreateString("buffer"));
	data_forms(buf, bp, false);
	cJSON_AddItemToObject(bp, "size", num_range("integer", 0, (double)TRACE_MAX_FILE_BYTES));
	cJSON *breq = cJSON_AddArrayToObject(buf, "required");
	cJSON_AddItemToArray(breq, cJSON_CreateString("type"));
	cJSON_AddBoolToObject(buf, "additionalProperties", false);

	/* one level's data: exactly one of the texture data forms */
	cJSON *level = cJSON_CreateObject();
	cJSON_AddStringToObject(level, "type", "object");
	cJSON *lp = cJSON_AddObjectToObject(level, "properties");
	data_forms(level, lp, true);
	cJSON_AddBoolToObject(level, "additionalProperties", false);

	cJSON *tex = cJSON_CreateObject();
	cJSON_AddStringToObject(tex, "type", "object");
	cJSON *tp = cJSON_AddObjectToObject(tex, "properties");
	cJSON_AddItemToObject(cJSON_AddObjectToObject(tp, "type"), "const", cJSON_CreateString("texture"));
	cJSON_AddItemToObject(tp, "format", enum_of(TRACE_E_TEXFMT));
	cJSON_AddItemToObject(tp, "target", enum_of(TRACE_E_TARGET));
	cJSON_AddItemToObject(tp, "width", num_range("integer", 1, 4096));
	cJSON_AddItemToObject(tp, "height", num_range("integer", 1, 4096));
	data_forms(tex, tp, true);
	cJSON_AddItemToObject(tp, "levels", array_of(level, 1, TRACE_TEX_LEVELS - 1));
	cJSON *treq = cJSON_AddArrayToObject(tex, "required");
	const char *const need[] = { "type", "format", "width", "height" };
	for (int i = 0; i < 4; i++)
		cJSON_AddItemToArray(treq, cJSON_CreateString(need[i]));
	cJSON_AddBoolToObject(tex, "additionalProperties", false);

	cJSON *res = cJSON_CreateObject();
	cJSON *one = cJSON_AddArrayToObject(res, "oneOf");
	cJSON_AddItemToArray(one, buf);
	cJSON_AddItemToArray(one, tex);
	return res;
}

static cJSON *shader_def(void)
{
	static const char *const CODE[] = { "tgsi", "tgsi_file", "shbin", "grate", "grate_file",
		"words_file", "fp", NULL };
	cJSON *s = cJSON_CreateObject();
	cJSON_AddStringToObject(s, "type", "object");
	cJSON *p = cJSON_AddObjectToObject(s, "properties");
	cJSON_AddItemToObject(p, "stage", enum_of(TRACE_E_STAGE));
	for (int i = 0; CODE[i]; i++)
		cJSON_AddItemToObject(p, CODE[i], string_pattern("."));
	cJSON_AddItemToObject(p, "dvle", num_range("integer", 0, 63));
	cJSON *req = cJSON_AddArrayToObject(s, "required");
	cJSON_AddItemToArray(req, cJSON_CreateString("stage"));
	cJSON_AddItemToObject(s, "oneOf", required_each(CODE));
	cJSON_AddBoolToObject(s, "additionalProperties", false);
	return s;
}

char *trace_schema_json(void)
{
	cJSON *root = cJSON_CreateObject();
	cJSON_AddStringToObject(root, "$schema", "https://json-schema.org/draft/2020-12/schema");
	cJSON_AddStringToObject(root, "$id", "https://ulpsim.invalid/schema/trace.schema.json");
	cJSON_AddStringToObject(root, "title", "ulpsim trace format, versions 1 to " TRACE_VERSION_S " (docs/trace-format.md)");
	cJSON_AddStringToObject(root, "type", "object");
	cJSON *p = cJSON_AddObjectToObject(root, "properties");
	cJSON_AddItemToObject(cJSON_AddObjectToObject(p, "format"), "const", cJSON_CreateString("ulpsim-trace"));
	cJSON *ver = num_range("integer", 1, TRACE_VERSION);
	cJSON_AddItemToObject(p, "version", ver);
	cJSON_AddStringToObject(cJSON_AddObjectToObject(p, "name"), "type", "string");
	static const char *const GPUS[] = { "tegra2", "tegra3", NULL };
	cJSON_AddItemToObject(p, "gpu", enum_of(GPUS));
	const char *const maps[2][2] = { { "resources", "#/$defs/resource" }, { "shaders", "#/$defs/shader" } };
	for (int i = 0; i < 2; i++) {
		cJSON *m = cJSON_AddObjectToObject(p, maps[i][0]);
		cJSON_AddStringToObject(m, "type", "object");
		cJSON_AddItemToObject(m, "propertyNames", string_pattern(ID_PATTERN));
		cJSON_AddStringToObject(cJSON_AddObjectToObject(m, "additionalProperties"), "$ref", maps[i][1]);
	}
	cJSON *cmds = cJSON_AddObjectToObject(p, "commands");
	cJSON_AddStringToObject(cmds, "type", "array");
	cJSON *items = cJSON_AddObjectToObject(cmds, "items");
	cJSON *one = cJSON_AddArrayToObject(items, "oneOf");
	cJSON *req = cJSON_AddArrayToObject(root, "required");
	const char *const need[] = { "format", "version", "commands" };
	for (int i = 0; i < 3; i++)
		cJSON_AddItemToArray(req, cJSON_CreateString(need[i]));
	cJSON_AddBoolToObject(root, "additionalProperties", false);
	cJSON *defs = cJSON_AddObjectToObject(root, "$defs");
	cJSON_AddItemToObject(defs, "resource", resource_defs());
	cJSON_AddItemToObject(defs, "shader", shader_def());
	for (size_t i = 0; i < TRACE_NCOMMANDS; i++) {
		const command *k = &TRACE_COMMAND_TABLE[i];
		char name[64], ref[80];
		snprintf(name, sizeof name, "cmd_%s", k->name);
		snprintf(ref, sizeof ref, "#/$defs/%s", name);
		cJSON *def = object_of(k->fields, k->name);
		if (k->one_of)
			cJSON_AddItemToObject(def, "oneOf", required_each(k->one_of));
		if (k->any_of)
			cJSON_AddItemToObject(def, "anyOf", required_each(k->any_of));
		cJSON_AddItemToObject(defs, name, def);
		cJSON *r = cJSON_CreateObject();
		cJSON_AddStringToObject(r, "$ref", ref);
		cJSON_AddItemToArray(one, r);
	}
	char *s = cJSON_Print(root);
	cJSON_Delete(root);
	return s;
}

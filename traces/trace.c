/* Trace format (versions 1 and 2): loading and validation (docs/trace-format.md).
 * One table of commands and their fields drives the validation; the JSON
 * Schema in traces/schema/ states the same rules (tests/traces/test_trace.c keeps
 * the two in step). */
#include "traces/trace.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/fileio.h"
#include "base/json.h"
#include "traces/trace_int.h"


/* ORDER: enum trace_texfmt; the colour formats come first (TRACE_E_CBUFFMT) */
const char *const TRACE_E_TEXFMT[] = { "RGBA8888", "BGRA8888", "RGB565", "A8", "L8", "D16", NULL };
const char *const TRACE_E_CBUFFMT[] = { "RGBA8888", "BGRA8888", "RGB565", "A8", NULL };
const char *const TRACE_E_TARGET[] = { "1D", "2D", "3D", NULL };
static const char *const E_ZSFMT[] = { "D16", "D24S8", NULL };
/* ORDER: lower-left (version 1's rows, the default) first */
static const char *const E_ORIGIN[] = { "lower-left", "upper-left", NULL };
const char *const TRACE_E_STAGE[] = { "vertex", "geometry", "fragment", NULL };
static const char *const E_VFMT[] = { "R32_FLOAT", "R32G32_FLOAT", "R32G32B32_FLOAT",
	"R32G32B32A32_FLOAT", "R8G8B8A8_UNORM", NULL };
static const char *const E_BLENDFUNC[] = { "add", "subtract", "reverse_subtract", "min", "max", NULL };
static const char *const E_BLENDFACTOR[] = { "one", "zero", "src_color", "src_alpha", "dst_color",
	"dst_alpha", "inv_src_color", "inv_src_alpha", "inv_dst_color", "inv_dst_alpha", "src_alpha_saturate",
	"const_color", "inv_const_color", "const_alpha", "inv_const_alpha", NULL };
static const char *const E_FUNC[] = { "never", "less", "equal", "lequal", "greater", "notequal",
	"gequal", "always", NULL };
static const char *const E_STENCILOP[] = { "keep", "zero", "replace", "incr", "decr", "invert", NULL };
static const char *const E_CULL[] = { "none", "front", "back", NULL };
static const char *const E_FILTER[] = { "nearest", "linear", NULL };
static const char *const E_WRAP[] = { "repeat", "clamp", "mirror", NULL };
static const char *const E_MIPFILTER[] = { "none", "nearest", "linear", NULL };
static const char *const E_COMPARE_MODE[] = { "none", "ref_to_texture", NULL };
static const char *const E_MODE[] = { "points", "lines", "line_strip", "triangles", "triangle_strip",
	"triangle_fan", NULL };

static const field CBUF[] = { { "format", F_ENUM, true, 0, 0, TRACE_E_CBUFFMT, NULL }, END_FIELDS };
static const field ZSBUF[] = { { "format", F_ENUM, true, 0, 0, E_ZSFMT, NULL }, END_FIELDS };
static const field ELEMENT[] = {
	{ "buffer", F_ID_BUF, true, 0, 0, NULL, NULL },
	{ "offset", F_INT, false, 0, 1 << 30, NULL, NULL },
	{ "stride", F_INT, false, 0, 4096, NULL, NULL },
	{ "format", F_ENUM, true, 0, 0, E_VFMT, NULL },
	END_FIELDS,
};
static const field DEPTH[] = {
	{ "enabled", F_BOOL, true, 0, 0, NULL, NULL },
	{ "writemask", F_BOOL, false, 0, 0, NULL, NULL },
	{ "func", F_ENUM, false, 0, 0, E_FUNC, NULL },
	END_FIELDS,
};
static const field STENCIL[] = {
	{ "enabled", F_BOOL, true, 0, 0, NULL, NULL },
	{ "func", F_ENUM, false, 0, 0, E_FUNC, NULL },
	{ "ref", F_INT, false, 0, 255, NULL, NULL },
	{ "valuemask", F_INT, false, 0, 255, NULL, NULL },
	{ "writemask", F_INT, false, 0, 255, NULL, NULL },
	{ "fail_op", F_ENUM, false, 0, 0, E_STENCILOP, NULL },
	{ "zfail_op", F_ENUM, false, 0, 0, E_STENCILOP, NULL },
	{ "zpass_op", F_ENUM, false, 0, 0, E_STENCILOP, NULL },
	END_FIELDS,
};

static const field C_FRAMEBUFFER[] = {
	{ "width", F_INT, true, 1, 4096, NULL, NULL },
	{ "height", F_INT, true, 1, 4096, NULL, NULL },
	{ "cbufs", F_OBJ_ARRAY, true, 0, 8, NULL, CBUF },
	{ "zsbuf", F_OBJ, false, 0, 0, NULL, ZSBUF },
	{ "origin", F_ENUM, false, 0, 0, E_ORIGIN, NULL },     /* version 2 */
	END_FIELDS,
};
static const field C_BIND_SHADERS[] = {
	{ "vs", F_ID_SHADER, true, 0, 0, NULL, NULL },
	{ "fs", F_ID_SHADER, true, 0, 0, NULL, NULL },
	{ "gs", F_ID_SHADER, false, 0, 0, NULL, NULL },
	END_FIELDS,
};
static const field C_VERTEX_ELEMENTS[] = {
	{ "elements", F_OBJ_ARRAY, true, 1, 16, NULL, ELEMENT },
	END_FIELDS,
};
static const field C_CONSTANT_BUFFER[] = {
	{ "stage", F_ENUM, true, 0, 0, TRACE_E_STAGE, NULL },
	{ "index", F_INT, true, 0, 15, NULL, NULL },
	{ "f32", F_F32_ARRAY, false, 4, 4096 * 4, NULL, NULL },
	{ "buffer", F_ID_BUF, false, 0, 0, NULL, NULL },
	END_FIELDS,
};
static const field C_BLEND[] = {
	{ "enable", F_BOOL, true, 0, 0, NULL, NULL },
	{ "rgb_func", F_ENUM, false, 0, 0, E_BLENDFUNC, NULL },
	{ "rgb_src", F_ENUM, false, 0, 0, E_BLENDFACTOR, NULL },
	{ "rgb_dst", F_ENUM, false, 0, 0, E_BLENDFACTOR, NULL },
	{ "alpha_func", F_ENUM, false, 0, 0, E_BLENDFUNC, NULL },
	{ "alpha_src", F_ENUM, false, 0, 0, E_BLENDFACTOR, NULL },
	{ "alpha_dst", F_ENUM, false, 0, 0, E_BLENDFACTOR, NULL },
	{ "colormask", F_INT, false, 0, 15, NULL, NULL },
	{ "color", F_COLOR, false, 0, 0, NULL, NULL },      /* the blend colour (pipe_blend_color) */
	END_FIELDS,
};
static const field C_DSA[] = {
	{ "depth", F_OBJ, true, 0, 0, NULL, DEPTH },
	{ "stencil", F_OBJ, false, 0, 0, NULL, STENCIL },
	{ "stencil_back", F_OBJ, false, 0, 0, NULL, STENCIL },   /* two-sided: the back faces' */
	END_FIELDS,
};
static const field C_RASTERIZER[] = {
	{ "cull", F_ENUM, false, 0, 0, E_CULL, NULL },
	{ "front_ccw", F_BOOL, false, 0, 0, NULL, NULL },
	{ "scissor", F_BOOL, false, 0, 0, NULL, NULL },
	{ "flatshade", F_BOOL, false, 0, 0, NULL, NULL },
	{ "two_side", F_BOOL, false, 0, 0, NULL, NULL },
	{ "clip_plane_enable", F_INT, false, 0, 255, NULL, NULL },
	END_FIELDS,
};
static const field C_CLIP[] = {
	{ "planes", F_F32_ARRAY, true, 4, 8 * 4, NULL, NULL },
	END_FIELDS,
};
/* window coordinates: framebuffers are at most 4096 wide, so +-65536 leaves
 * a wide guard band and keeps every position inside int range */
static const field C_VIEWPORT[] = {
	{ "scale", F_VEC3, true, -TRACE_MAX_WINDOW, TRACE_MAX_WINDOW, NULL, NULL },
	{ "translate", F_VEC3, true, -TRACE_MAX_WINDOW, TRACE_MAX_WINDOW, NULL, NULL },
	END_FIELDS,
};
static const field C_SCISSOR[] = {
	{ "minx", F_INT, true, 0, 4096, NULL, NULL },
	{ "miny", F_INT, true, 0, 4096, NULL, NULL },
	{ "maxx", F_INT, true, 0, 4096, NULL, NULL },
	{ "maxy", F_INT, true, 0, 4096, NULL, NULL },
	END_FIELDS,
};
static const field C_SAMPLER[] = {
	{ "index", F_INT, true, 0, 15, NULL, NULL },
	{ "filter", F_ENUM, false, 0, 0, E_FILTER, NULL },
	{ "min_filter", F_ENUM, false, 0, 0, E_FILTER, NULL },
	{ "mag_filter", F_ENUM, false, 0, 0, E_FILTER, NULL },
	{ "mip_filter", F_ENUM, false, 0, 0, E_MIPFILTER, NULL },
	{ "wrap", F_ENUM, false, 0, 0, E_WRAP, NULL },
	{ "wrap_s", F_ENUM, false, 0, 0, E_WRAP, NULL },
	{ "wrap_t", F_ENUM, false, 0, 0, E_WRAP, NULL },
	{ "compare_mode", F_ENUM, false, 0, 0, E_COMPARE_MODE, NULL },
	{ "compare_func", F_ENUM, false, 0, 0, E_FUNC, NULL },
	{ "lod_bias", F_NUM, false, -16, 16, NULL, NULL },
	END_FIELDS,
};
static const field C_SAMPLER_VIEW[] = {
	{ "index", F_INT, true, 0, 15, NULL, NULL },
	{ "resource", F_ID_TEX, true, 0, 0, NULL, NULL },
	{ "swizzle", F_SWIZZLE, false, 0, 0, NULL, NULL },
	END_FIELDS,
};
static const field C_CLEAR[] = {
	{ "color", F_COLOR, false, 0, 0, NULL, NULL },
	{ "depth", F_NUM, false, 0, 1, NULL, NULL },
	{ "stencil", F_INT, false, 0, 255, NULL, NULL },
	END_FIELDS,
};
static const field C_DRAW[] = {
	{ "mode", F_ENUM, true, 0, 0, E_MODE, NULL },
	{ "start", F_INT, false, 0, 1 << 30, NULL, NULL },
	{ "count", F_INT, true, 0, 1 << 24, NULL, NULL },
	{ "index_buffer", F_ID_BUF, false, 0, 0, NULL, NULL },
	{ "index_size", F_INT, false, 1, 4, NULL, NULL },
	END_FIELDS,
};
static const field C_REGISTERS[] = {
	{ "pica", F_PICA_WRITES, false, 0, 0, NULL, NULL },
	{ "gr3d", F_GR3D_WRITES, false, 0, 0, NULL, NULL },
	END_FIELDS,
};
static const field C_CHECKPOINT[] = {
	{ "name", F_STR, true, 0, 0, NULL, NULL },
	{ "expect_image", F_FILE, false, 0, 0, NULL, NULL },
	{ "tolerance", F_INT, false, 0, 255, NULL, NULL },
	{ "expect_cycles", F_CYCLES, false, 0, 0, NULL, NULL },
	END_FIELDS,
};

/* version 2 (docs/trace-format.md "Version 2"): what a capture needs */
static const field C_UPDATE[] = {
	{ "resource", F_ID_RES, true, 0, 0, NULL, NULL },
	{ "from", F_ID_RES, true, 0, 0, NULL, NULL },
	END_FIELDS,
};
static const field C_WRITE_TARGET[] = {
	{ "cbuf", F_INT, false, 0, 7, NULL, NULL },
	{ "zs", F_BOOL, false, 0, 0, NULL, NULL },
	{ "resource", F_ID_TEX, true, 0, 0, NULL, NULL },
	END_FIELDS,
};

static const char *const ONE_OF_CBUF[] = { "f32", "buffer", NULL };
static const char *const ANY_OF_REGS[] = { "pica", "gr3d", NULL };
static const char *const ANY_OF_CLEAR[] = { "color", "depth", "stencil", NULL };
static const char *const ONE_OF_TARGET[] = { "cbuf", "zs", NULL };

/* ORDER: TRACE_COMMANDS follows this table. */
const command TRACE_COMMAND_TABLE[] = {
	{ "framebuffer", C_FRAMEBUFFER, NULL, NULL },
	{ "bind_shaders", C_BIND_SHADERS, NULL, NULL },
	{ "vertex_elements", C_VERTEX_ELEMENTS, NULL, NULL },
	{ "constant_buffer", C_CONSTANT_BUFFER, ONE_OF_CBUF, NULL },
	{ "blend", C_BLEND, NULL, NULL },
	{ "depth_stencil_alpha", C_DSA, NULL, NULL },
	{ "rasterizer", C_RASTERIZER, NULL, NULL },
	{ "clip", C_CLIP, NULL, NULL },
	{ "viewport", C_VIEWPORT, NULL, NULL },
	{ "scissor", C_SCISSOR, NULL, NULL },
	{ "sampler", C_SAMPLER, NULL, NULL },
	{ "sampler_view", C_SAMPLER_VIEW, NULL, NULL },
	{ "clear", C_CLEAR, NULL, ANY_OF_CLEAR },
	{ "draw", C_DRAW, NULL, NULL },
	{ "registers", C_REGISTERS, NULL, ANY_OF_REGS },
	{ "checkpoint", C_CHECKPOINT, NULL, NULL },
	{ "update", C_UPDATE, NULL, NULL },
	{ "write_target", C_WRITE_TARGET, ONE_OF_TARGET, NULL },
};
const size_t TRACE_NCOMMANDS = sizeof TRACE_COMMAND_TABLE / sizeof TRACE_COMMAND_TABLE[0];

const char *const TRACE_COMMANDS[] = {
	"framebuffer", "bind_shaders", "vertex_elements", "constant_buffer", "blend",
	"depth_stencil_alpha", "rasterizer", "clip", "viewport", "scissor", "sampler", "sampler_view",
	"clear", "draw", "registers", "checkpoint", "update", "write_target", NULL,
};

/* ---- helpers ---- */

bool trace_err(trace_ctx *c, const char *path, const char *fmt, ...)
{
	char msg[ULP_DIAG_MSG_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return ulp_diag_at(c->d, c->file, 0, 0, "%s: %s", path, msg);
}

bool trace_is_int(const cJSON *v) { return cJSON_IsNumber(v) && v->valuedouble == floor(v->valuedouble); }

bool trace_valid_id(const char *s)
{
	size_t n = strlen(s);
	if (n < 1 || n > 63)
		return false;
	for (size_t i = 0; i < n; i++) {
		char ch = s[i];
		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
		      ch == '_' || ch == '.' || ch == '-'))
			return false;
	}
	return true;
}

int trace_enum_index(const char *const *names, const char *s)
{
	for (int i = 0; names[i]; i++)
		if (strcmp(names[i], s) == 0)
			return i;
	return -1;
}

static bool check_fields(trace_ctx *c, const cJSON *obj, const field *fields, const char *path);

bool trace_check_value(trace_ctx *c, const cJSON *v, const field *f, const char *path)
{
	char sub[256];
	switch (f->kind) {
	case F_INT:
		if (!trace_is_int(v) || v->valuedouble < f->lo || v->valuedouble > f->hi) {
			char range[64];
			snprintf(range, sizeof range, "%.0f..%.0f", f->lo, f->hi);
			return trace_err(c, path, "expected an integer in %s", range);
		}
		return true;
	case F_NUM:
		if (!cJSON_IsNumber(v) || v->valuedouble < f->lo || v->valuedouble > f->hi)
			return trace_err(c, path, "expected a number in range%s", "");
		return true;
	case F_BOOL:
		return cJSON_IsBool(v) || trace_err(c, path, "expected true or false%s", "");
	case F_STR:
		return (cJSON_IsString(v) && v->valuestring[0]) || trace_err(c, path, "expected a string%s", "");
	case F_ENUM: {
		if (!cJSON_IsString(v) || trace_enum_index(f->enums, v->valuestring) < 0) {
			char opts[512] = "";
			for (int i = 0; f->enums[i]; i++) {
				strncat(opts, i ? ", " : "", sizeof opts - strlen(opts) - 1);
				strncat(opts, f->enums[i], sizeof opts - strlen(opts) - 1);
			}
			return trace_err(c, path, "expected one of %s", opts);
		}
		return true;
	}
	case F_COLOR: case F_VEC3: {
		int n = f->kind == F_COLOR ? 4 : 3;
		bool ok = cJSON_IsArray(v) && cJSON_GetArraySize(v) == n;
		const double lo = f->kind == F_COLOR ? 0 : f->lo, hi = f->kind == F_COLOR ? 1 : f->hi;
		for (int i = 0; ok && i < n; i++) {
			const cJSON *x = cJSON_GetArrayItem(v, i);
			ok = cJSON_IsNumber(x) && x->valuedouble >= lo && x->valuedouble <= hi;
		}
		if (ok)
			return true;
		if (f->kind == F_COLOR)
			return trace_err(c, path, "expected [r, g, b, a] in 0..1%s", "");
		char range[64];
		snprintf(range, sizeof range, "%g..%g", lo, hi);
		return trace_err(c, path, "expected 3 numbers in %s", range);
	}
	case F_FILE:
		if (!cJSON_IsString(v) || !v->valuestring[0])
			return trace_err(c, path, "expected a file name%s", "");
		return trace_file_check(c, v->valuestring, path);
	case F_CYCLES: {
		if (trace_is_int(v) && v->valuedouble >= 0)
			return true;
		unsigned long long n;
		double pct;
		char tail;
		if (cJSON_IsString(v) &&
		    (sscanf(v->valuestring, "%llu\xC2\xB1%lf%%%c", &n, &pct, &tail) == 2 ||
		     sscanf(v->valuestring, "%llu+-%lf%%%c", &n, &pct, &tail) == 2) && pct >= 0)
			return true;
		return trace_err(c, path, "expected an integer or \"N\xC2\xB1P%%\"%s", "");
	}
	case F_SWIZZLE: {
		bool ok = cJSON_IsString(v) && strlen(v->valuestring) == 4;
		for (int i = 0; ok && i < 4; i++)
			ok = strchr("rgba01", v->valuestring[i]) != NULL;
		return ok || trace_err(c, path, "expected 4 of r, g, b, a, 0, 1 (e.g. \"rrr1\")%s", "");
	}
	case F_ID_SHADER:
		if (!cJSON_IsString(v) || !trace_find_shader(c->t, v->valuestring))
			return trace_err(c, path, "no shader named '%s'", cJSON_IsString(v) ? v->valuestring : "?");
		return true;
	case F_ID_RES:
		if (!cJSON_IsString(v) || !trace_find_resource(c->t, v->valuestring))
			return trace_err(c, path, "no resource named '%s'", cJSON_IsString(v) ? v->valuestring : "?");
		return true;
	case F_ID_BUF: case F_ID_TEX: {
		const trace_resource *r = cJSON_IsString(v) ? trace_find_resource(c->t, v->valuestring) : NULL;
		enum trace_res_type want = f->kind == F_ID_BUF ? TRACE_BUFFER : TRACE_TEXTURE;
		if (!r || r->type != want)
			return trace_err(c, path, want == TRACE_BUFFER ? "no buffer named '%s'" : "no texture named '%s'",
			           cJSON_IsString(v) ? v->valuestring : "?");
		return true;
	}
	case F_OBJ:
		return cJSON_IsObject(v) ? check_fields(c, v, f->sub, path)
		                         : trace_err(c, path, "expected an object%s", "");
	case F_OBJ_ARRAY: {
		int n = cJSON_IsArray(v) ? cJSON_GetArraySize(v) : -1;
		if (n < f->lo || n > f->hi) {
			char range[64];
			snprintf(range, sizeof range, "%.0f to %.0f", f->lo, f->hi);
			return trace_err(c, path, "expected an array of %s objects", range);
		}
		for (int i = 0; i < n; i++) {
			snprintf(sub, sizeof sub, "%s[%d]", path, i);
			const cJSON *it = cJSON_GetArrayItem(v, i);
			if (!cJSON_IsObject(it))
				return trace_err(c, sub, "expected an object%s", "");
			if (!check_fields(c, it, f->sub, sub))
				return false;
		}
		return true;
	}
	case F_F32_ARRAY: {
		int n = cJSON_IsArray(v) ? cJSON_GetArraySize(v) : -1;
		if (n < f->lo || n > f->hi || n % 4)
			return trace_err(c, path, "expected a non-empty array of numbers, a multiple of 4 long%s", "");
		int i = 0;
		for (const cJSON *x = v->child; x; x = x->next, i++)    /* one walk: GetArrayItem is O(i) */
			if (!cJSON_IsNumber(x)) {
				snprintf(sub, sizeof sub, "%s[%d]", path, i);
				return trace_err(c, sub, "expected a number%s", "");
			}
		return true;             /* finite and in f32 range: check_values */
	}
	case F_PICA_WRITES: case F_GR3D_WRITES: {
		const bool pica = f->kind == F_PICA_WRITES;
		if (!cJSON_IsArray(v))
			return trace_err(c, path, "expected an array of register writes%s", "");
		int i = 0;
		for (const cJSON *w = v->child; w; w = w->next, i++) {    /* one walk, the path only on error */
			const int want = pica ? 3 : 2;
			const char *why = NULL;
			if (!cJSON_IsArray(w) || cJSON_GetArraySize(w) != want) {
				why = pica ? "expected [reg, mask, value]" : "expected [reg, value]";
			} else {
				const cJSON *reg = w->child, *m = reg->next, *val = pica ? m->next : m;
				if (!trace_is_int(reg) || reg->valuedouble < 0 || reg->valuedouble > (pica ? 0x2FF : 0xFFF))
					why = pica ? "register outside 0x000-0x2ff" : "register outside 0x000-0xfff";
				else if (pica && (!trace_is_int(m) || m->valuedouble < 0 || m->valuedouble > 15))
					why = "byte mask outside 0-15";
				else if (!trace_is_int(val) || val->valuedouble < 0 || val->valuedouble > 4294967295.0)
					why = "value is not a 32-bit unsigned integer";
			}
			if (why) {
				snprintf(sub, sizeof sub, "%s[%d]", path, i);
				return trace_err(c, sub, "%s", why);
			}
		}
		return true;
	}
	}
	return true;
}

static bool check_fields(trace_ctx *c, const cJSON *obj, const field *fields, const char *path)
{
	char sub[256];
	for (const cJSON *it = obj->child; it; it = it->next) {
		snprintf(sub, sizeof sub, "%s.%s", path, it->string);
		const field *f = fields;
		while (f->name && strcmp(f->name, it->string))
			f++;
		if (!f->name && strcmp(it->string, "cmd"))
			return trace_err(c, sub, "unknown field%s", "");
		if (f->name && !trace_check_value(c, it, f, sub))
			return false;
	}
	for (const field *f = fields; f->name; f++) {
		if (f->required && !cJSON_GetObjectItemCaseSensitive(obj, f->name)) {
			snprintf(sub, sizeof sub, "%s.%s", path, f->name);
			return trace_err(c, sub, "missing%s", "");
		}
	}
	return true;
}

unsigned trace_count_present(const cJSON *obj, const char *const *names)
{
	unsigned n = 0;
	for (int i = 0; names[i]; i++)
		n += cJSON_GetObjectItemCaseSensitive(obj, names[i]) != NULL;
	return n;
}

/* ---- the document ---- */

static bool check_command(trace_ctx *c, const cJSON *cmd, int i)
{
	char path[64];
	snprintf(path, sizeof path, "$.commands[%d]", i);
	if (!cJSON_IsObject(cmd))
		return trace_err(c, path, "expected an object%s", "");
	const cJSON *name = cJSON_GetObjectItemCaseSensitive(cmd, "cmd");
	if (!cJSON_IsString(name)) {
		char p2[80];
		snprintf(p2, sizeof p2, "%s.cmd", path);
		return trace_err(c, p2, "missing (a command name)%s", "");
	}
	const command *k = NULL;
	for (size_t j = 0; j < TRACE_NCOMMANDS && !k; j++)
		if (strcmp(TRACE_COMMAND_TABLE[j].name, name->valuestring) == 0)
			k = &TRACE_COMMAND_TABLE[j];
	if (!k) {
		char p2[80];
		snprintf(p2, sizeof p2, "%s.cmd", path);
		return trace_err(c, p2, "unknown command '%s'", name->valuestring);
	}
	if (!check_fields(c, cmd, k->fields, path))
		return false;
	if (k->one_of && trace_count_present(cmd, k->one_of) != 1)
		return trace_err(c, path, "%s: give exactly one of its data fields", k->name);
	if (k->any_of && trace_count_present(cmd, k->any_of) == 0)
		return trace_err(c, path, "%s: give at least one of its fields", k->name);
	return true;
}

static bool check_values(trace_ctx *c, const cJSON *v, char *path, size_t len, size_t cap, unsigned level);

bool trace_check_command(trace *t, const cJSON *cmd, size_t i, ulp_diag *d)
{
	trace_ctx c = { .t = t, .file = t->path, .d = d };
	char jpath[256];
	snprintf(jpath, sizeof jpath, "$.commands[%zu]", i);
	/* a command is at level 3 of a trace: $ (1), commands (2), the command */
	return check_values(&c, cmd, jpath, strlen(jpath), sizeof jpath, 3) && check_command(&c, cmd, (int)i);
}

/* One walk over the document checks two things, reporting the first value
 * in document order that fails either:
 *  - nesting: a container deeper than TRACE_MAX_DEPTH levels (the root is
 *    level 1) is refused (cJSON itself stops at CJSON_NESTING_LIMIT, 1000);
 *  - numbers: every number is finite and within the f32 range (JSON has no
 *    infinity, but 1e999 parses as one); fields check their own ranges on
 *    top.
 * path holds the JSON path of v (len bytes of cap); level is v's level. */
static bool check_values(trace_ctx *c, const cJSON *v, char *path, size_t len, size_t cap, unsigned level)
{
	if (cJSON_IsNumber(v)) {
		if (isfinite(v->valuedouble) && fabs(v->valuedouble) <= TRACE_MAX_NUMBER)
			return true;
		return trace_err(c, path, "%s: every number in a trace is finite and within +-3.4028235e38 "
		                 "(a bit pattern goes in a u32 buffer)", isfinite(v->valuedouble) ? "out of range" : "not finite");
	}
	if (v->child && level > TRACE_MAX_DEPTH)
		return trace_err(c, path, "nested more than %d levels deep (TRACE_MAX_DEPTH, docs/robustness.md)",
		                 TRACE_MAX_DEPTH);
	int i = 0;
	for (const cJSON *it = v->child; it; it = it->next, i++) {
		if (cJSON_IsNumber(it) && isfinite(it->valuedouble) && fabs(it->valuedouble) <= TRACE_MAX_NUMBER)
			continue;    /* the common case: no path to format (a texture is 10^5 of them) */
		int n = cJSON_IsArray(v) ? snprintf(path + len, cap - len, "[%d]", i)
		                         : snprintf(path + len, cap - len, ".%s", it->string ? it->string : "?");
		size_t nl = n > 0 && (size_t)n < cap - len ? len + (size_t)n : cap - 1;
		if (!check_values(c, it, path, nl, cap, level + 1))
			return false;
		path[len] = 0;
	}
	return true;
}

bool trace_parse(trace *t, const char *json, const char *path, const char *dir, ulp_diag *d)
{
	return trace_parse_with(t, json, path, dir, NULL, d);
}

bool trace_parse_with(trace *t, const char *json, const char *path, const char *dir, const trace_load_opts *o,
                      ulp_diag *d)
{
	memset(t, 0, sizeof *t);
	if (o)
		t->opts = *o;
	if (!t->opts.max_file_bytes)
		t->opts.max_file_bytes = TRACE_MAX_FILE_BYTES;
	t->path = strdup(path ? path : "");
	t->dir = strdup(dir ? dir : "");
	trace_ctx c = { .t = t, .file = path, .d = d };
	if (!t->path || !t->dir)
		return ulp_diag_at(d, path, 0, 0, "out of memory");
	t->root = ulp_json_parse(json, path, d);
	if (!t->root)
		return false;
	const cJSON *root = t->root;
	if (!cJSON_IsObject(root))
		return trace_err(&c, "$", "expected an object%s", "");
	char jpath[256] = "$";
	if (!check_values(&c, root, jpath, 1, sizeof jpath, 1))
		return false;
	static const char *const TOP[] = { "format", "version", "name", "gpu", "resources", "shaders",
		"commands", NULL };
	for (const cJSON *it = root->child; it; it = it->next) {
		if (trace_enum_index(TOP, it->string) < 0) {
			char p[96];
			snprintf(p, sizeof p, "$.%s", it->string);
			return trace_err(&c, p, "unknown field%s", "");
		}
	}
	const cJSON *fmt = cJSON_GetObjectItemCaseSensitive(root, "format");
	if (!cJSON_IsString(fmt) || strcmp(fmt->valuestring, "ulpsim-trace"))
		return trace_err(&c, "$.format", "expected \"ulpsim-trace\"%s", "");
	const cJSON *ver = cJSON_GetObjectItemCaseSensitive(root, "version");
	if (trace_is_int(ver) && ver->valuedouble > TRACE_VERSION)
		return trace_err(&c, "$.version", "version %.0f of the format is newer than this ulpsim reads "
		                 "(1 to " TRACE_VERSION_S "): a newer ulpsim wrote it", ver->valuedouble);
	if (!trace_is_int(ver) || ver->valuedouble < 1)
		return trace_err(&c, "$.version", "expected 1 to " TRACE_VERSION_S " (the format's version)%s", "");
	t->version = (unsigned)ver->valuedouble;
	const cJSON *name = cJSON_GetObjectItemCaseSensitive(root, "name");
	if (name && !cJSON_IsString(name))
		return trace_err(&c, "$.name", "expected a string%s", "");
	snprintf(t->name, sizeof t->name, "%s", name ? name->valuestring : "");
	const cJSON *gpu = cJSON_GetObjectItemCaseSensitive(root, "gpu");
	static const char *const GPUS[] = { "tegra2", "tegra3", NULL };
	if (gpu && (!cJSON_IsString(gpu) || trace_enum_index(GPUS, gpu->valuestring) < 0))
		return trace_err(&c, "$.gpu", "expected \"tegra2\" or \"tegra3\"%s", "");
	snprintf(t->gpu, sizeof t->gpu, "%s", gpu ? gpu->valuestring : "tegra2");
	if (!trace_load_resources(&c, cJSON_GetObjectItemCaseSensitive(root, "resources")) ||
	    !trace_load_shaders(&c, cJSON_GetObjectItemCaseSensitive(root, "shaders")))
		return false;
	const cJSON *cmds = cJSON_GetObjectItemCaseSensitive(root, "commands");
	if (!cJSON_IsArray(cmds))
		return trace_err(&c, "$.commands", "expected an array of commands%s", "");
	int n = cJSON_GetArraySize(cmds);
	if (n > TRACE_MAX_COMMANDS)
		return trace_err(&c, "$.commands", "%d commands; at most %d (TRACE_MAX_COMMANDS, "
		                 "docs/robustness.md)", n, TRACE_MAX_COMMANDS);
	t->cmd = calloc(n ? (size_t)n : 1, sizeof *t->cmd);
	if (!t->cmd)
		return ulp_diag_at(d, path, 0, 0, "out of memory");
	int i = 0;
	for (const cJSON *it = cmds->child; it; it = it->next, i++) {
		if (!check_command(&c, it, i))
			return false;
		const char *cname = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(it, "cmd"));
		if (t->version < 2 && (!strcmp(cname, "update") || !strcmp(cname, "write_target"))) {
			char p2[80];
			snprintf(p2, sizeof p2, "$.commands[%d].cmd", i);
			return trace_err(&c, p2, "'%s' is a command of version 2 of the format: say \"version\": 2", cname);
		}
		if (t->version < 2 && !strcmp(cname, "framebuffer") && cJSON_GetObjectItemCaseSensitive(it, "origin")) {
			char p2[80];
			snprintf(p2, sizeof p2, "$.commands[%d].origin", i);
			return trace_err(&c, p2, "'origin' is a field of version 2 of the format: say \"version\": 2%s", "");
		}
		t->cmd[t->ncmd++] = it;
	}
	return true;
}

bool trace_load(trace *t, const char *path, ulp_diag *d)
{
	return trace_load_with(t, path, NULL, d);
}

bool trace_load_with(trace *t, const char *path, const trace_load_opts *o, ulp_diag *d)
{
	struct stat sb;
	if (stat(path, &sb) == 0 && S_ISREG(sb.st_mode) && (uint64_t)sb.st_size > TRACE_MAX_FILE_BYTES) {
		memset(t, 0, sizeof *t);
		return ulp_diag_at(d, path, 0, 0, "the trace is %llu bytes; at most %zu MiB "
		                   "(TRACE_MAX_FILE_BYTES, docs/robustness.md)",
		                   (unsigned long long)sb.st_size, TRACE_MAX_FILE_BYTES >> 20);
	}
	char *text = ulp_read_file(path, NULL, d);
	if (!text) {
		memset(t, 0, sizeof *t);
		return false;
	}
	char *dir = strdup(path);
	char *slash = dir ? strrchr(dir, '/') : NULL;
	if (dir)
		*(slash ? slash : dir) = '\0';
	bool ok = trace_parse_with(t, text, path, dir ? dir : "", o, d);
	free(dir);
	free(text);
	return ok;
}

void trace_free(trace *t)
{
	for (size_t i = 0; i < t->nres; i++)
		free(t->res[i].bytes);
	for (size_t i = 0; i < t->nsh; i++) {
		free(t->sh[i].text);
		free(t->sh[i].path);
	}
	free(t->res);
	free(t->sh);
	free(t->cmd);
	cJSON_Delete(t->root);
	free(t->path);
	free(t->dir);
	memset(t, 0, sizeof *t);
}

const trace_resource *trace_find_resource(const trace *t, const char *id)
{
	for (size_t i = 0; i < t->nres; i++)
		if (strcmp(t->res[i].id, id) == 0)
			return &t->res[i];
	return NULL;
}

const trace_shader *trace_find_shader(const trace *t, const char *id)
{
	for (size_t i = 0; i < t->nsh; i++)
		if (strcmp(t->sh[i].id, id) == 0)
			return &t->sh[i];
	return NULL;
}

unsigned trace_texfmt_bpp(enum trace_texfmt f)
{
	return (f == TRACE_RGB565 || f == TRACE_D16) ? 2 : (f == TRACE_A8 || f == TRACE_L8) ? 1 : 4;
}

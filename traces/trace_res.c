/* Trace format v1: resources (buffers, textures) and shaders. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/fileio.h"
#include "base/image.h"
#include "traces/trace_data.h"
#include "traces/trace_int.h"

/* ---- resources and shaders ---- */

/* The texel bytes of one RGBA8 pixel in a texture format (little-endian). */
static unsigned pack_texel(enum trace_texfmt f, const uint8_t rgba[4], uint8_t out[4])
{
	switch (f) {
	case TRACE_RGBA8888: memcpy(out, rgba, 4); return 4;
	case TRACE_BGRA8888: out[0] = rgba[2], out[1] = rgba[1], out[2] = rgba[0], out[3] = rgba[3]; return 4;
	case TRACE_RGB565: {
		unsigned v = (unsigned)(rgba[0] * 31 + 127) / 255 << 11 |
		             (unsigned)(rgba[1] * 63 + 127) / 255 << 5 | (unsigned)(rgba[2] * 31 + 127) / 255;
		out[0] = (uint8_t)v, out[1] = (uint8_t)(v >> 8);
		return 2;
	}
	case TRACE_A8: out[0] = rgba[3]; return 1;
	case TRACE_D16: out[0] = rgba[0], out[1] = rgba[0]; return 2;   /* red * 257 */
	default: out[0] = rgba[0]; return 1;       /* L8 */
	}
}

static bool only_fields(trace_ctx *c, const cJSON *obj, const char *const *allowed, const char *path)
{
	char sub[224];
	for (const cJSON *it = obj->child; it; it = it->next) {
		if (trace_enum_index(allowed, it->string) < 0) {
			snprintf(sub, sizeof sub, "%s.%s", path, it->string);
			return trace_err(c, sub, "unknown field%s", "");
		}
	}
	return true;
}

/* Whether obj has only the fields other (NULL-terminated) and the data forms
 * of a buffer or a texture (trace_data.h). */
static bool only_data_fields(trace_ctx *c, const cJSON *obj, bool texture, const char *const *other,
                             const char *path)
{
	char sub[224];
	for (const cJSON *it = obj->child; it; it = it->next) {
		if (trace_enum_index(other, it->string) < 0 && !trace_data_form_named(it->string, texture)) {
			snprintf(sub, sizeof sub, "%s.%s", path, it->string);
			return trace_err(c, sub, "unknown field%s", "");
		}
	}
	return true;
}

static bool load_buffer(trace_ctx *c, const cJSON *o, trace_resource *r, const char *path)
{
	static const char *const OTHER[] = { "type", "size", NULL };
	const trace_data_form *f;
	if (!only_data_fields(c, o, false, OTHER, path) || !trace_data_pick(c, o, false, path, &f))
		return false;
	char sub[160];
	const cJSON *size = cJSON_GetObjectItemCaseSensitive(o, "size");   /* version 2: the file's bytes */
	snprintf(sub, sizeof sub, "%s.size", path);
	if (size && c->t->version == 1)
		return trace_err(c, sub, "a field of version 2 of the format: say \"version\": 2%s", "");
	if (size && (f->kind != TD_FILE || !trace_is_int(size) || size->valuedouble < 0 ||
	             size->valuedouble > (double)TRACE_MAX_FILE_BYTES))
		return trace_err(c, sub, "expected the byte count of the buffer's file (with \"file\" only)%s", "");
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, f->name);
	snprintf(sub, sizeof sub, "%s.%s", path, f->name);
	if (f->kind != TD_FILE) {            /* inline: an array, hex or base64 */
		if (!trace_data_size(c, v, f, sub, &r->len))
			return false;
		r->bytes = malloc(r->len ? r->len : 1);
		if (!r->bytes)
			return trace_err(c, sub, "out of memory%s", "");
		return trace_data_decode(c, v, f, sub, r->bytes);
	}
	if (!cJSON_IsString(v))
		return trace_err(c, sub, "expected a file name%s", "");
	r->bytes = trace_read_side_file(c, v->valuestring, sub, &r->len);
	if (!r->bytes)
		return false;
	if (size && r->len != (size_t)size->valuedouble)
		return trace_err(c, sub, "'%s' is %zu bytes; the trace says %.0f (truncated or replaced?)",
		                 v->valuestring, r->len, size->valuedouble);
	return true;
}

/* One level's texels from exactly one of its data forms in o (trace_data.h),
 * into out (w x h texels of r->format). */
static bool load_level(trace_ctx *c, const cJSON *o, const trace_resource *r, uint32_t w, uint32_t h,
                       uint8_t *out, const char *path)
{
	static const field FILL = { "fill", F_COLOR, true, 0, 0, NULL, NULL };
	char sub[192];
	const trace_data_form *f;
	if (!trace_data_pick(c, o, true, path, &f))
		return false;
	const unsigned bpp = trace_texfmt_bpp(r->format);
	const size_t len = (size_t)w * h * bpp;
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, f->name);
	snprintf(sub, sizeof sub, "%s.%s", path, f->name);
	if (f->kind == TD_FILE) {    /* version 2: the level's texels as raw bytes, row-major */
		if (!cJSON_IsString(v))
			return trace_err(c, sub, "expected a file name%s", "");
		size_t got = 0;
		uint8_t *bytes = trace_read_side_file(c, v->valuestring, sub, &got);
		if (!bytes)
			return false;
		if (got != len) {
			free(bytes);
			return trace_err(c, sub, "'%s' is %zu bytes; this level's texels take %zu (truncated?)",
			                 v->valuestring, got, len);
		}
		memcpy(out, bytes, len);
		free(bytes);
		return true;
	}
	if (f->kind == TD_U8 || f->kind == TD_U16 || f->kind == TD_HEX || f->kind == TD_B64) {
		if (f->kind == TD_U16 && bpp != 2)
			return trace_err(c, sub, "u16 texels are for the 16-bit formats RGB565 and D16%s", "");
		size_t got = 0;
		if (!trace_data_size(c, v, f, sub, &got))
			return false;
		if (got != len) {
			if (f->kind == TD_U8)
				return trace_err(c, sub, "expected width * height * bytes-per-texel = %zu bytes", len);
			if (f->kind == TD_U16)
				return trace_err(c, sub, "expected width * height = %zu values", len / 2);
			return trace_err(c, sub, "%zu bytes; this level's texels take width * height * bytes-per-texel = %zu",
			                 got, len);
		}
		return trace_data_decode(c, v, f, sub, out);
	}
	const cJSON *fill = v;
	if (f->kind == TD_FILL) {
		if (!trace_check_value(c, fill, &FILL, sub))
			return false;
		uint8_t rgba[4], texel[4];
		for (int k = 0; k < 4; k++)
			rgba[k] = (uint8_t)lround(cJSON_GetArrayItem(fill, k)->valuedouble * 255.0);
		pack_texel(r->format, rgba, texel);
		if (r->format == TRACE_D16) {          /* the depth at 16 bits, not through 8 */
			long d = lround(cJSON_GetArrayItem(fill, 0)->valuedouble * 65535.0);
			texel[0] = (uint8_t)d, texel[1] = (uint8_t)(d >> 8);
		}
		for (size_t i = 0; i < len; i += bpp)
			memcpy(out + i, texel, bpp);
		return true;
	}
	const cJSON *png = v;         /* TD_PNG */
	if (!cJSON_IsString(png))
		return trace_err(c, sub, "expected a PNG file name%s", "");
	char *full = trace_resolve(c, png->valuestring, sub);
	if (!full)
		return false;
	ulp_diag inner;
	ulp_diag_clear(&inner);
	ulp_image *img = ulp_image_load_png(full, &inner);
	free(full);
	if (!img)
		return trace_err(c, sub, "cannot load '%s' as a PNG", png->valuestring);
	bool ok = img->width == w && img->height == h;
	for (uint32_t y = 0; ok && y < h; y++)
		for (uint32_t x = 0; x < w; x++)
			pack_texel(r->format, ulp_image_cpx(img, x, y), out + ((size_t)y * w + x) * bpp);
	ulp_image_free(img);
	if (!ok) {
		char want[64];
		snprintf(want, sizeof want, "%u x %u", w, h);
		return trace_err(c, sub, "the PNG's size differs from this level's %s", want);
	}
	return true;
}

static bool load_texture(trace_ctx *c, const cJSON *o, trace_resource *r, const char *path)
{
	static const char *const OTHER[] = { "type", "format", "target", "width", "height", "levels", NULL };
	static const char *const LEVEL_OTHER[] = { NULL };
	static const field FMT = { "format", F_ENUM, true, 0, 0, TRACE_E_TEXFMT, NULL };
	static const field TARGET = { "target", F_ENUM, false, 0, 0, TRACE_E_TARGET, NULL };
	static const field DIM = { "width", F_INT, true, 1, 4096, NULL, NULL };
	if (!only_data_fields(c, o, true, OTHER, path))
		return false;
	char sub[160];
	const char *const need[] = { "format", "width", "height" };
	for (int k = 0; k < 3; k++) {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, need[k]);
		snprintf(sub, sizeof sub, "%s.%s", path, need[k]);
		if (!v)
			return trace_err(c, sub, "missing%s", "");
		if (!trace_check_value(c, v, k ? &DIM : &FMT, sub))
			return false;
	}
	r->format = (enum trace_texfmt)trace_enum_index(TRACE_E_TEXFMT, cJSON_GetObjectItemCaseSensitive(o, "format")->valuestring);
	r->width = (uint32_t)cJSON_GetObjectItemCaseSensitive(o, "width")->valuedouble;
	r->height = (uint32_t)cJSON_GetObjectItemCaseSensitive(o, "height")->valuedouble;
	r->target = TRACE_TEX_2D;
	const cJSON *tg = cJSON_GetObjectItemCaseSensitive(o, "target");
	snprintf(sub, sizeof sub, "%s.target", path);
	if (tg) {
		if (!trace_check_value(c, tg, &TARGET, sub))
			return false;
		if (!strcmp(tg->valuestring, "3D"))
			return trace_err(c, sub, "3-D textures are not modelled: the Tegra 2 texture descriptor "
			                 "(TEXTURE_DESC1/2) has a width and a height, no public depth field%s", "");
		if (!strcmp(tg->valuestring, "1D")) {
			r->target = TRACE_TEX_1D;
			if (r->height != 1) {
				snprintf(sub, sizeof sub, "%s.height", path);
				return trace_err(c, sub, "a 1D texture has height 1%s", "");
			}
		}
	}
	/* the mip chain: level 0 from this object, levels 1.. from `levels` */
	const cJSON *lv = cJSON_GetObjectItemCaseSensitive(o, "levels");
	unsigned maxlev = 1;
	while ((r->width >> maxlev) || (r->height >> maxlev))
		maxlev++;
	snprintf(sub, sizeof sub, "%s.levels", path);
	if (lv && (!cJSON_IsArray(lv) || cJSON_GetArraySize(lv) < 1 ||
	           (unsigned)cJSON_GetArraySize(lv) > maxlev - 1)) {
		char want[32];
		snprintf(want, sizeof want, "1 to %u", maxlev - 1);
		return maxlev > 1 ? trace_err(c, sub, "expected an array of %s level objects (level 1 down to 1 x 1)", want)
		                  : trace_err(c, sub, "a 1 x 1 texture has no further levels%s", "");
	}
	r->nlevels = 1 + (lv ? (unsigned)cJSON_GetArraySize(lv) : 0);
	const unsigned bpp = trace_texfmt_bpp(r->format);
	r->len = 0;
	for (unsigned k = 0; k < r->nlevels; k++) {
		uint32_t w = r->width >> k ? r->width >> k : 1, h = r->height >> k ? r->height >> k : 1;
		r->level_off[k] = r->len;
		r->len += (size_t)w * h * bpp;
	}
	c->texture_bytes += r->len;
	if (c->texture_bytes > TRACE_MAX_TEXTURE_BYTES)
		return trace_err(c, path, "the textures take more than %zu MiB together (with this one's "
		                 "%zu bytes; TRACE_MAX_TEXTURE_BYTES, docs/robustness.md)",
		                 TRACE_MAX_TEXTURE_BYTES >> 20, r->len);
	r->bytes = calloc(r->len, 1);
	if (!r->bytes)
		return trace_err(c, path, "out of memory%s", "");
	if (!load_level(c, o, r, r->width, r->height, r->bytes, path))
		return false;
	for (unsigned k = 1; k < r->nlevels; k++) {
		const cJSON *it = cJSON_GetArrayItem(lv, (int)k - 1);
		char lpath[192];
		snprintf(lpath, sizeof lpath, "%s.levels[%u]", path, k - 1);
		if (!cJSON_IsObject(it))
			return trace_err(c, lpath, "expected an object%s", "");
		if (!only_data_fields(c, it, true, LEVEL_OTHER, lpath))
			return false;
		uint32_t w = r->width >> k ? r->width >> k : 1, h = r->height >> k ? r->height >> k : 1;
		if (!load_level(c, it, r, w, h, r->bytes + r->level_off[k], lpath))
			return false;
	}
	return true;
}

bool trace_load_resources(trace_ctx *c, const cJSON *res)
{
	if (!res)
		return true;
	if (!cJSON_IsObject(res))
		return trace_err(c, "$.resources", "expected an object%s", "");
	size_t n = (size_t)cJSON_GetArraySize(res);
	c->t->res = calloc(n ? n : 1, sizeof *c->t->res);
	if (!c->t->res)
		return trace_err(c, "$.resources", "out of memory%s", "");
	for (const cJSON *it = res->child; it; it = it->next) {
		char path[128];
		snprintf(path, sizeof path, "$.resources.%s", it->string);
		if (!trace_valid_id(it->string))
			return trace_err(c, path, "a name is 1-63 characters of A-Z a-z 0-9 _ . -%s", "");
		if (!cJSON_IsObject(it))
			return trace_err(c, path, "expected an object%s", "");
		trace_resource *r = &c->t->res[c->t->nres++];
		snprintf(r->id, sizeof r->id, "%s", it->string);
		const cJSON *type = cJSON_GetObjectItemCaseSensitive(it, "type");
		char sub[160];
		snprintf(sub, sizeof sub, "%s.type", path);
		if (cJSON_IsString(type) && strcmp(type->valuestring, "buffer") == 0) {
			r->type = TRACE_BUFFER;
			if (!load_buffer(c, it, r, path))
				return false;
		} else if (cJSON_IsString(type) && strcmp(type->valuestring, "texture") == 0) {
			r->type = TRACE_TEXTURE;
			if (!load_texture(c, it, r, path))
				return false;
		} else {
			return trace_err(c, sub, "expected \"buffer\" or \"texture\"%s", "");
		}
	}
	return true;
}

bool trace_load_shaders(trace_ctx *c, const cJSON *sh)
{
	static const char *const ALLOWED[] = { "stage", "tgsi", "tgsi_file", "shbin", "dvle", "grate",
		"grate_file", "words_file", "fp", NULL };
	static const char *const CODE[] = { "tgsi", "tgsi_file", "shbin", "grate", "grate_file",
		"words_file", "fp", NULL };
	/* ORDER: CODE above */
	static const enum trace_code KIND[] = { TRACE_TGSI, TRACE_TGSI, TRACE_SHBIN, TRACE_GRATE,
		TRACE_GRATE, TRACE_WORDS, TRACE_FP };
	static const bool IS_FILE[] = { false, true, true, false, true, true, true };
	static const field STAGE = { "stage", F_ENUM, true, 0, 0, TRACE_E_STAGE, NULL };
	static const field DVLE = { "dvle", F_INT, false, 0, 63, NULL, NULL };
	if (!sh)
		return true;
	if (!cJSON_IsObject(sh))
		return trace_err(c, "$.shaders", "expected an object%s", "");
	size_t n = (size_t)cJSON_GetArraySize(sh);
	c->t->sh = calloc(n ? n : 1, sizeof *c->t->sh);
	if (!c->t->sh)
		return trace_err(c, "$.shaders", "out of memory%s", "");
	for (const cJSON *it = sh->child; it; it = it->next) {
		char path[128], sub[160];
		snprintf(path, sizeof path, "$.shaders.%s", it->string);
		if (!trace_valid_id(it->string))
			return trace_err(c, path, "a name is 1-63 characters of A-Z a-z 0-9 _ . -%s", "");
		if (!cJSON_IsObject(it))
			return trace_err(c, path, "expected an object%s", "");
		if (!only_fields(c, it, ALLOWED, path))
			return false;
		trace_shader *s = &c->t->sh[c->t->nsh++];
		snprintf(s->id, sizeof s->id, "%s", it->string);
		const cJSON *stage = cJSON_GetObjectItemCaseSensitive(it, "stage");
		snprintf(sub, sizeof sub, "%s.stage", path);
		if (!stage)
			return trace_err(c, sub, "missing%s", "");
		if (!trace_check_value(c, stage, &STAGE, sub))
			return false;
		s->stage = (enum trace_stage)trace_enum_index(TRACE_E_STAGE, stage->valuestring);
		if (trace_count_present(it, CODE) != 1)
			return trace_err(c, path, "a shader gives exactly one of tgsi, tgsi_file, shbin, grate, "
			                    "grate_file, words_file, fp%s", "");
		const cJSON *dv = cJSON_GetObjectItemCaseSensitive(it, "dvle");
		snprintf(sub, sizeof sub, "%s.dvle", path);
		if (dv && !trace_check_value(c, dv, &DVLE, sub))
			return false;
		s->dvle = dv ? (unsigned)dv->valuedouble : 0;
		int k = 0;
		while (!cJSON_GetObjectItemCaseSensitive(it, CODE[k]))
			k++;
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(it, CODE[k]);
		snprintf(sub, sizeof sub, "%s.%s", path, CODE[k]);
		s->code = KIND[k];
		if (!cJSON_IsString(v) || !v->valuestring[0])
			return trace_err(c, sub, IS_FILE[k] ? "expected a file name%s" : "expected the program text%s", "");
		bool fragment_only = s->code == TRACE_GRATE || s->code == TRACE_WORDS || s->code == TRACE_FP;
		if (fragment_only && s->stage != TRACE_FRAGMENT)
			return trace_err(c, sub, "a Tegra program is a fragment shader%s", "");
		if (s->code == TRACE_SHBIN && s->stage == TRACE_FRAGMENT)
			return trace_err(c, sub, "an SHBIN holds vertex or geometry shaders%s", "");
		if (!IS_FILE[k]) {
			s->text = strdup(v->valuestring);
		} else {
			s->path = trace_resolve(c, v->valuestring, sub);
			if (!s->path)
				return false;
			if (s->code == TRACE_TGSI || s->code == TRACE_GRATE) {
				ulp_diag inner;
				ulp_diag_clear(&inner);
				s->text = ulp_read_file(s->path, NULL, &inner);
			}
		}
		if ((s->code == TRACE_TGSI || s->code == TRACE_GRATE) && !s->text)
			return trace_err(c, sub, "cannot read the program%s", "");
	}
	return true;
}


/* The data forms of buffers and textures (trace_data.h, docs/trace-format.md
 * "Data forms"): the table, and the strict decoders of the inline forms. */
#include "traces/trace_data.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "traces/trace_int.h"

/* ORDER: the lists in messages and the schema follow this table */
const trace_data_form TRACE_DATA_FORMS[] = {
	{ "f32", TD_F32, 4, 0, 1, 0 },
	{ "u32", TD_U32, 4, 4294967295.0, 1, 0 },
	{ "u16", TD_U16, 2, 65535, 1, 1 },
	{ "u8", TD_U8, 1, 255, 1, 1 },
	{ "hex", TD_HEX, 0, 0, 1, 2 },
	{ "b64", TD_B64, 0, 0, 2, 2 },
	{ "file", TD_FILE, 0, 0, 1, 2 },
	{ "png", TD_PNG, 0, 0, 0, 1 },
	{ "fill", TD_FILL, 0, 0, 0, 1 },
	{ NULL, TD_F32, 0, 0, 0, 0 },
};

static unsigned takes(const trace_data_form *f, bool texture)
{
	return texture ? f->texture_version : f->buffer_version;
}

const trace_data_form *trace_data_form_named(const char *name, bool texture)
{
	for (const trace_data_form *f = TRACE_DATA_FORMS; f->name; f++)
		if (takes(f, texture) && !strcmp(f->name, name))
			return f;
	return NULL;
}

void trace_data_form_list(bool texture, char *buf, size_t n)
{
	size_t at = 0;
	buf[0] = 0;
	for (const trace_data_form *f = TRACE_DATA_FORMS; f->name; f++) {
		if (!takes(f, texture))
			continue;
		int k = snprintf(buf + at, n - at, "%s%s", at ? ", " : "", f->name);
		if (k < 0 || (size_t)k >= n - at)
			return;
		at += (size_t)k;
	}
}

bool trace_data_pick(trace_ctx *c, const cJSON *o, bool texture, const char *path, const trace_data_form **form)
{
	unsigned n = 0;
	for (const trace_data_form *f = TRACE_DATA_FORMS; f->name; f++)
		if (takes(f, texture) && cJSON_GetObjectItemCaseSensitive(o, f->name)) {
			*form = f;
			n++;
		}
	if (n != 1) {
		char list[128];
		trace_data_form_list(texture, list, sizeof list);
		return trace_err(c, path, "%s gives exactly one of %s",
		                 texture ? "a texture level" : "a buffer", list);
	}
	const unsigned v = takes(*form, texture);
	if (c->t->version < v) {
		char sub[256];
		snprintf(sub, sizeof sub, "%s.%s", path, (*form)->name);
		return trace_err(c, sub, "a field of version %u of the format: say \"version\": %u", v, v);
	}
	return true;
}

/* ---- hex and base64 ---- */

static int hexval(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

static const char B64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static int b64val(char ch)
{
	if (ch >= 'A' && ch <= 'Z')
		return ch - 'A';
	if (ch >= 'a' && ch <= 'z')
		return ch - 'a' + 26;
	if (ch >= '0' && ch <= '9')
		return ch - '0' + 52;
	if (ch == '+')
		return 62;
	if (ch == '/')
		return 63;
	return -1;
}

/* A character of a message: printable as itself, else \xNN. */
static void show_char(char ch, char out[8])
{
	unsigned char u = (unsigned char)ch;
	if (u >= 0x20 && u < 0x7f && u != '\'')
		snprintf(out, 8, "'%c'", ch);
	else
		snprintf(out, 8, "\\x%02x", u);
}

static bool bad_char(trace_ctx *c, const char *path, const char *s, size_t k, const char *what)
{
	char ch[8];
	show_char(s[k], ch);
	return trace_err(c, path, "character %zu (%s) is not %s", k, ch, what);
}

#define B64_CHARS "base64 (A-Z a-z 0-9 + /, '=' only as the last one or two)"

bool trace_data_size(trace_ctx *c, const cJSON *v, const trace_data_form *f, const char *path, size_t *len)
{
	if (f->item_bytes) {
		if (!cJSON_IsArray(v))
			return trace_err(c, path, "expected an array%s", "");
		*len = (size_t)cJSON_GetArraySize(v) * f->item_bytes;
		return true;
	}
	if (f->kind == TD_HEX) {
		size_t n = cJSON_IsString(v) ? strlen(v->valuestring) : 1;
		if (!cJSON_IsString(v) || n % 2)
			return trace_err(c, path, "expected an even number of hex digits%s", "");
		*len = n / 2;
		return true;
	}
	/* TD_B64 */
	if (!cJSON_IsString(v))
		return trace_err(c, path, "expected a base64 string%s", "");
	const char *s = v->valuestring;
	const size_t n = strlen(s);
	if (n % 4)
		return trace_err(c, path, "%zu characters: base64 comes in groups of 4 (the last padded with '=')", n);
	size_t pad = n && s[n - 1] == '=' ? (n > 1 && s[n - 2] == '=' ? 2 : 1) : 0;
	const char *eq = memchr(s, '=', n - pad);
	if (eq)
		return bad_char(c, path, s, (size_t)(eq - s), B64_CHARS);
	*len = n / 4 * 3 - pad;
	return true;
}

static bool decode_b64(trace_ctx *c, const char *s, const char *path, uint8_t *out)
{
	const size_t n = strlen(s);
	uint8_t val[256];                     /* a character's 6 bits; 0xff: not base64 */
	memset(val, 0xff, sizeof val);
	for (unsigned k = 0; k < 64; k++)
		val[(unsigned char)B64[k]] = (uint8_t)k;
	/* the groups of 4 before the last: 3 bytes each, one check per group */
	size_t k = 0, o = 0;
	for (; k + 4 < n; k += 4, o += 3) {
		const unsigned a = val[(unsigned char)s[k]], b = val[(unsigned char)s[k + 1]],
		               d = val[(unsigned char)s[k + 2]], e = val[(unsigned char)s[k + 3]];
		if ((a | b | d | e) & 0x80)
			break;
		const unsigned acc = a << 18 | b << 12 | d << 6 | e;
		out[o] = (uint8_t)(acc >> 16), out[o + 1] = (uint8_t)(acc >> 8), out[o + 2] = (uint8_t)acc;
	}
	for (; k < n; k += 4) {                 /* the last group (padded or not), or a bad character */
		unsigned acc = 0, got = 0;
		for (size_t j = k; j < k + 4; j++) {
			if (s[j] == '=')               /* only at the end: trace_data_size */
				break;
			int x = b64val(s[j]);
			if (x < 0)
				return bad_char(c, path, s, j, B64_CHARS);
			acc |= (unsigned)x << (18 - 6 * got++);
		}
		if (got == 1)
			return trace_err(c, path, "the last group holds 1 character: not base64%s", "");
		const unsigned bytes = got - 1;     /* 4 characters: 3 bytes, 3: 2, 2: 1 */
		if (acc & ((1u << (24 - 8 * bytes)) - 1))
			return trace_err(c, path, "the last group's unused bits are not zero: not canonical base64%s", "");
		for (unsigned i = 0; i < bytes; i++)
			out[o++] = (uint8_t)(acc >> (16 - 8 * i));
	}
	return true;
}

bool trace_data_decode(trace_ctx *c, const cJSON *v, const trace_data_form *f, const char *path, uint8_t *out)
{
	if (f->kind == TD_B64)
		return decode_b64(c, v->valuestring, path, out);
	if (f->kind == TD_HEX) {
		const char *s = v->valuestring;
		for (size_t i = 0; s[2 * i]; i++) {
			int hi = hexval(s[2 * i]), lo = hexval(s[2 * i + 1]);
			if (hi < 0 || lo < 0)
				return bad_char(c, path, s, 2 * i + (hi >= 0), "a hex digit (0-9 a-f A-F)");
			out[i] = (uint8_t)(hi << 4 | lo);
		}
		return true;
	}
	int i = 0;
	for (const cJSON *x = v->child; x; x = x->next, i++) {
		uint32_t w;
		if (f->kind == TD_F32) {
			if (!cJSON_IsNumber(x))
				goto bad_item;
			float fl = (float)x->valuedouble;
			memcpy(&w, &fl, sizeof w);
		} else {
			if (!trace_is_int(x) || x->valuedouble < 0 || x->valuedouble > f->item_max)
				goto bad_item;
			w = (uint32_t)x->valuedouble;
		}
		for (unsigned b = 0; b < f->item_bytes; b++)
			*out++ = (uint8_t)(w >> (8 * b));
		continue;
bad_item:;
		char sub[256];
		snprintf(sub, sizeof sub, "%s[%d]", path, i);
		if (f->kind == TD_F32)
			return trace_err(c, sub, "expected a number%s", "");
		return trace_err(c, sub, "expected an unsigned integer that fits (0..%.0f)", f->item_max);
	}
	return true;
}

char *trace_b64_encode(const uint8_t *p, size_t n)
{
	char *s = malloc((n + 2) / 3 * 4 + 1);
	if (!s)
		return NULL;
	size_t o = 0, k = 0;
	for (; k + 3 <= n; k += 3) {
		unsigned v = (unsigned)p[k] << 16 | (unsigned)p[k + 1] << 8 | p[k + 2];
		s[o++] = B64[v >> 18], s[o++] = B64[v >> 12 & 63], s[o++] = B64[v >> 6 & 63], s[o++] = B64[v & 63];
	}
	if (n - k == 1) {
		unsigned v = (unsigned)p[k] << 16;
		s[o++] = B64[v >> 18], s[o++] = B64[v >> 12 & 63], s[o++] = '=', s[o++] = '=';
	} else if (n - k == 2) {
		unsigned v = (unsigned)p[k] << 16 | (unsigned)p[k + 1] << 8;
		s[o++] = B64[v >> 18], s[o++] = B64[v >> 12 & 63], s[o++] = B64[v >> 6 & 63], s[o++] = '=';
	}
	s[o] = 0;
	return s;
}

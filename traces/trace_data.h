/* The data forms of buffers and textures (docs/trace-format.md "Data
 * forms"): one table says which fields give a resource's bytes, which kind
 * of resource takes each and from which version of the format; the loader
 * (trace_res.c), the JSON Schema (trace_schema.c), the error messages and
 * `ulpsim trace pack` (trace_pack.c) all read it.  Internal to traces/ and
 * the writers of traces. */
#ifndef ULP_TRACES_TRACE_DATA_H
#define ULP_TRACES_TRACE_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cJSON;
struct trace_ctx;

enum trace_data_kind {
	TD_F32, TD_U32, TD_U16, TD_U8,     /* JSON arrays of numbers, stored little-endian */
	TD_HEX,                            /* a string of hex digits, 2 per byte */
	TD_B64,                            /* a string of base64 (RFC 4648 section 4, padded) */
	TD_FILE, TD_PNG, TD_FILL,          /* a side file of raw bytes, a PNG side file, a colour */
};

typedef struct trace_data_form {
	const char *name;
	enum trace_data_kind kind;
	unsigned item_bytes;        /* the arrays: bytes per item (0: not an array) */
	double item_max;            /* the integer arrays: the largest item */
	unsigned buffer_version;    /* the first format version a buffer takes it in (0: never) */
	unsigned texture_version;   /* the same for a texture and a texture level */
} trace_data_form;

/* The forms, in the order messages list them; name NULL ends. */
extern const trace_data_form TRACE_DATA_FORMS[];

/* The form named name for a buffer (texture false) or a texture, or NULL. */
const trace_data_form *trace_data_form_named(const char *name, bool texture);
/* "f32, u32, u16, u8, hex, b64, file": the forms of a buffer or a texture. */
void trace_data_form_list(bool texture, char *buf, size_t n);

/* The form o gives its data in: exactly one (refused with path and the
 * list otherwise), taken in c's version of the format (else refused at
 * path.<name>: "a field of version N of the format: say "version": N"). */
bool trace_data_pick(struct trace_ctx *c, const struct cJSON *o, bool texture, const char *path,
                     const trace_data_form **form);

/* An inline form (an array, hex or b64) at JSON path path: the byte count
 * it decodes to, from its shape alone (refused with the path when it is
 * not of that shape: not an array, an odd number of hex digits, a base64
 * string that is not a multiple of 4 long or has '=' inside). */
bool trace_data_size(struct trace_ctx *c, const struct cJSON *v, const trace_data_form *f, const char *path,
                     size_t *len);
/* Decodes it into out (trace_data_size's len bytes): refused with the path
 * (an array's item path) of the first bad item or character. */
bool trace_data_decode(struct trace_ctx *c, const struct cJSON *v, const trace_data_form *f, const char *path,
                       uint8_t *out);

/* n bytes as padded base64 (malloc'd, NUL-terminated), or NULL when out
 * of memory. */
char *trace_b64_encode(const uint8_t *p, size_t n);

#endif

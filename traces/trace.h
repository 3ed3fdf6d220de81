/* ulpsim trace format, versions 1 and 2 (docs/trace-format.md): load,
 * validate, resolve.
 *
 * The loader checks every rule of the format (the same rules as
 * traces/schema/trace.schema.json) and refuses a bad trace with the JSON
 * path of the offending value.  Resources are decoded (buffer data, PNG
 * textures) and shader files read at load time; commands stay as validated
 * JSON objects for the driver layer to interpret. */
#ifndef ULP_TRACES_TRACE_H
#define ULP_TRACES_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"

struct cJSON;

enum trace_res_type { TRACE_BUFFER, TRACE_TEXTURE };
enum trace_texfmt { TRACE_RGBA8888, TRACE_BGRA8888, TRACE_RGB565, TRACE_A8, TRACE_L8, TRACE_D16 };
enum trace_textarget { TRACE_TEX_1D, TRACE_TEX_2D };
enum { TRACE_TEX_LEVELS = 13 };    /* 4096 x 4096 down to 1 x 1 */
/* Limits on a trace (docs/robustness.md "Limits"), each refused with a
 * clear error before the memory is taken: the trace file's size, the JSON
 * nesting depth, the bytes of all textures together (their mip chains
 * included), and the number of commands.  A draw's vertex count is at most
 * 2^24 (the "count" field's range, trace.c). */
#define TRACE_MAX_FILE_BYTES     ((size_t)256 << 20)
#define TRACE_MAX_DEPTH          32
#define TRACE_MAX_TEXTURE_BYTES  ((size_t)256 << 20)
#define TRACE_MAX_COMMANDS       1000000
/* The newest version of the format this build reads (and writes: a
 * capture, traces/replay/capture.h); every older one still loads. */
#define TRACE_VERSION   2
#define TRACE_VERSION_S "2"
enum trace_stage { TRACE_VERTEX, TRACE_GEOMETRY, TRACE_FRAGMENT };
enum trace_code { TRACE_TGSI, TRACE_SHBIN, TRACE_GRATE, TRACE_WORDS, TRACE_FP };

typedef struct trace_resource {
	char id[64];
	enum trace_res_type type;
	uint8_t *bytes;            /* buffer bytes, or texels in the texture's format */
	size_t len;
	enum trace_texfmt format;
	enum trace_textarget target;
	uint32_t width, height;    /* level 0; level k is max(1, width >> k) x max(1, height >> k) */
	unsigned nlevels;          /* 1 + the explicit `levels` */
	size_t level_off[TRACE_TEX_LEVELS];   /* level k's texels at bytes + level_off[k] */
} trace_resource;

typedef struct trace_shader {
	char id[64];
	enum trace_stage stage;
	enum trace_code code;
	char *text;                /* TGSI or grate source (inline or read from its file) */
	char *path;                /* the resolved file for shbin / words / fp (and *_file) */
	unsigned dvle;
} trace_shader;

/* Side files ("file", "png", "tgsi_file", "shbin", "expect_image", ...;
 * docs/trace-format.md "Side files"): traces are shared between people, so
 * by default a trace reads only regular files inside its own folder (a
 * relative name without "..", resolving, symlinks followed, under the
 * folder), each at most max_file_bytes.  allow_paths also takes absolute
 * names and "..": still only regular files, still capped. */
/* (each side file at most TRACE_MAX_FILE_BYTES, as the trace itself) */
typedef struct trace_load_opts {
	bool allow_paths;
	uint64_t max_file_bytes;    /* 0: TRACE_MAX_FILE_BYTES */
} trace_load_opts;

/* --max-side-file's value: bytes, or a number with a K, M or G suffix
 * (binary: 64M is 64 MiB), 1 byte .. TRACE_MAX_SIDE_FILE_CAP.  False when
 * it is none of those. */
#define TRACE_MAX_SIDE_FILE_CAP ((uint64_t)16 << 30)
bool trace_parse_side_file_cap(const char *s, uint64_t *bytes);

typedef struct trace {
	char *path, *dir;
	trace_load_opts opts;       /* as loaded (the side files' rules) */
	unsigned version;          /* the file's "version" (0: a session's, not loaded) */
	char name[64];
	char gpu[16];
	struct cJSON *root;        /* owned; commands point into it */
	trace_resource *res;
	size_t nres;
	trace_shader *sh;
	size_t nsh;
	const struct cJSON **cmd;  /* validated command objects, in order */
	size_t ncmd;
} trace;

bool trace_load(trace *t, const char *path, ulp_diag *d);
/* The same from text (dir resolves relative file names). */
bool trace_parse(trace *t, const char *json, const char *path, const char *dir, ulp_diag *d);
/* Both with side-file rules other than the default (o NULL: the default). */
bool trace_load_with(trace *t, const char *path, const trace_load_opts *o, ulp_diag *d);
bool trace_parse_with(trace *t, const char *json, const char *path, const char *dir, const trace_load_opts *o,
                      ulp_diag *d);
void trace_free(trace *t);

/* Validates command cmd as the loader validates $.commands[i] of t (its
 * ids name t's resources and shaders; messages at t->path). */
bool trace_check_command(trace *t, const struct cJSON *cmd, size_t i, ulp_diag *d);

const trace_resource *trace_find_resource(const trace *t, const char *id);
const trace_shader *trace_find_shader(const trace *t, const char *id);

/* Bytes per texel of a texture format (D16: little-endian 16-bit depth). */
unsigned trace_texfmt_bpp(enum trace_texfmt f);

/* `ulpsim trace pack`: t's text with every inline number array and hex
 * string of its resources (buffers, texture levels) as base64 ("b64", the
 * same bytes; docs/trace-format.md "Data forms"), "version" at least 2 when
 * one was, everything else as loaded (numbers print back exactly); the
 * count rewritten in *packed.  t's JSON is rewritten in place: free t
 * afterwards, do not replay it.  malloc'd, or NULL with d set. */
char *trace_pack_json(trace *t, unsigned *packed, ulp_diag *d);

/* The JSON Schema of the format, generated from the loader's tables
 * (malloc'd; free with free()). */
char *trace_schema_json(void);

/* The command names the loader accepts (NULL-terminated), for the schema
 * consistency test. */
extern const char *const TRACE_COMMANDS[];

#endif

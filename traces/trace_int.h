/* Internal to traces/: the validation machinery shared by trace.c (the
 * document, commands) and trace_res.c (resources, shaders). */
#ifndef ULP_TRACES_TRACE_INT_H
#define ULP_TRACES_TRACE_INT_H

#include <cjson/cJSON.h>

#include "traces/trace.h"

/* ---- the field table ---- */

enum fkind {
	F_INT, F_NUM, F_BOOL, F_STR, F_ENUM, F_COLOR, F_VEC3, F_FILE, F_CYCLES, F_SWIZZLE,
	F_ID_SHADER, F_ID_BUF, F_ID_TEX, F_ID_RES,
	F_OBJ, F_OBJ_ARRAY, F_F32_ARRAY, F_PICA_WRITES, F_GR3D_WRITES,
};

typedef struct field {
	const char *name;
	enum fkind kind;
	bool required;
	double lo, hi;                 /* numbers: range; arrays: item count */
	const char *const *enums;      /* F_ENUM: NULL-terminated names */
	const struct field *sub;       /* F_OBJ, F_OBJ_ARRAY: fields (name NULL ends) */
} field;

typedef struct command {
	const char *name;
	const field *fields;
	const char *const *one_of;     /* exactly one of these must be present */
	const char *const *any_of;     /* at least one of these */
} command;

extern const command TRACE_COMMAND_TABLE[];
extern const size_t TRACE_NCOMMANDS;

/* docs/trace-format.md "Numbers": every number finite and within the f32
 * range; viewport scale and translate within +-TRACE_MAX_WINDOW. */
#define TRACE_MAX_NUMBER 3.4028234663852886e38
#define TRACE_MAX_WINDOW 65536.0

#define END_FIELDS { NULL, F_INT, false, 0, 0, NULL, NULL }

typedef struct trace_ctx {
	trace *t;
	const char *file;
	ulp_diag *d;
	size_t texture_bytes;      /* all textures so far (TRACE_MAX_TEXTURE_BYTES) */
} trace_ctx;

extern const char *const TRACE_E_TEXFMT[];
extern const char *const TRACE_E_CBUFFMT[];
extern const char *const TRACE_E_TARGET[];
extern const char *const TRACE_E_STAGE[];

/* Fill c->d with "file: path: message"; returns false. */
bool trace_err(trace_ctx *c, const char *path, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
bool trace_is_int(const cJSON *v);
bool trace_valid_id(const char *s);
int trace_enum_index(const char *const *names, const char *s);
/* A side file named in the trace at JSON path jpath (traces/trace_files.c):
 * the path to open (malloc'd), or NULL with c->d set when the load options
 * refuse it (outside the trace's folder, not a regular file, over the size
 * cap) or it does not exist. */
char *trace_resolve(trace_ctx *c, const char *name, const char *jpath);
bool trace_file_check(trace_ctx *c, const char *name, const char *jpath);
/* The bytes of side file name (malloc'd, *len of them), or NULL with c->d
 * set: refused as trace_resolve refuses, or "cannot read 'name'". */
uint8_t *trace_read_side_file(trace_ctx *c, const char *name, const char *jpath, size_t *len);
bool trace_check_value(trace_ctx *c, const cJSON *v, const field *f, const char *path);
unsigned trace_count_present(const cJSON *obj, const char *const *names);

bool trace_load_resources(trace_ctx *c, const cJSON *res);
bool trace_load_shaders(trace_ctx *c, const cJSON *sh);

#endif

/* piglit shader tests on the simulated GPU (docs/piglit.md).
 *
 * A corpus test folder (../shared/corpus/tgsi*, one piglit .shader_test
 * each) holds vs.tgsi, fs.tgsi, test.txt (the [test] section, then the
 * original file) and meta.json (nir_vars: the uniform -> CONST[0][n] and
 * attribute -> IN[n] mapping).  This library
 *   - parses a test (piglit_test.c; ARB parameter order in piglit_arb.c),
 *   - walks its [test] commands keeping GL state (piglit_state.c: matrices,
 *     uniforms, textures; piglit_draw.c: built-in uniforms, ARB parameters,
 *     the constant buffers and vertices of each draw),
 *   - renders each draw on one of two paths: the simulator (piglit_trace.c:
 *     a ulpsim trace replayed by traces/replay/replay.h) or a float reference
 *     renderer (piglit_ref.c: a simple rasterizer; piglit_exec.c: 2x2
 *     quads of TGSI interpreter machines with textures and derivatives),
 *   - checks piglit's probes (piglit_probe.c) and scores (piglit_run.c).
 * Library code never prints or exits. */
#ifndef ULP_FRONTENDS_PIGLIT_H
#define ULP_FRONTENDS_PIGLIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "base/image.h"

enum { PG_FB_W = 250, PG_FB_H = 250, PG_MAX_VALS = 16, PG_MAX_UNITS = 16,
	PG_NAME_MAX = 96, PG_REASON_MAX = 320,
	PG_MAX_CONST = 256 };

enum pg_cmd_kind {
	PG_CLEAR_COLOR, PG_CLEAR, PG_CLEAR_DEPTH, PG_ORTHO, PG_FRUSTUM, PG_UNIFORM,
	PG_PARAMETER, PG_DRAW_RECT, PG_DRAW_ARRAYS, PG_TEXTURE, PG_TEXPARAM, PG_ENABLE,
	PG_DISABLE, PG_SHADE_MODEL, PG_CLIP_PLANE, PG_TEXCOORD, PG_COLOR, PG_PROBE,
	PG_LIGHT, PG_NOP, PG_LINK_ERROR, PG_UNSUPPORTED
};

enum pg_probe_kind { PG_PROBE_PIXEL, PG_PROBE_RECT, PG_PROBE_ALL, PG_PROBE_DEPTH };

/* Uniform value types, by column count x row count (float / int flag). */
typedef struct pg_cmd {
	enum pg_cmd_kind kind;
	int line;                       /* in test.txt */
	char name[PG_NAME_MAX];         /* uniform/texture kind/enable cap/param kind */
	char arg[PG_NAME_MAX];          /* uniform type, texparameter target, texture dim */
	char value[32];                 /* texparameter value */
	float v[PG_MAX_VALS];
	unsigned nv;
	int unit;                       /* texture unit, parameter index, plane index */
	/* draw rect: flags; probe: kind */
	bool ortho, tex, relative, rgba;
	enum pg_probe_kind probe;
	int prim;                       /* draw arrays: 0 triangles, 1 strip, 2 fan, 3 points,
	                                 * 4 lines, 5 line strip, 6 line loop */
	bool warn;                      /* probe warn: shader_runner reports a miss as a warning */
	char text[PG_NAME_MAX];         /* the command line (truncated), for reports */
} pg_cmd;

/* decl_var lines of meta.json that matter. */
enum pg_var_kind { PG_VAR_UNIFORM, PG_VAR_IN, PG_VAR_OUT };
typedef struct pg_var {
	enum pg_var_kind kind;
	char name[PG_NAME_MAX];
	char type[32];                  /* "vec4", "mat3", "float", "S" ... (array part removed) */
	unsigned array;                 /* elements, 0 = not an array */
	char location[48];              /* VERT_ATTRIB_POS etc. for inputs */
	int driver_location;            /* CONST[0][n] slot / IN[n] */
	float *init;                    /* initializer values (flattened), or NULL */
	unsigned ninit;
} pg_var;

typedef struct pg_stage {
	char *tgsi;                     /* the .tgsi text */
	char source[24];                /* glsl / arb / fixed-function / glsl-passthrough */
	pg_var *vars;
	size_t nvars;
	char *arb;                      /* the ARB program text (original file), or NULL */
} pg_stage;

/* [vertex data] */
typedef struct pg_vdata {
	unsigned ncols;
	char names[16][PG_NAME_MAX];
	unsigned comps[16];             /* components per column (attribute) */
	unsigned first[16];             /* first float of each column in a row */
	unsigned stride;                /* floats per row */
	float *rows;
	unsigned nrows;
} pg_vdata;

typedef struct pg_test {
	char name[256];                 /* folder name */
	char dir[1024];
	pg_cmd *cmds;
	size_t ncmds;
	pg_vdata vdata;
	pg_stage vs, fs;
	char *orig;                     /* the original .shader_test text (struct declarations) */
	bool int_uniform_as_float;      /* false for the native-integer dialect (meta.json) */
} pg_test;

/* Loads dir/test.txt, meta.json, vs.tgsi, fs.tgsi.  Unknown [test] commands
 * become PG_UNSUPPORTED (with their line); malformed files fill d. */
bool pg_test_load(pg_test *t, const char *dir, ulp_diag *d);
/* The same from text (tests); meta_json/vs/fs may be NULL. */
bool pg_test_parse(pg_test *t, const char *test_txt, const char *meta_json, const char *vs,
                   const char *fs, const char *name, ulp_diag *d);
void pg_test_free(pg_test *t);
/* Parses only the [test] section text of test.txt (file name for d). */
const pg_var *pg_find_var(const pg_stage *s, enum pg_var_kind k, const char *name);

/* ---- GL state and draws (piglit_state.c) ---- */
typedef struct pg_texture {
	bool present;
	unsigned w, h, d;               /* d > 1: 3-D */
	unsigned dims;                  /* 1, 2, 3 */
	float *texels;                  /* w*h*d RGBA floats, row 0 = bottom (t = 0) */
	bool shadow;                    /* depth texture: texels[.r] = depth */
	int compare_func;               /* 0 none, else GL func (pg_cmp_*) */
	int depth_mode;                 /* 0 luminance, 1 intensity, 2 alpha, 3 red */
	unsigned levels;                /* miptree: level sizes halve */
	float *level[16];               /* miptree levels (level[0] == texels) */
} pg_texture;

enum { PG_CMP_NONE, PG_CMP_NEVER, PG_CMP_LESS, PG_CMP_EQUAL, PG_CMP_LEQUAL, PG_CMP_GREATER,
	PG_CMP_NOTEQUAL, PG_CMP_GEQUAL, PG_CMP_ALWAYS };

typedef struct pg_draw {
	int prim;                       /* 0 triangles, 1 strip, 2 fan */
	unsigned nverts, nin;           /* VS inputs per vertex */
	float (*in)[4];                 /* nverts * nin */
	float (*vs_const)[4];
	unsigned nvs_const;
	float (*fs_const)[4];
	unsigned nfs_const;
	const pg_texture *units[PG_MAX_UNITS];
	bool clip_enabled[8];
	float clip_plane[8][4];         /* eye space */
	bool depth_test, two_side, flat;
	int line;                       /* the draw command's line */
} pg_draw;

typedef struct pg_state {
	float proj[16], modelview[16];  /* column-major */
	float clear_color[4], clear_depth;
	float env_vp[96][4], local_vp[96][4], env_fp[32][4], local_fp[32][4];
	float texcoord[8][4], color[4];
	float light[8][4][4];           /* light i: ambient, diffuse, specular, position (eye space) */
	pg_texture tex[PG_MAX_UNITS];
	bool clip_enabled[8];
	float clip_plane[8][4];
	bool depth_test, two_side, flat;
	float user[2][PG_MAX_CONST][4]; /* user uniforms per stage (0 VS, 1 FS), by slot */
	int samp_unit[PG_MAX_UNITS];    /* FS SAMP[n] -> texture unit */
	int bound_unit;                 /* the last `texture` command's unit (-1: none) */
	void *arb[2];                   /* ARB parameter lists (pg_arb_list *) */
} pg_state;

bool pg_state_init(pg_state *s, const pg_test *t, ulp_diag *d);
void pg_state_free(pg_state *s);
/* Works out the ARB parameter lists (once, before the first draw). */
bool pg_state_prepare(pg_state *s, const pg_test *t, char *reason, size_t n);
/* Applies a state command (not draw/probe/clear).  False with reason filled
 * when the command cannot be interpreted (a refusal). */
bool pg_state_apply(pg_state *s, const pg_test *t, const pg_cmd *c, char *reason, size_t n);
/* Builds the draw of a draw command from the current state. */
bool pg_state_draw(const pg_state *s, const pg_test *t, const pg_cmd *c, pg_draw *dr,
                   char *reason, size_t n);
void pg_draw_free(pg_draw *dr);
/* 4x4 helpers (column-major). */
void pg_mat_ortho(float m[16], float l, float r, float b, float t, float n, float f);
void pg_mat_frustum(float m[16], float l, float r, float b, float t, float n, float f);
void pg_mat_mul(float out[16], const float a[16], const float b[16]);

/* ---- probes (piglit_probe.c) ---- */
typedef struct pg_probe_result {
	bool pass;
	int line;
	int x, y;                       /* the first failing pixel */
	float expected[4], got[4];
	unsigned ncomp;
	char text[PG_NAME_MAX];
} pg_probe_result;

/* Checks a probe command on an image (top row first) and an optional depth
 * buffer (bottom row first, NULL: depth probes refused by the caller). */
bool pg_probe_check(const pg_cmd *c, const ulp_image *img, const float *depth,
                    pg_probe_result *r);

/* ---- the two renderers ---- */
typedef struct pg_ref pg_ref;
pg_ref *pg_ref_new(const pg_test *t, ulp_diag *d);
void pg_ref_free(pg_ref *r);
void pg_ref_clear(pg_ref *r, const float color[4], bool colour, float depth, bool do_depth);
/* False with reason filled when the draw cannot be rendered. */
bool pg_ref_draw(pg_ref *r, const pg_draw *dr, char *reason, size_t n);
const ulp_image *pg_ref_image(const pg_ref *r);
const float *pg_ref_depth(const pg_ref *r);

/* Trace builder: collects trace commands; pg_trace_render replays the whole
 * trace so far and returns the final colour buffer (free it). */
typedef struct pg_trace pg_trace;
/* exact: replay with arith=exact (docs/exact.md), else the default config. */
pg_trace *pg_trace_new(const pg_test *t, bool exact, ulp_diag *d);
void pg_trace_free(pg_trace *tr);
/* Clears colour and depth (and stencil to 0). */
bool pg_trace_clear(pg_trace *tr, const float color[4], float depth, char *reason, size_t n);
bool pg_trace_draw(pg_trace *tr, const pg_draw *dr, char *reason, size_t n);
ulp_image *pg_trace_render(pg_trace *tr, char *reason, size_t n);
/* The depth buffer of the last pg_trace_render (bottom row first), or NULL. */
const float *pg_trace_depth(const pg_trace *tr);

/* ---- running and scoring (piglit_run.c) ---- */
enum pg_status { PG_PASS, PG_FAIL, PG_REFUSED };

typedef struct pg_path_result {
	enum pg_status status;
	char reason[PG_REASON_MAX];     /* refused: why; fail: the probe */
	int line;                       /* refused: the command's line (0: none) */
	pg_probe_result probe;          /* fail: the first failing probe */
	unsigned probes, probes_passed;
	ulp_image *image;               /* the final image (owned) */
	double seconds;
} pg_path_result;

typedef struct pg_result {
	char name[256];
	pg_path_result sim, ref;
	pg_path_result exact;           /* the sim path again with arith=exact (run_exact) */
	bool precision;                 /* sim fail with an exact-mode pass (docs/piglit.md) */
	bool have_softpipe;
	double psnr_sim, psnr_ref;      /* against softpipe.png (INFINITY identical) */
	unsigned maxdiff_sim, maxdiff_ref;
	bool sim_compared, ref_compared;
} pg_result;

typedef struct pg_run_opts {
	bool compare_softpipe;
	bool run_sim, run_ref;
	bool run_exact;                 /* the sim path with arith=exact too, when sim ran */
} pg_run_opts;

/* Runs one test folder on both paths.  Never fails: problems become a
 * refusal (a test that cannot be loaded is refused on both paths). */
void pg_run_test(const char *dir, const pg_run_opts *o, pg_result *res);
void pg_result_free(pg_result *res);
const char *pg_status_name(enum pg_status s);

#endif

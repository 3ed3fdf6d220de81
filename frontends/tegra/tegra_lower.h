/* Shared state of the Tegra fragment lowering (tegra_lower.c: sources,
 * destinations, ALU/SFU/TEX forms; tegra_lower_cf.c: IF/ELSE, loops and
 * kills as predicates).  Private to those two files. */
#ifndef ULP_FRONTENDS_TEGRA_LOWER_H
#define ULP_FRONTENDS_TEGRA_LOWER_H

#include "frontends/tegra/tegra_int.h"

enum { MAX_DEPTH = 32 };

/* A predicate level: an IF/ELSE block or a loop.  f = 1 when the level is
 * off (its own condition false or an outer level off), p = f - 1 is
 * negative iff it runs (the CSEL select operand). */
typedef struct pred {
	bool loop;
	tfp_opnd f, p;
	tfp_opnd eqz;           /* IF: its condition == 0 */
	tfp_opnd own;           /* IF: 1 when this branch is not taken (eqz or 1 - eqz) */
	size_t start;           /* loop: IR index of BGNLOOP */
	unsigned iter;
	tfp_opnd broken, cont;  /* loop: 1 after BRK / CONT (this iteration) */
} pred;

enum { MAX_ITER = 32, MAX_OPS = 2000 };

typedef struct lctx {
	const ir_shader *s;
	const tgsi_shader *sh;
	const tegra_compile_opts *o;
	tfp_prog *p;
	ir_error *e;
	const ir_inst *in;
	tfp_opnd *temp;         /* ntemps * 4 */
	tfp_opnd out[4];
	int32_t color_out;      /* OUT index of COLOR[0], -1 none */
	int32_t ipl[16][4];
	int32_t wpos;           /* value of the fragment's 1/w, -1 not read yet */
	uint16_t face_input;    /* bit n: IN[n] is FACE (pface, not a TRAM varying) */
	uint16_t pos_input;     /* bit n: IN[n] is the fragment position */
	bool lower_left, integer_center;   /* FS_COORD_ORIGIN / _PIXEL_CENTER */
	tfp_opnd addr[4][4];    /* ADDR[n].c = floor(x) */
	tfp_ulayout ul;         /* CONST[0] in FP_CONST (tegra_uniforms.c) */
	struct { int32_t a; float delta; int32_t sel; } selc[64];   /* (ADDR value == delta) */
	unsigned nselc;
	unsigned loop_bound;    /* iterations of a loop with a run-time exit */
	pred stack[MAX_DEPTH];
	int depth;
	bool ended;
	size_t next;            /* IR index to lower next */
} lctx;

static inline tfp_opnd imm(float k) { return (tfp_opnd){ .kind = TO_IMM, .k = k }; }
static inline tfp_opnd val(int32_t v) { return (tfp_opnd){ .kind = TO_VAL, .v = v }; }
static inline bool plain(const tfp_opnd *o) { return !o->neg && !o->abs && !o->m1 && !o->x2; }

/* Names the current instruction in a refusal; returns false. */
bool tfl_refuse(lctx *L, enum ir_refusal why, const char *fmt, const char *what);
/* One ALU op (constant-folded, or reused when the same one was just made). */
tfp_opnd tfl_alu(lctx *L, uint8_t op, uint8_t cc, tfp_opnd a, tfp_opnd b, tfp_opnd c);
tfp_opnd tfl_mov(lctx *L, tfp_opnd x);
/* p < 0 ? a : b */
tfp_opnd tfl_sel(lctx *L, tfp_opnd p, tfp_opnd a, tfp_opnd b);
/* An SFU op (its PRE step or 0) on x. */
tfp_opnd tfl_sfu(lctx *L, uint8_t op, uint8_t pre, tfp_opnd x);
/* Writes component c of a destination under the current predicate. */
bool tfl_write(lctx *L, const ir_dst *d, unsigned c, tfp_opnd v);
/* Component c (after the swizzle) of a source. */
bool tfl_read_src(lctx *L, const ir_src *x, unsigned c, tfp_opnd *res);

/* tegra_lower_cf.c: each returns false after a refusal. */
bool tfl_kill_if(lctx *L, tfp_opnd cond_neg_kills);
bool tfl_if(lctx *L, const ir_inst *in);
bool tfl_else(lctx *L);
/* BGNLOOP, BRK, CONT, ENDLOOP (pc: the instruction's IR index) */
bool tfl_loop(lctx *L, const ir_inst *in, size_t pc);

#endif

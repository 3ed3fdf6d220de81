/* Internal form of the Tegra fragment backend (tegra_compile.h): scalar
 * operations on SSA values, and the schedule they are placed into. */
#ifndef ULP_FRONTENDS_TEGRA_INT_H
#define ULP_FRONTENDS_TEGRA_INT_H

#include "frontends/tegra/tegra_compile.h"

/* ---- scalar program (tegra_lower.c) ---- */

/* An operand: an SSA value, a fixed row register (MFU/TEX results, read
 * before they are copied out), a uniform slot or a constant; with the ALU's
 * source modifiers (applied abs, x2, minus one, negate: tegra-units.md). */
enum tfp_okind { TO_VAL, TO_FIX, TO_UNIF, TO_IMM, TO_POS };   /* TO_POS: v 0 posx, 1 posy, 2 pface */
enum { TO_FP20 = 0, TO_LOW = 1, TO_HIGH = 2 };

typedef struct tfp_opnd {
	uint8_t kind;           /* enum tfp_okind */
	uint8_t half;           /* TO_FIX: FP20 or an FX10 half */
	bool neg, abs, m1, x2;
	bool xfold;             /* TO_IMM made by tfp_fold: xk, xk_of are set */
	int32_t v;              /* value id, register, uniform slot */
	float k;                /* TO_IMM */
	float xk, xk_of;        /* arith=exact: the fold's binary32 (xk) while k is still
	                         * xk_of, its FP20 (tfp_xval; docs/exact.md) */
} tfp_opnd;

enum tfp_kind { TF_ALU, TF_SFU, TF_IPL, TF_TEX, TF_FETCH };   /* TF_FETCH: PSEQ reads the destination */
enum tfp_alu { TA_MAD, TA_MUL, TA_MIN, TA_MAX, TA_CSEL };
enum tfp_cc { TC_NONE, TC_EQ, TC_GT, TC_GE };   /* grate's names (tegra-fp.md §2.6) */

typedef struct tfp_op {
	uint8_t kind;           /* enum tfp_kind */
	uint8_t alu, cc;        /* TF_ALU */
	bool sat;
	uint8_t sfu, pre;       /* TF_SFU: TEGRA_SFU_* op and its PRE step (0 = none) */
	tfp_opnd s[3];          /* ALU a, b, c; SFU s[0]; TEX S, T, bias */
	int32_t dst[4];         /* value ids, -1 = none (TEX: 4 channels) */
	uint8_t tram_row, comp; /* TF_IPL */
	bool wpos;              /* TF_IPL: the fragment's 1/w (MFU sfu r4 -> mul0), not a varying */
	uint8_t sampler;        /* TF_TEX */
	bool bias;              /* TF_TEX: txb */
	bool live;
	int line, col;          /* TGSI position */
	uint16_t irop;          /* the IR instruction it comes from (refusals) */
} tfp_op;

typedef struct tfp_prog {
	tfp_op *op;
	size_t n, cap;
	uint32_t nval;
	tfp_opnd out[4];        /* OUT[0] COLOR x, y, z, w */
	bool has_kill;
	tfp_opnd kill;          /* non-zero = discard */
	bool any_ipl;
	bool has_color;         /* a COLOR[0] output: stored to render target 1 */
	unsigned tram_rows;
	const char *file;
	bool upacked;           /* the packed uniform layout (tegra_uniforms.c) */
	bool runtime_loops;     /* a loop with a run-time exit was unrolled to loop_bound */
	unsigned loop_bound;
	int16_t usrc[TEGRA_FP_NUM_CONST];   /* FP_CONST u_k: CONST[0] float index 4n+c, -1 none */
	uint32_t ufree;         /* FP_CONST slots no CONST[0] component uses: room for constants */
} tfp_prog;

/* Where CONST[0] lives in FP_CONST (tegra_uniforms.c). */
typedef struct tfp_ulayout {
	bool packed;            /* false: identity, CONST[0][n].c -> u(4n+c) */
	int32_t nconst;         /* declared span: elements 0..nconst-1 */
	int16_t *slot;          /* per float index 4n+c: FP_CONST slot, -1 not resident */
	uint8_t *decl;          /* per element: declared */
	uint8_t *held;          /* per float index 4n+c: read through an indirect address */
	int16_t src[TEGRA_FP_NUM_CONST];    /* inverse map, -1 unused */
} tfp_ulayout;
bool tegra_uniform_layout(const ir_shader *s, const tgsi_shader *sh, tfp_ulayout *u, ir_error *e);
/* The packed layout after dead-code removal: u0..u31 for the components
 * that live operations and the outputs read (in (n, c) order), p->usrc
 * filled; refuses (constants) more than 32, saying how many of them an
 * indirect read holds (u->held) and how many are read directly. */
bool tfp_uniform_pack(tfp_prog *p, const tfp_ulayout *u, ir_error *e);
void tfp_ulayout_free(tfp_ulayout *u);

/* IR (lowered with tegra_ir_caps) -> scalar program.  Refuses what the
 * fragment unit cannot run.  loop_bound: how many times a loop whose exit
 * depends on run-time values is unrolled (p->runtime_loops tells whether
 * there was one, also after a refusal). */
void tegra_ir_caps(ir_caps *caps);
bool tegra_lower(const ir_shader *s, const tgsi_shader *sh, const tegra_compile_opts *o, unsigned loop_bound,
                 tfp_prog *p, ir_error *e);
void tfp_prog_free(tfp_prog *p);

/* tegra_opt.c: an immediate's FP20 word (the host encoding, truncation,
 * as the driver's uniform uploads) and its value as the ALU reads it;
 * the ALU result of op on constant operands (a CSEL with a constant
 * selector picks its operand), false when not constant; removal of the
 * operations nothing reaches (op->live). */
uint32_t tfp_imm_bits(float k);
float tfp_fp20(float k);
bool tfp_fold(uint8_t op, uint8_t cc, const tfp_opnd *a, const tfp_opnd *b, const tfp_opnd *c,
              tfp_opnd *r);
/* The binary32 arith=exact reads for constant o: a folded constant's fold
 * in binary32 (negated or |x| with it), else o->k. */
float tfp_xval(const tfp_opnd *o);
bool tfp_eliminate_dead(tfp_prog *p);
/* The same operand (kind, modifiers, value; immediates by bits). */
bool tfp_same_opnd(const tfp_opnd *x, const tfp_opnd *y);
/* x is never below 0 (a square, a sum of squares, ...; depth 0 at the call). */
bool tfp_nonneg(const tfp_prog *p, const tfp_opnd *x, unsigned depth);

/* ---- schedule (tegra_sched.c) ---- */

enum { TFP_MAX_EXEC = 64, TFP_MAX_MFU = 64, TFP_MAX_PACKETS = 64 };
enum { TFP_NREGS = 24 };   /* r0..r15, g0..g7 (register numbers 0..23) */

enum tfp_dkind { TD_VAL, TD_FIX, TD_KILL };

typedef struct tfp_slot {
	uint8_t alu, cc;
	bool sat;
	tfp_opnd s[3];
	uint8_t dkind;          /* enum tfp_dkind */
	uint8_t dhalf;          /* TD_FIX: TO_FP20 or a half */
	int32_t d;              /* value id or register */
} tfp_slot;

/* Constants the scheduler moved out of a packet's embedded slot into free
 * FP_CONST words (the program's .constants, as grate's hand-written
 * programs keep colours in uniforms): used when a packet would otherwise
 * overflow.  Allocated, so that a const schedule can still place. */
typedef struct tfp_upool {
	uint32_t free;          /* slots still free */
	uint32_t used;          /* slots holding a constant */
	uint32_t bits[TEGRA_FP_NUM_CONST];  /* their FP20 */
	float k[TEGRA_FP_NUM_CONST];        /* arith=exact: the binary32 each came from */
	uint32_t kconflict;                 /* slots two different binary32 share */
	bool overflow;          /* a packet kept more constants than it has room for */
} tfp_upool;

typedef struct tfp_packet {
	tfp_slot slot[4];
	uint8_t n, nimm;
	uint32_t imm[3];        /* FP20 bits */
} tfp_packet;

typedef struct tfp_minst {
	bool setup;             /* rcp r4; mul0: bar, sfu, bar0; mul1: bar, sfu, bar1 */
	bool sfu_used;
	uint8_t sfu_op, sfu_reg;    /* row-relative r0..r3 */
	uint8_t var_mask;
	uint8_t var_row[4];
	bool wread;             /* sfu: nop r4; mul0: r(wdst), sfu, #1 (1/w, tegra.mfu.w_reg) */
	uint8_t wdst;
} tfp_minst;

typedef struct tfp_exec {
	tfp_minst m[3];
	uint8_t nm;
	bool tex, tex_bias;
	uint8_t tex_sampler;
	bool fetch;             /* PSEQ 0x0081000A: RT1's pixel into r2, r3 of the row */
	tfp_packet p[3];
	bool dw;
} tfp_exec;

typedef struct tfp_ival { int32_t lo, hi, owner; } tfp_ival;   /* owner: the op whose result is held in place, -1 */
typedef struct tfp_ilist { tfp_ival *v; size_t n, cap; } tfp_ilist;

typedef struct tfp_value {
	int32_t def_t, last_t;  /* schedule times; -1 = not placed / unread */
	int16_t reg;            /* allocated register (0..23), -1 none */
	int8_t fix;             /* read in place from this row register (an MFU/TEX/PSEQ result), -1 no */
	uint8_t half;           /* fix: TO_FP20 or the FX10 half */
	bool same_exec;         /* fix: readable only in the EXEC that wrote it (a texel, a fetched pixel) */
	int32_t hold;           /* fix: its interval in fixed[fix] */
	int32_t owner;          /* fix: the op that wrote it */
} tfp_value;

typedef struct tfp_sched {
	unsigned rows;
	tfp_exec ex[TFP_MAX_EXEC];
	unsigned nexec;         /* EXECs used */
	unsigned dw_exec;
	tfp_value *val;
	tfp_ilist fixed[16];    /* row registers held by MFU/TEX/DW traffic */
	tfp_ilist busy[TFP_NREGS];
	unsigned packets, minsts, slots;
	int32_t window;         /* how far before the latest placed op a later op may go; <0 any */
	int32_t frontier;       /* latest definition time so far */
	tfp_upool *up;          /* constants in FP_CONST (owned) */
	const uint8_t *copy;    /* per op: 1 = its MFU/TEX/PSEQ results are copied out (NULL: all are) */
	uint8_t *blocked;       /* per op: its in-place hold moved another placement (owned) */
	int32_t conflict;       /* after a failed schedule: the op whose in-place result a reader missed, -1 */
	int32_t cur;            /* the op being placed */
	uint16_t *uses;         /* per value: operands of live ops, outputs and kill reading it */
} tfp_sched;

/* Schedule times (tegra_sched.c's time line) and hold bounds: a value
 * written at w (end of w) and last read at r holds [2w+1, 2r]. */
static inline int32_t tfp_t_mfu(unsigned e, unsigned m) { return (int32_t)(8 * e + m); }
static inline int32_t tfp_t_tex(unsigned e) { return (int32_t)(8 * e + 3); }
static inline int32_t tfp_t_alu(unsigned e, unsigned p) { return (int32_t)(8 * e + 4 + p); }
static inline int32_t tfp_t_dw(unsigned e) { return (int32_t)(8 * e + 7); }
static inline bool tfp_plain(const tfp_opnd *o) { return !o->neg && !o->abs && !o->m1 && !o->x2; }
static inline int32_t tfp_hold_lo(int32_t w) { return 2 * w + 1; }
static inline int32_t tfp_hold_hi(int32_t r) { return 2 * r; }
/* Is row register reg free of holds over [lo, hi] but the one numbered skip (-1 none)? */
bool tfp_fixed_free_but(const tfp_sched *S, unsigned reg, int32_t lo, int32_t hi, int32_t skip);
/* tegra_sched_post.c: after placement, reads of in-place values become
 * row-register operands, the colour store reads the row copies or takes
 * the last operation's result (fold/fuse); the cost of a schedule. */
void tfp_rewrite_inplace(tfp_sched *S, uint32_t nval);
void tfp_fold_store_copies(tfp_sched *S);
void tfp_fuse_store(tfp_sched *S);
unsigned tfp_sched_cycles(const tfp_sched *S);

/* Places every live operation (rows = alu_buffer_size) and allocates the
 * values to registers.  Refuses (limits, registers) what does not fit. */
bool tegra_schedule(const tfp_prog *p, unsigned rows, int32_t window, const uint8_t *copy, tfp_sched *S,
                    ir_error *e);
/* The shortest of the schedules with MFU/TEX/PSEQ results read in place
 * (copied only where a reader cannot reach them) and with all of them
 * copied (tegra_sched_post.c); false with *e from the all-copied one. */
bool tegra_schedule_best(const tfp_prog *p, unsigned rows, int32_t window, tfp_sched *S, ir_error *e);
void tfp_sched_free(tfp_sched *S);

/* ---- emission (tegra_emit.c) ---- */

#endif

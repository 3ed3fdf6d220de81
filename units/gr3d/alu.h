/* ALU: the Tegra GR3D fragment ALU (tegra-fp.md §2.4, §2.6): per EXEC up to
 * 3 packets of 4 scalar slots computing rA*rB op rC*rD (MAD, MUL, MIN, MAX,
 * CSEL) with operand modifiers, result scale, saturate, condition codes,
 * (this)/(other) accumulation, embedded constants and kill.
 *
 * Packets are compiled once per draw (alu_compile, units/gr3d/alu_plan.c) into
 * operand descriptors with constants (#0/#1, imm0..2, register 74) folded
 * and a plan per slot (how the result is formed, whether its rounding can be
 * skipped, a constant result, a register copy) and per EXEC (the batch view's
 * reads and copies, packet and slot counts), so the per-quad loop does no
 * decoding.  units/gr3d/alu_slot.h holds what the run and the plan share. */
#ifndef ULP_UNITS_ALU_H
#define ULP_UNITS_ALU_H

#include "units/gr3d/gr3d_quad.h"

enum alu_counter { ALU_CTR_PACKETS, ALU_CTR_INSTRUCTIONS, ALU_CTR_KILLS, ALU_CTR_COUNT };
extern const sim_counter_def ALU_COUNTERS[ALU_CTR_COUNT];

typedef struct alu_operand {
	uint8_t kind;                 /* enum alu_operand_kind (alu.c) */
	uint8_t index;
	uint8_t fx;                   /* 0 FP20, 1 FX10 .l, 2 FX10 .h */
	bool mods, abs, x2, m1, neg;
	bool cur;                     /* kind ALU: reads this packet's earlier slot
	                               * (tegra.alu.alu_reg_same_packet) */
	bool shadow;                  /* an FP20 row read: may see TEX's coordinates */
	bool row;                     /* a row register */
	bool view;                    /* read through the batch view (plan_views) */
	/* the batch (alu_batch_plan): a register read whose words an earlier read of its
	 * packet took already (the same lane register, the same FX10 half), as entry
	 * dup - 1 of the packet's store; keep: the first such read, which fills entry
	 * keep - 1 (0: neither) */
	uint8_t keep, dup;
	uint16_t off;                 /* row, global, cond: byte offset of its four words in gr3d_quad
	                               * (a view read's: the batch view's, plan_views) */
	double k;                     /* folded constant (kind CONST) */
	/* the modifiers as arithmetic: |v| (sign mask), *2 or *1, -1 or -0, sign flip */
	uint64_t abs_mask, neg_mask;
	double mul, sub;
} alu_operand;

typedef struct alu_slot {
	alu_operand a, b, c, d;
	uint8_t opcode, cc, scale;
	bool add_disable, saturate;
	uint8_t dst_cls, dst_index;
	bool write_low, write_high;
	/* the plan (alu_compile) */
	uint8_t form;                 /* enum alu_form (alu_slot.h): how the result is formed */
	bool exact;                   /* the result is one of its operands as read: rounded
	                               * only when a word read is not a normal FP20 number */
	uint8_t fx10_shift;           /* an FX10 half write: 0 (.l) or 10 (.h) */
	bool pair_next;               /* this slot and the next write the two FX10 halves
	                               * of one row register: one pass writes both */
	bool reg_copy;                /* copies a register operand: formed in binary32
	                               * lanes (alu.c copy_reg) */
	uint8_t copy_src;             /* its operand: 0 rA, 1 rB, 2 rC */
	uint8_t copy_opd;             /* and its byte offset in the slot (offsetof(alu_slot, a), ...) */
	uint16_t copy_off;            /* byte offset of the operand's four words in gr3d_quad: the
	                               * register's, or the batch view's (plan_views) */
	uint8_t wr;                   /* enum alu_wr (alu_slot.h): how a value formed in binary32
	                               * lanes (a copy) is written */
	uint16_t wr_off;              /* WR_FP20, WR_FX10: byte offset of the destination's words */
	bool unit01;                  /* saturated or a condition, in no group: every value is
	                               * in [-0, 1] or a NaN (alu_lanes.h fx10_unit_lanes) */
	/* a copy as straight-line steps (alu.c copy_packet, planned by plan_reg_copy): its
	 * operand's FX10 half (0: FP20), abs and negate as bit masks, the addend (-0: none,
	 * which gives every number back) and the clamp (0 and 1 saturated, else -inf, inf) */
	uint8_t cp_fx, cp_index;      /* (and the row it reads, when cp_shadow: an FP20 row
	                               * read, which may see TEX's coordinates) */
	bool cp_shadow;
	bool cp_const;                /* a constant copy_packet forms as a copy (alu.c plan_const_copy) */
	bool cp_nop;                  /* a constant (FORM_CONST) whose write is discarded (lp, a
	                               * read-only register), after the last copy of its packet:
	                               * copy_packet neither forms nor writes it (slot.xy is its
	                               * aluK value) */
	_Alignas(16) uint32_t cp_and[4];    /* (each on four lanes: one load) */
	_Alignas(16) uint32_t cp_xor[4];
	_Alignas(16) float cp_add[4];
	_Alignas(16) float cp_lo[4];
	_Alignas(16) float cp_hi[4];
	bool unread;                  /* no slot reads its aluK value and it is written as
	                               * FP20 (a row or global register): the encoder rounds
	                               * it, so alu_slot_result does not (plan_unread) */
	double xy;                    /* FORM_MAD_K: the constant rC*rD (-0 for MUL);
	                               * FORM_CONST: the result */
} alu_slot;

typedef struct alu_packet {
	alu_slot slot[4];
	uint8_t nslots;               /* 3 when slot 3 holds constants */
	int8_t group_head[4];         /* (this)/(other) group of each slot, -1 none */
	bool groups;
	bool reads_prev;              /* some operand reads the previous packet's aluK */
	bool vectors;                 /* some slot is neither a copy nor a constant: the quad's
	                               * run forms the slots as vectors (alu.c q_slots) */
	bool copies;                  /* every slot is a copy written from its binary32 lanes,
	                               * in no group (alu.c copy_packet, planned by alu_init) */
	bool copy_vals;               /* and the next packet reads its aluK values */
	bool copy_view;               /* and some copy is an FP20 row read (alu_slot.cp_shadow) */
	uint8_t copy_n;               /* and its copies: slots 0..copy_n-1; the slots after are
	                               * constants whose writes are discarded (alu_slot.cp_nop) */
	uint8_t kern;                 /* and it runs as alu_unit.kern[kern - 1] (0: not) */
} alu_packet;

/* A packet of copies (alu_packet.copies, no aluK value read after it) as one
 * kernel on eight lanes, two slots at a time (alu_copy.c): lane 4k + p is
 * slot k's pixel p; each per-slot choice planned into lanes. */
enum { ALU_KERN_MAX = 8 };
typedef struct alu_copy_kern {
	_Alignas(32) uint32_t fxr[16];    /* ~0: the slot reads an FX10 half (else FP20) */
	_Alignas(32) uint32_t rsh[16];    /* and its shift (0 .l, 10 .h) */
	_Alignas(32) uint32_t am[16], xm[16];   /* abs, negate as bit masks (alu_slot.cp_and, cp_xor) */
	_Alignas(32) float add[16], lo[16], hi[16];   /* the addend, the clamp (cp_add, cp_lo, cp_hi) */
	_Alignas(32) uint32_t wfx[16];    /* ~0: written as an FX10 half (else an FP20 word) */
	_Alignas(32) uint32_t wsh[16];    /* and the half's shift */
	uint16_t off[4];                  /* each slot's four words in gr3d_quad (alu_slot.copy_off) */
	uint16_t w_off[4];                /* the writes, in slot order: the register's words, */
	uint32_t w_keep[4];               /* the bits kept, */
	uint8_t w_slot[4];                /* the slot written, */
	bool w_pair[4];                   /* and its next slot's code ORed in (alu_slot.pair_next) */
	uint8_t nw, npairs;
	uint8_t rd[2], wr[2];             /* slot pair h's reads (1 FP20, 2 FX10, 3 both) and writes
	                                   * (1 FP20, 2 FX10, 3 both) */
	bool unit01;                      /* every FX10 write's value is in [-0, 1] (fx10_lanes_unit) */
	bool shadow_ok;                   /* no FP20 row read: runs with a pre-fetch view */
	uint16_t view_rows;               /* the row registers it writes (bit i: r<i>), whose views
	                                   * its writes end for the live pixels */
	bool prod;                        /* a packet of products (FORM_MAD_K) slot by slot, not copies:
	                                   * of the lanes only wfx and wsh, lane 4k, and the writes */
	uint64_t radd, rodd;              /* and fp20.round's increment (fp20_round_add) */
} alu_copy_kern;

typedef struct alu_unit {
	gr3d_stage s;
	/* FX10 writes in binary32 lanes (fx10.round nearest-away or truncate):
	 * the rounding increment and the limits of |n| (fx10.overflow) */
	bool batch_view;              /* tegra.alu.batch_view with more than one row */
	bool fx10_lanes;
	float fx10_half;
	float fx10_lim_pos, fx10_lim_neg;   /* for v >= 0 and v < 0 (alu.c fx10_lanes) */
	bool subnormals;              /* tegra.fp20.read_subnormals */
	bool quad_vectors;            /* alu_exec forms slots as vectors (alu.c q_slots; not
	                               * arith=exact; tests turn it off for the reference) */
	bool avx2;                    /* the host runs AVX2: q_slots' build for it */
	uint8_t packets[TEGRA_FP_MAX_EXEC];      /* EXEC e's ALU packets (its schedule's count) */
	uint8_t slots[TEGRA_FP_MAX_EXEC];        /* and their slots */
	uint16_t view_load[TEGRA_FP_MAX_EXEC];   /* row registers EXEC e copies into the view */
	alu_packet pk[TEGRA_FP_MAX_EXEC][TEGRA_FP_MAX_PER_EXEC];
	alu_copy_kern kern[ALU_KERN_MAX];  /* the packets run as kernels (alu_packet.kern) */
	unsigned nkern;
	bool kexec[TEGRA_FP_MAX_EXEC];     /* EXEC e is one such packet: alu_exec runs it */
	/* EXEC e on a batch's lanes (alu_batch.c): the lane registers it reads
	 * and writes, and whether it can run there at all */
	uint64_t lane_rd[TEGRA_FP_MAX_EXEC], lane_wr[TEGRA_FP_MAX_EXEC];
	bool lane_ok[TEGRA_FP_MAX_EXEC];
} alu_unit;

/* Compiles and plans every packet of ctx->prog (call after ctx is
 * complete; units/gr3d/alu_plan.c). */
void alu_init(alu_unit *a, gr3d_ctx *ctx);

/* One packet.  shortcuts = false keeps every slot's full FP20 rounding and
 * its own register write: the reference the shortcuts are tested against
 * (tests/units/test_alu_plan.c). */
void alu_compile(const gr3d_ctx *c, const tegra_alu_packet *in, alu_packet *out, bool shortcuts);

/* Run one compiled packet on the live pixels of a quad (a: the unit, for
 * its FX10 write set-up).  alu[k][p] holds the aluK values on entry (previous packet) and
 * on return (this packet).  wc, when not NULL, receives uniform writes.
 * values: every slot's aluK value rounded as the hardware holds it; else
 * (as a run does) a slot the plan marks unread leaves its value unrounded.
 * Returns the slots executed. */
unsigned alu_run_packet(const alu_unit *a, const gr3d_ctx *c, gr3d_ctx *wc, const alu_packet *p,
                        gr3d_quad *q, double alu[4][GR3D_PIXELS], uint64_t *kills, bool values);

/* A batch of quads' registers in lanes (alu_batch.c): lane 4k + p is
 * pixel p of quad q[k]; lane registers 0..31 are r0..r15, g0..g7, cr0..cr7,
 * 32..47 the batch view (gr3d_quad's register block, gr3d_quad_reg).  A register's value is in
 * the lanes, in the quads, or both (in_lanes, in_quads): the ALU batch reads
 * and writes the lanes, the other units the quads, and each side takes the
 * registers it needs from the other only when they changed there. */
enum { ALU_BATCH_MAX = 16, ALU_LANE_REGS = GR3D_QUAD_REGS, ALU_LANE_VIEW = GR3D_QUAD_VIEW };
typedef struct alu_lanes {
	gr3d_quad *q[ALU_BATCH_MAX];
	unsigned nq;
	uint64_t in_lanes, in_quads;  /* bit i: lane register i's value is there */
	uint32_t live[ALU_BATCH_MAX * GR3D_PIXELS];   /* ~0: the pixel is live (not killed) */
	uint32_t reg[ALU_LANE_REGS][ALU_BATCH_MAX * GR3D_PIXELS];
} alu_lanes;

/* Quads q[0..nq-1] (1..ALU_BATCH_MAX, their kills final), every register in
 * the quads. */
void alu_lanes_begin(alu_lanes *l, gr3d_quad *const q[], unsigned nq);
/* The registers of regs (bit i: lane register i) into the quads. */
void alu_lanes_to_quads(alu_lanes *l, uint64_t regs);

/* EXEC e's batch view and packets on the batch at once, with the values and
 * writes alu_exec gives each quad; no counting.  Returns false, having done
 * nothing, where the batch does not apply: arith=exact, a kill or uniform
 * write, pixels whose pre-fetch views name different registers (hand-made
 * quads only; units/gr3d/ahead.h runs alu_exec then). */
bool alu_batch_exec(const alu_unit *a, alu_lanes *l, unsigned e);
/* Does a slot of the program write a destination of class cls (enum
 * tegra_reg_class: a uniform, a kill)? */
bool alu_writes(const alu_unit *a, unsigned cls);
/* Plans alu_batch_exec's EXECs (alu_init calls it). */
void alu_batch_plan(alu_unit *a);

#endif

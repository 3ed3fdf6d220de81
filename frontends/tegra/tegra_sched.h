/* Tegra fragment backend: the scheduler's shared helpers, private to
 * tegra_sched.c (time line, holds, ALU/MFU/SFU placement), tegra_packet.c
 * (packets and their constants), tegra_sched_tex.c (TEX and PSEQ fetches)
 * and tegra_sched_post.c (the colour store, in-place rewriting, the choice
 * of schedule).  Times and holds: tegra_int.h. */
#ifndef ULP_FRONTENDS_TEGRA_SCHED_H
#define ULP_FRONTENDS_TEGRA_SCHED_H

#include "frontends/tegra/tegra_int.h"

/* ---- tegra_sched.c ---- */
bool tfp_ilist_add(tfp_ilist *l, int32_t lo, int32_t hi);
/* A hold of row register reg that op owner's in-place result keeps: its index, -1 out of memory. */
int32_t tfp_hold_add(tfp_sched *S, unsigned reg, int32_t lo, int32_t hi, int32_t owner);
bool tfp_fixed_free(const tfp_sched *S, unsigned reg, int32_t lo, int32_t hi);
/* Earliest time operand o can be read (not above the hoisting window). */
int32_t tfp_ready(const tfp_sched *S, const tfp_opnd *o);
/* Can the ALU of EXEC e read every operand of s (the batch view)? */
bool tfp_alu_sees_slot(const tfp_sched *S, const tfp_slot *s, unsigned e);
/* First packet of EXEC e at or after t with room for s; -1 none. */
int tfp_find_packet(const tfp_sched *S, unsigned e, int32_t t, const tfp_slot *s);
/* Row register k (0..3) of EXEC e's row. */
unsigned tfp_row_reg(const tfp_sched *S, unsigned e, unsigned k);
/* MAD dst, src, #1, #0 (the destination left to the caller). */
tfp_slot tfp_copy_slot(tfp_opnd src);
tfp_opnd tfp_fixed(unsigned reg, uint8_t half);
/* An MFU instruction of EXEC e with var c (c < 4) or the SFU (c == 4) free; -1 none. */
int tfp_find_minst(const tfp_sched *S, unsigned e, unsigned c);
/* Op op's results are read in place (not copied out). */
bool tfp_inplace(const tfp_sched *S, int32_t op);
/* Value v lives in place in reg (half) from def_t; its hold [lo, hi] is *hold, added when -1. */
bool tfp_set_inplace(tfp_sched *S, int32_t v, unsigned reg, uint8_t half, bool same_exec, int32_t def_t,
                     int32_t lo, int32_t hi, int32_t owner, int32_t *hold);
/* Can a read of o at t (by the ALU of EXEC e when alu) reach its in-place
 * value?  Not: S->conflict names its op.  tfp_extend: its hold reaches t. */
bool tfp_reach(tfp_sched *S, const tfp_opnd *o, unsigned e, int32_t t, bool alu);
void tfp_extend(tfp_sched *S, const tfp_opnd *o, int32_t t);
/* The slot defining o when o is an ALU value with one reader that may be
 * written into a row register instead (*ed its EXEC), else NULL; then
 * tfp_retarget_to makes that slot write reg. */
tfp_slot *tfp_retarget(tfp_sched *S, const tfp_opnd *o, unsigned *ed);
void tfp_retarget_to(tfp_sched *S, tfp_slot *d, unsigned reg);

/* ---- tegra_packet.c ---- */
/* Can slot s join packet pk (embedded constants or FP_CONST words)? */
bool tfp_packet_fits(const tfp_sched *S, const tfp_packet *pk, const tfp_slot *s);
void tfp_packet_add(const tfp_sched *S, tfp_packet *pk, const tfp_slot *s);

/* ---- tegra_sched_tex.c ---- */
bool tfp_place_tex(tfp_sched *S, const tfp_op *o);
bool tfp_place_fetch(tfp_sched *S, const tfp_op *o);

/* ---- tegra_sched_post.c ---- */
/* The colour's FX10 halves, the kill flag and the store, in one EXEC. */
bool tfp_place_final(tfp_sched *S, const tfp_prog *p);

#endif

/* ALU: the Tegra GR3D fragment ALU (tegra-fp.md §2.4, §2.6): per EXEC up to
 * 3 packets of 4 scalar slots computing rA*rB op rC*rD (MAD, MUL, MIN, MAX,
 * CSEL) with operand modifiers, result scale, saturate, condition codes,
 * (this)/(other) accumulation, embedded constants and kill. */
#ifndef ULP_UNITS_ALU_H
#define ULP_UNITS_ALU_H

#include "units/gr3d_quad.h"

enum alu_counter { ALU_CTR_PACKETS, ALU_CTR_INSTRUCTIONS, ALU_CTR_KILLS, ALU_CTR_COUNT };
extern const sim_counter_def ALU_COUNTERS[ALU_CTR_COUNT];

typedef struct alu_unit {
	gr3d_stage s;
} alu_unit;

void alu_init(alu_unit *a, gr3d_ctx *ctx);

/* Run one packet on one pixel (exposed for the unit tests).  alu[4] holds
 * the aluK values on entry (previous packet) and on return (this packet).
 * Returns the number of slots executed. */
unsigned alu_run_packet(const gr3d_ctx *c, const tegra_alu_packet *p, gr3d_pixel *px,
                        unsigned x, unsigned y, double alu[4], uint64_t *kills);

#endif

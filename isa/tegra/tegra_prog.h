/* A Tegra GR3D fragment program: the words as grate uploads them
 * (tegra-fp.md §2.5), its globals, constants and uniform names; and the
 * decoded per-EXEC form that the clocked units execute from.
 *
 * Text forms: tegra_asm.h (grate assembly in), tegra_disasm.h (out),
 * fp_words.h (tegra-fp-words v1), fp_container.h (binary .fp). */
#ifndef ULP_ISA_TEGRA_PROG_H
#define ULP_ISA_TEGRA_PROG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "isa/tegra/tegra_isa.h"

/* Limits from the offset-register widths (tegra-fp.md §4). */
enum {
	TEGRA_FP_MAX_EXEC = 64,
	TEGRA_FP_MAX_MFU = 64,
	TEGRA_FP_MAX_ALU_PACKETS = 64,
	TEGRA_FP_NUM_CONST = 32,
	TEGRA_FP_MAX_PER_EXEC = 3,
	/* grate's lexer refuses strings longer than 255 bytes with the quotes */
	TEGRA_FP_UNIFORM_NAME_MAX = 253,
	TEGRA_FP_PSEQ_OUT_WINDOW = 0x12C,   /* PSEQ_CTL MAX_OUT (tegra-fp.md §5) */
};

enum tegra_uniform_kind { TEGRA_UNIFORM_FP20 = 0, TEGRA_UNIFORM_FX10_LOW, TEGRA_UNIFORM_FX10_HIGH };

/* One named half of a uniform slot; half 2i = [i].l, 2i+1 = [i].h.
 * A [i] = "x" (FP20) name covers both halves with kind FP20. */
typedef struct tegra_fp_uniform_half {
	bool used;
	uint8_t kind;
	char name[TEGRA_FP_UNIFORM_NAME_MAX + 1];
} tegra_fp_uniform_half;

typedef struct tegra_fp_program {
	uint32_t alu_buffer_size;      /* 0..4 as parsed (grate accepts 0) */
	uint32_t pseq_to_dw_exec_nb;
	bool discards_fragment;        /* some ALU writes kill (register 0x40f) */
	unsigned exec_count, mfu_count, alu_packet_count;
	uint32_t pseq[TEGRA_FP_MAX_EXEC];
	uint32_t mfu_sched[TEGRA_FP_MAX_EXEC];
	uint32_t mfu[TEGRA_FP_MAX_MFU][2];          /* [0] uploaded first (high) */
	uint32_t tex[TEGRA_FP_MAX_EXEC];
	uint32_t alu_sched[TEGRA_FP_MAX_EXEC];
	uint32_t alu[TEGRA_FP_MAX_ALU_PACKETS][8];  /* slot k: [2k] first, [2k+1] second */
	uint32_t alu_complement[TEGRA_FP_MAX_EXEC];
	uint32_t dw[TEGRA_FP_MAX_EXEC];
	uint32_t constants[TEGRA_FP_NUM_CONST];     /* FP_CONST initial values (full 32 bits) */
	tegra_fp_uniform_half uniforms[2 * TEGRA_FP_NUM_CONST];
} tegra_fp_program;

/* Words in upload order: 6N + 2M + 8P. */
size_t tegra_fp_word_count(const tegra_fp_program *p);

/* Upload-order item: register and label ("PSEQ", "MFU_HI", "ALU2_LO", ...),
 * and the EXEC / MFU / packet index the word belongs to. */
typedef struct tegra_fp_upload_word {
	uint16_t reg;
	const char *label;
	const char *index_kind;   /* "exec", "mfu", "packet" */
	unsigned index;
	uint32_t value;
} tegra_fp_upload_word;

/* Word i (0 <= i < tegra_fp_word_count) of the upload stream. */
tegra_fp_upload_word tegra_fp_upload_at(const tegra_fp_program *p, size_t i);
/* Sets word i; the inverse of tegra_fp_upload_at (counts must be set). */
void tegra_fp_upload_set(tegra_fp_program *p, size_t i, uint32_t value);

/* The draw-time register values grate derives from the globals (§2.5). */
uint32_t tegra_fp_reg_0520(const tegra_fp_program *p);
uint32_t tegra_fp_reg_0546(const tegra_fp_program *p);
/* false when alu_buffer_size is 0 (grate would divide by zero). */
bool tegra_fp_reg_0e20(const tegra_fp_program *p, uint32_t *value);

/* Structural checks for programs read from words/.fp files: counts within
 * limits, schedules inside the uploaded instructions, uniform names sane.
 * file may be NULL; errors are reported with that file name. */
bool tegra_fp_validate(const tegra_fp_program *p, const char *file, ulp_diag *d);

/* True when the schedules are laid out as grate's assembler lays them out:
 * each EXEC's MFU instructions and ALU packets follow the previous EXEC's,
 * an EXEC without any has schedule word 0, and every uploaded instruction
 * belongs to exactly one EXEC.  Only such programs can be written in grate's
 * language, so only they re-assemble from a disassembly. */
bool tegra_fp_is_canonical(const tegra_fp_program *p);

/* ---- decoded program ----------------------------------------------------- */

typedef struct tegra_exec {
	tegra_pseq_inst pseq;
	tegra_sched mfu_sched;
	tegra_mfu_inst mfu[TEGRA_FP_MAX_PER_EXEC];
	tegra_tex_inst tex;
	tegra_sched alu_sched;
	tegra_alu_packet alu[TEGRA_FP_MAX_PER_EXEC];
	uint32_t alu_complement;   /* t30 ALU_P2CX_DATA (REFERENCE 0..15, MASK 16..31) */
	tegra_dw_inst dw;
} tegra_exec;

typedef struct tegra_fp_decoded {
	uint32_t alu_buffer_size, pseq_to_dw_exec_nb;
	bool discards_fragment;
	unsigned exec_count;
	tegra_exec exec[TEGRA_FP_MAX_EXEC];
	uint32_t constants[TEGRA_FP_NUM_CONST];
} tegra_fp_decoded;

/* Validates and decodes; out is fully overwritten. */
bool tegra_fp_decode(const tegra_fp_program *p, tegra_fp_decoded *out,
                     const char *file, ulp_diag *d);

/* arith=exact (docs/exact.md): the binary32 each constant source of a
 * compiled program was encoded from, kept beside the program (the words
 * stay as they are): source j (rA, rB, rC) of slot s of ALU packet p, an
 * embedded imm0..imm2 or #0/#1, is k[p][s][j] where bit 3s + j of mask[p]
 * is set; words[p] is the packet as compiled.  The program's own FP_CONST
 * words likewise: constants[u] is uk[u] where bit u of umask is set. */
typedef struct tegra_fp_ximm {
	unsigned count;                                /* packets */
	float k[TEGRA_FP_MAX_ALU_PACKETS][4][3];
	uint16_t mask[TEGRA_FP_MAX_ALU_PACKETS];
	uint32_t words[TEGRA_FP_MAX_ALU_PACKETS][8];
	float uk[TEGRA_FP_NUM_CONST];
	uint32_t umask;
} tegra_fp_ximm;

/* Gives each decoded ALU packet of d its binary32 constants from x, where
 * the packet (d's EXEC schedules name its index) still has the words x was
 * made for; other packets keep none.  Only arith=exact reads them. */
void tegra_fp_apply_ximm(tegra_fp_decoded *d, const tegra_fp_ximm *x);

#endif

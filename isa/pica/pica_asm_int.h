/* Internal state of the PICA200 assembler (shared by pica_asm*.c only). */
#ifndef ULP_ISA_PICA_ASM_INT_H
#define ULP_ISA_PICA_ASM_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "isa/pica/pica_asm.h"
#include "isa/pica/pica_isa.h"
#include "isa/pica/shbin.h"

/* picasso's flat register numbering, used for allocation and for the
 * narrow/wide checks: v/o 0x00, r 0x10, c 0x20, i 0x80, b 0x88. */
enum {
	AR_R = 0x10, AR_C = 0x20, AR_I = 0x80, AR_B = 0x88, AR_END = 0x98,
	ASM_MAX_STACK = 32, ASM_MAX_CONST = 0x60, ASM_MAX_UNIFORM = 0x60,
	ASM_MAX_OUTPUT = 16, ASM_SW_DEFAULT = PICA_SWZ_IDENTITY << 1,
};

/* A parsed register operand. */
struct asm_opnd {
	char cls;          /* 'o' 'v' 'r' 'c' 'i' 'b' */
	int n;             /* index within the class */
	unsigned sw;       /* bit 0 negate, bits 8:1 swizzle byte */
	int idx;           /* enum pica_idx */
	int col;           /* column of the operand text */
};

struct asm_alias { char *name; char cls; int n; unsigned sw; };
struct asm_label { char *name; size_t pos; };
struct asm_reloc { size_t pos; char *name; int line, col; const char *file; };
struct asm_proc { char *name; size_t pos, size; };
struct asm_guniform { char *name; int type; int pos, size; };

enum { BLK_PROC, BLK_FOR, BLK_IF, BLK_ARRAY };
struct asm_block { int type; size_t pos, else_pos; char *name; int line; };

struct asm_ualloc { int start, end, bound, tend; };
struct asm_ubundle { struct asm_ualloc f, i, b; };

struct asm_dvle {
	const char *file;
	char *entry;
	bool nodvle, is_gs, compat_gs, merge;
	uint16_t in_mask, out_mask;
	uint8_t gs_mode, fixed_start, var_num, fixed_num;
	uint64_t out_used;
	struct shbin_const consts[ASM_MAX_CONST]; size_t nconsts;
	struct shbin_output outs[ASM_MAX_OUTPUT]; size_t nouts;
	struct shbin_uniform *unif; size_t nunif, capunif;
	uint32_t main, endmain;
};

struct pica_asm {
	ulp_diag *d;
	bool auto_nop;
	/* global */
	uint32_t *code; size_t ncode, capcode;
	uint32_t desc[PICA_OPDESC_MAX], care[PICA_OPDESC_MAX];
	int ndesc;
	uint32_t mad_used;
	struct asm_proc *procs; size_t nprocs, capprocs;
	struct asm_reloc *prelocs; size_t nprelocs, capprelocs;
	struct asm_dvle **dvles; size_t ndvles, capdvles;
	struct asm_guniform *gunif; size_t ngunif, capgunif;
	struct asm_ubundle bundle[2];      /* [0] shared VS space, [1] GS space */
	bool last_was_end;
	char **strings; size_t nstrings, capstrings;   /* owned names */
	/* per file */
	const char *file;
	int line;
	const char *line_start;
	int stmt_col;                      /* column of the current statement */
	struct asm_dvle *cur;
	struct asm_label *labels; size_t nlabels, caplabels;
	struct asm_reloc *lrelocs; size_t nlrelocs, caplrelocs;
	struct asm_alias *aliases; size_t naliases, capaliases;
	struct asm_block stack[ASM_MAX_STACK]; int nstack;
	struct shbin_const arr[PICA_NUM_C]; int arr_n, arr_size;
	char *arr_name;
};

/* Grow *p (element size sz) so that n + 1 elements fit. */
bool asm_grow(struct pica_asm *a, void **p, size_t *cap, size_t n, size_t sz);
#define ASM_PUSH(a, arr, n, cap) asm_grow((a), (void **)&(arr), &(cap), (n), sizeof *(arr))
char *asm_strdup(struct pica_asm *a, const char *s);

/* Diagnostics at a column of the current line (pointer into the line). */
bool asm_err(struct pica_asm *a, const char *at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
bool asm_err_col(struct pica_asm *a, int col, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int asm_col(const struct pica_asm *a, const char *at);

/* Text helpers (pica_asm_parse.c). */
char *asm_trim(char *s);
bool asm_is_ident(const char *s);
/* Split s at commas into at most max fields (trimmed); returns the count or
 * -1 when there are more. */
int asm_split(char *s, char sep, char **out, int max);
bool asm_parse_int(struct pica_asm *a, char *s, long lo, long hi, long *out);
bool asm_parse_float(struct pica_asm *a, char *s, float *out);
/* Parse "[-]name[[idx]][.swz]".  allow_idx: an index register may appear. */
bool asm_parse_opnd(struct pica_asm *a, char *s, bool allow_idx, struct asm_opnd *o);
int asm_parse_swizzle(const char *s);   /* swizzle byte or -1 */
struct asm_alias *asm_find_alias(struct pica_asm *a, const char *name);
int asm_flat(const struct asm_opnd *o);  /* picasso flat number */
uint8_t asm_mask_from_sw(unsigned sw, bool x_is_bit3);
bool asm_parse_cond(struct pica_asm *a, char *s, struct pica_inst *in);

/* DVLE of the current file (created on first use). */
struct asm_dvle *asm_dvle(struct pica_asm *a);

/* Directives (pica_asm_dir.c) and instructions (pica_asm_inst.c). */
bool asm_directive(struct pica_asm *a, char *name, char *args);
bool asm_instruction(struct pica_asm *a, char *name, char *args);
void asm_padding_nop(struct pica_asm *a);

#endif

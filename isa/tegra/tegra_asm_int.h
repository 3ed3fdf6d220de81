/* Internal to the Tegra fragment assembler: tokens of grate's language.
 * The lexer reproduces grate's flex scanner (grate-driver/grate
 * src/libgrate/fragment_asm.l): case-insensitive, longest match, earliest
 * rule on ties, and no word boundaries ("MADr0" is MAD then r0). */
#ifndef ULP_ISA_TEGRA_ASM_INT_H
#define ULP_ISA_TEGRA_ASM_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"

enum tegra_tok {
	TK_EOF = 0,
	TK_ASM, TK_CONSTANTS, TK_UNIFORMS, TK_FLOAT, TK_HEX, TK_EXEC, TK_NEG, TK_ABS,
	TK_SAT, TK_NUMBER, TK_STRING,
	TK_COMMA, TK_SEMI, TK_DOT, TK_LPAREN, TK_RPAREN, TK_LBRACKET, TK_RBRACKET,
	TK_EQUALS, TK_MINUS, TK_STAR,
	TK_PSEQ, TK_MFU, TK_TEX, TK_ALU, TK_ALUX, TK_ALU_COMPLEMENT, TK_DW,
	TK_NOP, TK_SFU_OP, TK_UNK,
	TK_TRAM_ROW, TK_ROW, TK_GLOBAL, TK_ALU_RESULT, TK_IMM, TK_CONST01, TK_UNIFORM,
	TK_CR, TK_LP, TK_POSX, TK_POSY, TK_PFACE, TK_KILL, TK_RB, TK_RC,
	TK_ALU_OP, TK_FX10, TK_FP20, TK_LOW, TK_HIGH,
	TK_THIS, TK_OTHER, TK_EQ, TK_GT, TK_GE, TK_X2, TK_X4, TK_DIV2,
	TK_ALU_BUFFER_SIZE, TK_PSEQ_DW_EXEC_NB,
	TK_IPL, TK_SFU_CLAUSE, TK_MUL0, TK_MUL1, TK_MUL_DST, TK_BAR, TK_MUL_SRC,
	TK_SFU_SRC, TK_BAR0, TK_BAR1, TK_SAMPLER, TK_TEX_OP, TK_TXB_OP,
	TK_STORE, TK_RT, TK_STENCIL,
	TK_ERROR,          /* any other character: grate's T_SYNTAX_ERROR */
};

/* grate's string buffer is 256 bytes: longer tokens (quotes included) fail */
enum { TEGRA_LEX_STRING_MAX = 255 };

/* ALU opcode token values: low 2 bits opcode, bit 2 addition disable (MUL) */
enum { TK_ALU_OP_MUL = 4 };

typedef struct tegra_token {
	int kind;             /* enum tegra_tok */
	uint64_t u;           /* numbers, hex, register indices, op codes */
	float f;              /* TK_FLOAT after grate's atof-to-float */
	const char *text;     /* into the source */
	size_t len;
	int line, col;
} tegra_token;

typedef struct tegra_lexer {
	const char *src;
	size_t len, pos;
	int line;
	size_t line_start;
} tegra_lexer;

void tegra_lex_init(tegra_lexer *lx, const char *src, size_t len);
/* Next significant token (comments, blanks and newlines skipped). */
tegra_token tegra_lex_next(tegra_lexer *lx);
/* Printable description of a token for error messages, into buf. */
const char *tegra_tok_describe(const tegra_token *t, char *buf, size_t n);

/* Parser state shared by tegra_asm_parse.c and tegra_asm_alu.c. */
struct tegra_fp_program;
typedef struct tegra_asm_ctx {
	tegra_lexer lx;
	tegra_token cur;
	const char *file;
	ulp_diag *d;
	struct tegra_fp_program *p;
} tegra_asm_ctx;

void tg_next(tegra_asm_ctx *c);
/* Error helpers: fill c->d and return false. */
bool tg_err_at(tegra_asm_ctx *c, const tegra_token *t, const char *msg);
bool tg_syntax_error(tegra_asm_ctx *c);
/* Consume the current token when it is of kind. */
bool tg_accept(tegra_asm_ctx *c, int kind);
bool tg_expect(tegra_asm_ctx *c, int kind);
bool tg_take(tegra_asm_ctx *c, int kind, tegra_token *t);
/* "ALU:" and its slot lines into the next packet; count/first track the
 * EXEC's packets (tegra_asm_alu.c). */
bool tg_parse_alu_packet(tegra_asm_ctx *c, unsigned *count, unsigned *first);

#endif

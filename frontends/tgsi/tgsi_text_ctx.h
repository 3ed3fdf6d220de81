/* Internal to the TGSI text parser (tgsi_text.c, tgsi_text_decl.c): the
 * cursor context and the shared lexing helpers.  Not for other modules. */
#ifndef ULP_FRONTENDS_TGSI_TEXT_CTX_H
#define ULP_FRONTENDS_TGSI_TEXT_CTX_H

#include "frontends/tgsi/tgsi.h"

typedef struct tt_ctx {
	const char *text;               /* NUL-terminated copy of the input */
	const char *cur;
	const char *file;
	ulp_diag *d;
	tgsi_shader *sh;
	tgsi_parse_options opts;
	unsigned implied_array_size;    /* "[]" in DCL: GS inputs, TESS_* (32) */
	/* line:col cache: position lc_pos is on line lc_line starting at lc_line_start */
	const char *lc_pos, *lc_line_start;
	int lc_line;
	unsigned nest;                  /* open IF/UIF/BGNLOOP/SWITCH/BGNSUB */
} tt_ctx;

enum { TT_OK, TT_NONE, TT_OVERFLOW };

bool tt_is_digit(char c);
void tt_eat_opt_white(const char **p);
bool tt_eat_white(const char **p);
size_t tt_word_len(const char *p);
bool tt_match_whole(const char **p, const char *w);
int tt_match_table(const char **p, const char *(*name)(unsigned), unsigned count);
int tt_parse_int(const char **p, int32_t *v);
bool tt_uint_or_fail(tt_ctx *ctx, uint32_t *v, const char *what);
bool tt_fail_at(tt_ctx *ctx, const char *at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void tt_position(tt_ctx *ctx, const char *at, int *line, int *col);
bool tt_parse_opt_writemask(tt_ctx *ctx, uint8_t *mask);
int tt_parse_format(tt_ctx *ctx, const char **p, char *out);

char tt_upper(char c);
bool tt_expect_char(tt_ctx *ctx, char ch);

/* tgsi_text_decl.c: everything after "DCL". */
bool tt_parse_declaration(tt_ctx *ctx, const char *start);
/* tgsi_text_imm.c: everything after "IMM" / "PROPERTY". */
bool tt_parse_immediate(tt_ctx *ctx, const char *start);
bool tt_parse_property(tt_ctx *ctx, const char *start);

#endif

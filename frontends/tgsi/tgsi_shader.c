/* tgsi_shader allocation: growable arrays, one per statement kind, and the
 * statement order. */
#include <stdlib.h>
#include <string.h>

#include "frontends/tgsi/tgsi.h"

tgsi_shader *tgsi_shader_new(void)
{
	return calloc(1, sizeof(tgsi_shader));
}

void tgsi_shader_free(tgsi_shader *sh)
{
	if (!sh)
		return;
	free(sh->props);
	free(sh->decls);
	free(sh->imms);
	free(sh->insts);
	free(sh->order);
	free(sh);
}

/* Make room for one more element of size sz in *arr (count n, capacity *cap). */
static bool grow(void **arr, size_t n, size_t *cap, size_t sz)
{
	if (n < *cap)
		return true;
	size_t ncap = *cap ? *cap * 2 : 16;
	void *p = realloc(*arr, ncap * sz);
	if (!p)
		return false;
	*arr = p;
	*cap = ncap;
	return true;
}

static bool push_order(tgsi_shader *sh, enum tgsi_token_kind kind, size_t index)
{
	if (!grow((void **)&sh->order, sh->num_order, &sh->cap_order, sizeof *sh->order))
		return false;
	sh->order[sh->num_order].kind = (uint8_t)kind;
	sh->order[sh->num_order].index = (uint32_t)index;
	sh->num_order++;
	return true;
}

#define ADD_FN(fn, type, arr, num, cap, kind) \
	type *fn(tgsi_shader *sh) \
	{ \
		if (!grow((void **)&sh->arr, sh->num, &sh->cap, sizeof *sh->arr) || \
		    !push_order(sh, kind, sh->num)) \
			return NULL; \
		type *e = &sh->arr[sh->num++]; \
		memset(e, 0, sizeof *e); \
		return e; \
	}

ADD_FN(tgsi_shader_add_property, tgsi_property, props, num_props, cap_props, TGSI_TOKEN_PROPERTY)
ADD_FN(tgsi_shader_add_declaration, tgsi_declaration, decls, num_decls, cap_decls,
       TGSI_TOKEN_DECLARATION)
ADD_FN(tgsi_shader_add_immediate, tgsi_immediate, imms, num_imms, cap_imms, TGSI_TOKEN_IMMEDIATE)
ADD_FN(tgsi_shader_add_instruction, tgsi_instruction, insts, num_insts, cap_insts,
       TGSI_TOKEN_INSTRUCTION)

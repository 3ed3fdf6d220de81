/* TGSI printer in Mesa 22.3 tgsi_dump's exact format (reference tgsi.md §1.4):
 * header line, then every statement in the order it was read, with
 * "IMM[n]" renumbered, "% 3u: " instruction numbers and two spaces of
 * indentation per IF/ELSE/BGNLOOP/BGNSUB level.  FLT32 immediates print in
 * the notation they were read in ("%10.4f" or "0x%08x"), or one forced. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/tgsi/tgsi.h"

typedef struct dump_buf {
	char *s;
	size_t len, cap;
	bool failed;
} dump_buf;

static void put(dump_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(dump_buf *b, const char *fmt, ...)
{
	if (b->failed)
		return;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
	va_end(ap);
	if (n < 0) {
		b->failed = true;
		return;
	}
	if ((size_t)n >= b->cap - b->len) {
		size_t ncap = b->cap * 2 + (size_t)n + 64;
		char *p = realloc(b->s, ncap);
		if (!p) {
			b->failed = true;
			return;
		}
		b->s = p;
		b->cap = ncap;
		va_start(ap, fmt);
		vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
		va_end(ap);
	}
	b->len += (size_t)n;
}

/* Mesa's ENM(): the name, or the number when out of the table. */
static void put_enum(dump_buf *b, unsigned v, const char *(*name)(unsigned))
{
	const char *n = name(v);
	if (n)
		put(b, "%s", n);
	else
		put(b, "%u", v);
}

static const char swz_letter[] = "xyzw";

static void put_ind(dump_buf *b, const tgsi_ind_ref *ind, int32_t offset)
{
	put(b, "[%s[%d].%c", tgsi_file_name(ind->file), ind->index, swz_letter[ind->swizzle & 3]);
	if (offset != 0)
		put(b, "%s%d", offset > 0 ? "+" : "", offset);
	put(b, "]");
	if (ind->array_id)
		put(b, "(%u)", ind->array_id);
}

static void put_reg(dump_buf *b, const tgsi_reg_ref *r)
{
	put(b, "%s", tgsi_file_name(r->file));
	if (r->dimension) {
		if (r->dim_indirect)
			put_ind(b, &r->dim_ind, r->dim_index);
		else
			put(b, "[%u]", (unsigned)r->dim_index);
	}
	if (r->indirect)
		put_ind(b, &r->ind, r->index);
	else
		put(b, "[%u]", (unsigned)r->index);
}

static void put_mask(dump_buf *b, unsigned mask)
{
	if (mask == TGSI_WRITEMASK_XYZW)
		return;
	put(b, ".");
	for (int i = 0; i < 4; i++)
		if (mask & (1u << i))
			put(b, "%c", swz_letter[i]);
}

static void dump_property(dump_buf *b, const tgsi_property *p)
{
	put(b, "PROPERTY ");
	put_enum(b, p->name, tgsi_property_name);
	put(b, " ");
	switch (p->name) {
	case TGSI_PROPERTY_GS_INPUT_PRIM:
	case TGSI_PROPERTY_GS_OUTPUT_PRIM:
		put_enum(b, p->value, tgsi_primitive_name);
		break;
	case TGSI_PROPERTY_FS_COORD_ORIGIN:
		put_enum(b, p->value, tgsi_fs_coord_origin_name);
		break;
	case TGSI_PROPERTY_FS_COORD_PIXEL_CENTER:
		put_enum(b, p->value, tgsi_fs_coord_pixel_center_name);
		break;
	case TGSI_PROPERTY_NEXT_SHADER:
		put_enum(b, p->value, tgsi_processor_name);
		break;
	default:
		put(b, "%d", (int)p->value);
	}
	put(b, "\n");
}

static bool is_patch_semantic(unsigned s)
{
	return s == TGSI_SEMANTIC_PATCH || s == TGSI_SEMANTIC_TESSINNER ||
	       s == TGSI_SEMANTIC_TESSOUTER || s == TGSI_SEMANTIC_PRIMID;
}

static void dump_declaration(dump_buf *b, const tgsi_shader *sh, const tgsi_declaration *dc)
{
	/* Mesa tests the semantic name even when none was declared (0 = POSITION). */
	bool patch = is_patch_semantic(dc->semantic ? dc->semantic_name : 0);
	unsigned proc = sh->processor;
	put(b, "DCL %s", tgsi_file_name(dc->file));
	if (dc->file == TGSI_FILE_INPUT &&
	    (proc == TGSI_PROCESSOR_GEOMETRY ||
	     (!patch && (proc == TGSI_PROCESSOR_TESS_CTRL || proc == TGSI_PROCESSOR_TESS_EVAL))))
		put(b, "[]");
	if (dc->file == TGSI_FILE_OUTPUT && !patch && proc == TGSI_PROCESSOR_TESS_CTRL)
		put(b, "[]");
	if (dc->dimension)
		put(b, "[%u]", dc->index_2d);
	put(b, "[%u", dc->first);
	if (dc->first != dc->last)
		put(b, "..%u", dc->last);
	put(b, "]");
	put_mask(b, dc->usage_mask);
	if (dc->array)
		put(b, ", ARRAY(%d)", dc->array_id);
	if (dc->local)
		put(b, ", LOCAL");
	if (dc->semantic) {
		put(b, ", ");
		put_enum(b, dc->semantic_name, tgsi_semantic_name);
		if (dc->semantic_index != 0 || dc->semantic_name == TGSI_SEMANTIC_TEXCOORD ||
		    dc->semantic_name == TGSI_SEMANTIC_GENERIC)
			put(b, "[%u]", dc->semantic_index);
		if (dc->stream[0] || dc->stream[1] || dc->stream[2] || dc->stream[3])
			put(b, ", STREAM(%u, %u, %u, %u)", dc->stream[0], dc->stream[1], dc->stream[2],
			    dc->stream[3]);
	}
	if (dc->file == TGSI_FILE_IMAGE) {
		put(b, ", ");
		put_enum(b, dc->resource, tgsi_texture_name);
		put(b, ", %s", dc->image_format[0] ? dc->image_format : "PIPE_FORMAT_NONE");
		if (dc->image_writable)
			put(b, ", WR");
		if (dc->image_raw)
			put(b, ", RAW");
	}
	if (dc->file == TGSI_FILE_BUFFER && dc->atomic)
		put(b, ", ATOMIC");
	if (dc->file == TGSI_FILE_MEMORY) {
		put(b, ", ");
		put_enum(b, dc->mem_type, tgsi_memory_type_name);
	}
	if (dc->file == TGSI_FILE_SAMPLER_VIEW) {
		put(b, ", ");
		put_enum(b, dc->resource, tgsi_texture_name);
		put(b, ", ");
		const uint8_t *t = dc->return_type;
		put_enum(b, t[0], tgsi_return_type_name);
		if (!(t[0] == t[1] && t[0] == t[2] && t[0] == t[3]))
			for (int i = 1; i < 4; i++) {
				put(b, ", ");
				put_enum(b, t[i], tgsi_return_type_name);
			}
	}
	if (dc->interpolate) {
		if (proc == TGSI_PROCESSOR_FRAGMENT && dc->file == TGSI_FILE_INPUT) {
			put(b, ", ");
			put_enum(b, dc->interp, tgsi_interpolate_name);
		}
		if (dc->location != TGSI_INTERPOLATE_LOC_CENTER) {
			put(b, ", ");
			put_enum(b, dc->location, tgsi_interpolate_loc_name);
		}
	}
	if (dc->invariant)
		put(b, ", INVARIANT");
	put(b, "\n");
}

static void dump_immediate(dump_buf *b, const tgsi_immediate *im, unsigned n,
                           enum tgsi_dump_floats floats)
{
	put(b, "IMM[%u] ", n);
	put_enum(b, im->type, tgsi_imm_type_name);
	put(b, " {");
	bool wide = im->type == TGSI_IMM_FLOAT64 || im->type == TGSI_IMM_UINT64 ||
	            im->type == TGSI_IMM_INT64;
	for (unsigned i = 0; i < 4; i += wide ? 2 : 1) {
		if (i)
			put(b, ", ");
		uint64_t w = im->u[i] | (wide ? (uint64_t)im->u[i + 1] << 32 : 0);
		float f;
		double dv;
		int32_t iv;
		switch (im->type) {
		case TGSI_IMM_FLOAT32:
			if (floats == TGSI_DUMP_FLOATS_HEX ||
			    (floats == TGSI_DUMP_FLOATS_AS_WRITTEN && im->notation[i] == TGSI_FLOAT_HEX)) {
				put(b, "0x%08" PRIx32, im->u[i]);
			} else {
				memcpy(&f, &im->u[i], sizeof f);
				put(b, "%10.4f", (double)f);
			}
			break;
		case TGSI_IMM_UINT32:
			put(b, "%" PRIu32, im->u[i]);
			break;
		case TGSI_IMM_INT32:
			memcpy(&iv, &im->u[i], sizeof iv);
			put(b, "%" PRId32, iv);
			break;
		case TGSI_IMM_FLOAT64:
			memcpy(&dv, &w, sizeof dv);
			put(b, "%10.8f", dv);
			break;
		case TGSI_IMM_INT64:
			put(b, "%" PRId64, (int64_t)w);
			break;
		default:
			put(b, "%" PRIu64, w);
		}
	}
	put(b, "}\n");
}

static void dump_instruction(dump_buf *b, const tgsi_instruction *in, unsigned n, int *indent)
{
	const tgsi_opcode_info *info = tgsi_get_opcode_info(in->opcode);
	put(b, "%3u: ", n);
	if (info->flags & TGSI_OPF_PRE_DEDENT)
		(*indent)--;
	for (int i = 0; i < *indent; i++)
		put(b, "  ");
	if (info->flags & TGSI_OPF_POST_INDENT)
		(*indent)++;
	put(b, "%s%s%s", info->mnemonic, in->saturate ? "_SAT" : "",
	    in->precise ? "_PRECISE" : "");
	bool first = true;
	for (unsigned i = 0; i < in->num_dst; i++, first = false) {
		put(b, first ? " " : ", ");
		put_reg(b, &in->dst[i].reg);
		put_mask(b, in->dst[i].writemask);
	}
	for (unsigned i = 0; i < in->num_src; i++, first = false) {
		const tgsi_src *s = &in->src[i];
		put(b, first ? " " : ", ");
		put(b, "%s%s", s->negate ? "-" : "", s->absolute ? "|" : "");
		put_reg(b, &s->reg);
		if (s->swizzle[0] != 0 || s->swizzle[1] != 1 || s->swizzle[2] != 2 || s->swizzle[3] != 3)
			put(b, ".%c%c%c%c", swz_letter[s->swizzle[0] & 3], swz_letter[s->swizzle[1] & 3],
			    swz_letter[s->swizzle[2] & 3], swz_letter[s->swizzle[3] & 3]);
		if (s->absolute)
			put(b, "|");
	}
	if (in->texture) {
		if (!(info->flags & TGSI_OPF_SAMPLE)) {
			put(b, ", ");
			put_enum(b, in->target, tgsi_texture_name);
		}
		for (unsigned i = 0; i < in->num_tex_offsets; i++) {
			const tgsi_tex_offset *o = &in->tex_offsets[i];
			put(b, ", %s[%d].%c%c%c", tgsi_file_name(o->file), o->index,
			    swz_letter[o->swizzle[0] & 3], swz_letter[o->swizzle[1] & 3],
			    swz_letter[o->swizzle[2] & 3]);
		}
	}
	if (in->memory) {
		for (unsigned bit = 0; bit < 8; bit++)
			if (in->mem_qualifier & (1u << bit)) {
				put(b, ", ");
				put_enum(b, bit, tgsi_memory_qualifier_name);
			}
		if (in->mem_target) {
			put(b, ", ");
			put_enum(b, in->mem_target, tgsi_texture_name);
		}
		if (in->mem_format[0])
			put(b, ", %s", in->mem_format);
	}
	if (in->has_label) {
		switch (in->opcode) {
		case TGSI_OPCODE_IF:
		case TGSI_OPCODE_UIF:
		case TGSI_OPCODE_ELSE:
		case TGSI_OPCODE_BGNLOOP:
		case TGSI_OPCODE_ENDLOOP:
		case TGSI_OPCODE_CAL:
		case TGSI_OPCODE_BGNSUB:
			put(b, " :%u", in->label);
			break;
		default:
			break;
		}
	}
	put(b, "\n");
}

char *tgsi_dump_str(const tgsi_shader *sh, enum tgsi_dump_floats floats, size_t *len)
{
	dump_buf b = { NULL, 0, 0, false };
	b.cap = 256 + 64 * sh->num_order;
	b.s = malloc(b.cap);
	if (!b.s)
		return NULL;
	b.s[0] = '\0';
	put_enum(&b, sh->processor, tgsi_processor_name);
	put(&b, "\n");
	unsigned immno = 0, instno = 0;
	int indent = 0;
	for (size_t i = 0; i < sh->num_order; i++) {
		const tgsi_token_ref *t = &sh->order[i];
		switch (t->kind) {
		case TGSI_TOKEN_PROPERTY:
			dump_property(&b, &sh->props[t->index]);
			break;
		case TGSI_TOKEN_DECLARATION:
			dump_declaration(&b, sh, &sh->decls[t->index]);
			break;
		case TGSI_TOKEN_IMMEDIATE:
			dump_immediate(&b, &sh->imms[t->index], immno++, floats);
			break;
		default:
			dump_instruction(&b, &sh->insts[t->index], instno++, &indent);
		}
	}
	if (b.failed) {
		free(b.s);
		return NULL;
	}
	if (len)
		*len = b.len;
	return b.s;
}

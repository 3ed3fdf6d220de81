/* Compiler IR: lowering to base ops, liveness, zero-initialisation and the
 * linear-scan allocator, TGSI -> IR refusals.  (frontends/ir/ir.h) */
#include <criterion/criterion.h>
#include <string.h>

#include "frontends/ir/ir.h"

static ir_shader *from_text(const char *text, ir_error *e)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	tgsi_shader *sh = tgsi_parse(text, strlen(text), "t.tgsi", NULL, &d);
	cr_assert(sh, "%s", d.msg);
	ir_shader *s = ir_from_tgsi(sh, "t.tgsi", e);
	tgsi_shader_free(sh);
	return s;
}

static const char *const RICH[] = {
	"SEQ", "SNE", "SGT", "SLE", "CMP", "LRP", "DIV", "POW", "SQRT", "SSG", "FRC", "CEIL",
	"TRUNC", "ROUND", "SIN", "COS", "LIT", "LOG", "EXP", "DST", "DP2", "DPH", "XPD", "SCS",
};

/* Sources for an opcode with n sources (a fixed, varied pattern). */
static const char *const SRCS[] = { "-|IN[0].yxzw|", "CONST[0][1]", "TEMP[0].wzyx" };

Test(ir_lower, every_op_becomes_base_ops_writing_the_destination_once)
{
	const size_t NR = sizeof RICH / sizeof RICH[0];
	for (size_t kk = 0; kk < 2 * NR; kk++) {
		size_t k = kk % NR;
		enum tgsi_opcode op = tgsi_opcode_from_name(RICH[k], strlen(RICH[k]));
		cr_assert_neq(op, TGSI_OPCODE_COUNT, "%s", RICH[k]);
		unsigned ns = tgsi_get_opcode_info(op)->num_src;
		char text[512];
		int n = snprintf(text, sizeof text, "VERT\nDCL IN[0]\nDCL OUT[0], GENERIC[0]\n"
		                 "DCL CONST[0][0..1]\nDCL TEMP[0]\nMOV TEMP[0], IN[0]\n%s_SAT OUT[0].xzw",
		                 RICH[k]);
		for (unsigned j = 0; j < ns; j++)
			n += snprintf(text + n, sizeof text - (size_t)n, ", %s", SRCS[j]);
		snprintf(text + n, sizeof text - (size_t)n, "\nEND\n");
		ir_error e;
		ir_shader *s = from_text(text, &e);
		cr_assert(s, "%s: %s", RICH[k], e.d.msg);
		ir_caps caps;
		memset(&caps, 0, sizeof caps);      /* nothing beyond the base set */
		caps.if_lt0 = kk >= NR;             /* CMP: both forms of its IFs */
		cr_assert(ir_lower(s, &caps, &e), "%s: %s", RICH[k], e.d.msg);
		/* writes per path: an IF's two sides must write the same components
		 * (CMP becomes branches), counted once */
		unsigned writes[4] = { 0 }, side[2][4] = { { 0 } }, in_if = 0;
		for (size_t i = 0; i < s->n; i++) {
			const ir_inst *in = &s->inst[i];
			if (in->op == IR_OP_IF || in->op == IR_OP_ELSE || in->op == IR_OP_ENDIF) {
				cr_assert(in->op != IR_OP_IF || !in_if, "%s: nested IF", RICH[k]);
				in_if = in->op == IR_OP_IF ? 1 : in->op == IR_OP_ELSE ? 2 : 0;
				for (unsigned c = 0; in->op == IR_OP_ENDIF && c < 4; c++) {
					cr_assert_eq(side[0][c], side[1][c], "%s: the IF's sides write "
					             "OUT[0].%c differently", RICH[k], "xyzw"[c]);
					writes[c] += side[0][c];
					side[0][c] = side[1][c] = 0;
				}
				continue;
			}
			const ir_op_info *oi = ir_op_get(in->op);
			cr_assert(oi->flags & IR_F_BASE || oi->kind == IR_KIND_FLOW,
			          "%s lowered to %s", RICH[k], oi->name);
			cr_assert(!in->sat, "%s: _SAT left", RICH[k]);
			for (unsigned j = 0; j < in->nsrc; j++) {
				cr_assert(!in->src[j].abs, "%s: |x| left", RICH[k]);
				cr_assert(in->src[j].file != IR_OUTPUT, "%s reads its destination", RICH[k]);
			}
			if (in->dst.file == IR_OUTPUT)
				for (unsigned c = 0; c < 4; c++)
					*(in_if ? &side[in_if - 1][c] : &writes[c]) += (in->dst.mask >> c) & 1;
		}
		cr_assert(writes[0] == 1 && writes[1] == 0 && writes[2] == 1 && writes[3] == 1,
		          "%s writes OUT[0] components %u %u %u %u times", RICH[k], writes[0],
		          writes[1], writes[2], writes[3]);
		ir_shader_free(s);
	}
}

Test(ir_lower, native_ops_and_modifiers_are_kept)
{
	ir_error e;
	ir_shader *s = from_text("VERT\nDCL IN[0]\nDCL OUT[0]\nDPH_SAT OUT[0], |IN[0]|, IN[0]\nEND\n", &e);
	cr_assert(s, "%s", e.d.msg);
	ir_caps caps = { .native = 1ull << IR_OP_DPH, .src_abs = true, .sat = true };
	cr_assert(ir_lower(s, &caps, &e));
	cr_assert_eq(s->n, 2);
	cr_assert_eq(s->inst[0].op, IR_OP_DPH);
	cr_assert(s->inst[0].sat && s->inst[0].src[0].abs);
	char *dump = ir_dump(s);
	cr_assert(dump && strstr(dump, "DPH_SAT out0.xyzw, |in0.xyzw|, in0.xyzw"), "%s", dump);
	free(dump);
	ir_shader_free(s);
}

Test(ir_lower, arl_gets_a_floor_where_the_address_load_truncates)
{
	ir_error e;
	ir_shader *s = from_text("VERT\nDCL IN[0]\nDCL OUT[0]\nDCL ADDR[0]\nDCL CONST[0][0..3]\n"
	                         "ARL ADDR[0].x, IN[0].xxxx\nMOV OUT[0], CONST[0][ADDR[0].x+1]\nEND\n", &e);
	cr_assert(s, "%s", e.d.msg);
	ir_caps caps = { .arl_truncates = true };
	cr_assert(ir_lower(s, &caps, &e));
	cr_assert_eq(s->inst[0].op, IR_OP_FLR);
	cr_assert_eq(s->inst[1].op, IR_OP_ARL);
	cr_assert_eq(s->inst[1].src[0].file, IR_TEMP);
	cr_assert(s->inst[2].src[0].indirect && s->inst[2].src[0].index == 1);
	ir_shader_free(s);
}

static ir_inst *add(ir_shader *s, unsigned op, ir_dst d, ir_src a, ir_src b)
{
	ir_inst *in = ir_append(s);
	cr_assert(in);
	in->op = (uint16_t)op;
	in->nsrc = ir_op_get(op)->nsrc;
	in->dst = d;
	in->src[0] = a;
	in->src[1] = b;
	return in;
}

static ir_src T(int i) { return ir_src_reg(IR_TEMP, i); }
static ir_dst DT(int i) { return ir_dst_reg(IR_TEMP, i, 0xF); }
static const ir_src NONE = { .file = IR_NULL };

Test(ir_regalloc, a_value_read_last_shares_with_the_value_written)
{
	ir_shader *s = ir_shader_new(TGSI_PROCESSOR_VERTEX, "t");
	s->ntemps = 3;
	add(s, IR_OP_MOV, DT(0), ir_src_reg(IR_INPUT, 0), NONE);
	add(s, IR_OP_ADD, DT(1), T(0), ir_src_reg(IR_INPUT, 0));
	add(s, IR_OP_MUL, DT(2), T(1), T(1));
	add(s, IR_OP_MOV, ir_dst_reg(IR_OUTPUT, 0, 0xF), T(2), NONE);
	add(s, IR_OP_END, ir_dst_reg(IR_NULL, 0, 0), NONE, NONE);
	ir_error e;
	memset(&e, 0, sizeof e);
	cr_assert(ir_resolve_cf(s, &e));
	uint16_t *map;
	unsigned used;
	cr_assert(ir_regalloc(s, 16, &map, &used, &e), "%s", e.d.msg);
	cr_assert_eq(used, 1);
	cr_assert(map[0] == map[1] && map[1] == map[2]);
	free(map);
	ir_shader_free(s);
}

Test(ir_regalloc, loops_keep_outer_values_and_carried_values_alive)
{
	ir_shader *s = ir_shader_new(TGSI_PROCESSOR_VERTEX, "t");
	s->ntemps = 4;
	add(s, IR_OP_MOV, DT(0), ir_src_reg(IR_INPUT, 0), NONE);         /* 0: used after the loop */
	add(s, IR_OP_MOV, DT(3), ir_src_reg(IR_INPUT, 0), NONE);         /* 1: carried */
	add(s, IR_OP_BGNLOOP, ir_dst_reg(IR_NULL, 0, 0), NONE, NONE);    /* 2 */
	add(s, IR_OP_ADD, DT(1), T(3), ir_src_reg(IR_INPUT, 1));         /* 3 */
	add(s, IR_OP_IF, ir_dst_reg(IR_NULL, 0, 0), T(1), NONE);         /* 4 */
	add(s, IR_OP_BRK, ir_dst_reg(IR_NULL, 0, 0), NONE, NONE);        /* 5 */
	add(s, IR_OP_ENDIF, ir_dst_reg(IR_NULL, 0, 0), NONE, NONE);      /* 6 */
	add(s, IR_OP_MUL, DT(2), T(1), T(1));                            /* 7 */
	add(s, IR_OP_MOV, DT(3), T(2), NONE);                            /* 8 */
	add(s, IR_OP_ENDLOOP, ir_dst_reg(IR_NULL, 0, 0), NONE, NONE);    /* 9 */
	add(s, IR_OP_MOV, ir_dst_reg(IR_OUTPUT, 0, 0xF), T(0), NONE);
	add(s, IR_OP_END, ir_dst_reg(IR_NULL, 0, 0), NONE, NONE);
	ir_error e;
	memset(&e, 0, sizeof e);
	cr_assert(ir_resolve_cf(s, &e));
	ir_interval *iv;
	cr_assert(ir_live_intervals(s, &iv, &e));
	cr_assert(iv[0].start == 1 && iv[0].end == 10, "t0 [%d, %d]", iv[0].start, iv[0].end);
	cr_assert(iv[3].start <= 3 && iv[3].end >= 9, "carried t3 [%d, %d]", iv[3].start, iv[3].end);
	free(iv);
	uint16_t *map;
	unsigned used;
	cr_assert(ir_regalloc(s, 16, &map, &used, &e));
	cr_assert(map[0] != map[1] && map[0] != map[2] && map[0] != map[3]);
	cr_assert(map[3] != map[1], "t3 is live across the back edge while t1 is");
	cr_assert(used <= 3);
	free(map);
	/* with 2 registers it cannot be done */
	cr_assert_not(ir_regalloc(s, 2, &map, &used, &e));
	cr_assert_eq(e.why, IR_REFUSE_REGISTERS);
	cr_assert(strstr(e.d.msg, "live temporaries"), "%s", e.d.msg);
	ir_shader_free(s);
}

Test(ir_regalloc, undefined_reads_are_zeroed)
{
	ir_error e;
	ir_shader *s = from_text("VERT\nDCL IN[0]\nDCL OUT[0]\nDCL TEMP[0]\n"
	                         "IF IN[0].xxxx\nMOV TEMP[0].x, IN[0].yyyy\nENDIF\n"
	                         "MOV OUT[0], TEMP[0].xxxy\nEND\n", &e);
	cr_assert(s, "%s", e.d.msg);
	cr_assert(ir_zero_undefined(s, &e));
	cr_assert_eq(s->inst[0].op, IR_OP_MOV);
	cr_assert_eq(s->inst[0].dst.file, IR_TEMP);
	cr_assert_eq(s->inst[0].dst.mask, 3, "x (written only in the IF) and y (never)");
	ir_shader_free(s);
}

Test(ir_lower, tgsi_that_no_float_target_runs_is_refused_with_its_line)
{
	static const struct { const char *text; enum ir_refusal why; const char *what; } C[] = {
		{ "VERT\nDCL IN[0]\nDCL OUT[0]\nDCL TEMP[0]\nUIF IN[0].xxxx\nENDIF\nEND\n",
		  IR_REFUSE_INTEGER, "t.tgsi:5:1: UIF" },
		{ "VERT\nDCL IN[0]\nDCL OUT[0]\nDCL TEMP[0..1]\nDCL ADDR[0]\n"
		  "MOV OUT[0], TEMP[ADDR[0].x+1]\nEND\n", IR_REFUSE_ADDRESSING, "t.tgsi:6:1: MOV" },
		{ "VERT\nDCL OUT[0]\nDADD OUT[0].xy, OUT[0], OUT[0]\nEND\n", IR_REFUSE_DOUBLE, "DADD" },
		{ "VERT\nDCL OUT[0]\nCAL :2\nEND\nBGNSUB\nRET\nENDSUB\n", IR_REFUSE_CONTROL_FLOW, "CAL" },
		{ "VERT\nDCL IN[0]\nDCL OUT[0]\nDDX OUT[0], IN[0]\nEND\n", IR_REFUSE_OPCODE, "DDX" },
		{ "VERT\nDCL OUT[0]\nDCL CONST[1][0]\nMOV OUT[0], CONST[1][0]\nEND\n",
		  IR_REFUSE_CONSTANTS, "buffer 0" },
		/* SHL by a run-time count, by different counts, by a UINT32 count */
		{ "VERT\nDCL IN[0]\nDCL OUT[0]\nSHL OUT[0], IN[0], IN[0]\nEND\n", IR_REFUSE_INTEGER, "SHL" },
		{ "VERT\nDCL IN[0]\nDCL OUT[0]\nIMM[0] FLT32 {1.0, 2.0, 0.0, 0.0}\nSHL OUT[0].xy, IN[0], IMM[0]\nEND\n",
		  IR_REFUSE_INTEGER, "SHL" },
		{ "VERT\nDCL IN[0]\nDCL OUT[0]\nIMM[0] UINT32 {1, 1, 1, 1}\nSHL OUT[0], IN[0], IMM[0]\nEND\n",
		  IR_REFUSE_INTEGER, "SHL" },
	};
	for (size_t k = 0; k < sizeof C / sizeof C[0]; k++) {
		ir_error e;
		ir_shader *s = from_text(C[k].text, &e);
		cr_assert_null(s, "case %zu compiled", k);
		cr_assert_eq(e.why, C[k].why, "case %zu: %s (%s)", k, ir_refusal_name(e.why), e.d.msg);
		char buf[600];
		ulp_diag_format(&e.d, buf, sizeof buf);
		cr_assert(strstr(buf, C[k].what), "case %zu: '%s' lacks '%s'", k, buf, C[k].what);
	}
}

Test(ir_lower, txp_divides_by_w_for_texture_targets_and_is_refused_without)
{
	static const char text[] = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\n"
	                           "DCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT\n"
	                           "TXP OUT[0], IN[0], SAMP[0], 2D\nEND\n";
	ir_error e;
	ir_shader *s = from_text(text, &e);
	cr_assert(s, "%s", e.d.msg);
	ir_caps caps = { .texture = true };
	cr_assert(ir_lower(s, &caps, &e), "%s", e.d.msg);
	cr_assert_eq(s->n, 4);
	cr_assert_eq(s->inst[0].op, IR_OP_RCP);
	cr_assert_eq(s->inst[0].src[0].swz[0], 3, "1 / w");
	cr_assert_eq(s->inst[1].op, IR_OP_MUL);
	cr_assert_eq(s->inst[2].op, IR_OP_TEX);
	cr_assert_eq(s->inst[2].tex_target, TGSI_TEXTURE_2D);
	cr_assert_eq(s->inst[2].dst.file, IR_OUTPUT);
	ir_shader_free(s);
	s = from_text(text, &e);
	caps.texture = false;
	cr_assert_not(ir_lower(s, &caps, &e));
	cr_assert_eq(e.why, IR_REFUSE_TEXTURE);
	cr_assert(strstr(e.d.msg, "TXP"), "%s", e.d.msg);
	ir_shader_free(s);
}

/* SHL by a FLT32 immediate count (Mesa's float-only dialect: ishl left on
 * integer-valued floats) is a multiply by 2^count. */
Test(ir_lower, shl_by_a_float_immediate_is_a_multiply)
{
	ir_error e;
	ir_shader *s = from_text("FRAG\nDCL OUT[0], COLOR\nDCL CONST[0][0]\nIMM[0] FLT32 {1.0, 3.0, 0.0, 0.0}\n"
	                         "SHL OUT[0].xz, CONST[0][0], IMM[0].xxxx\nSHL OUT[0].y, CONST[0][0], IMM[0].yyyy\n"
	                         "END\n", &e);
	cr_assert_not_null(s, "%s", e.d.msg);
	const float want[2] = { 2.0f, 8.0f };
	for (unsigned k = 0; k < 2; k++) {
		const ir_inst *in = &s->inst[k];
		cr_assert_eq(in->op, IR_OP_MUL, "instruction %u: op %u", k, in->op);
		cr_assert_eq(in->src[0].file, IR_CONST);
		cr_assert_eq(in->src[1].file, IR_IMM);
		float v;
		memcpy(&v, &s->imm[in->src[1].index][in->src[1].swz[0] & 3u], sizeof v);
		cr_assert_eq(v, want[k], "instruction %u: x %g", k, v);
	}
	ir_shader_free(s);
}

/* PICA200 ISA tables, encode/decode, operand descriptors, f24 constants. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "isa/f24.h"
#include "isa/minifloat.h"
#include "isa/pica/pica_isa.h"

Test(pica_isa, table_self_check)
{
	/* every opcode decodes to the row that claims it, and rows do not overlap */
	for (unsigned opc = 0; opc < 64; opc++) {
		enum pica_op op = pica_op_of_word(opc << 26);
		int claims = 0;
		for (int i = 0; i < PICA_OP_UNKNOWN; i++)
			if (opc >= PICA_OPS[i].opcode && opc < (unsigned)PICA_OPS[i].opcode + PICA_OPS[i].span)
				claims++;
		cr_assert_leq(claims, 1, "opcode 0x%02x claimed %d times", opc, claims);
		cr_assert_eq(op == PICA_OP_UNKNOWN, claims == 0, "opcode 0x%02x", opc);
	}
	/* pica200.md §1.3: the undocumented opcodes */
	const unsigned unknown[] = { 0x10, 0x11, 0x14, 0x15, 0x16, 0x17, 0x1C, 0x1D, 0x1E, 0x1F };
	for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++)
		cr_assert_eq(pica_op_of_word(unknown[i] << 26), PICA_OP_UNKNOWN);
	cr_assert_eq(pica_op_of_word(0x2Fu << 26), PICA_OP_CMP);
	cr_assert_eq(pica_op_of_word(0x37u << 26), PICA_OP_MADI);
	cr_assert_eq(pica_op_of_word(0x3Fu << 26), PICA_OP_MAD);
	cr_assert_str_eq(PICA_OPS[PICA_OP_LOOP].name, "for");
	cr_assert_eq(PICA_OPS[PICA_OP_SGEI].base, PICA_OP_SGE);
}

/* Fill every field of an op with a pattern that fits, encode, decode, compare. */
Test(pica_isa, encode_decode_round_trip_every_op)
{
	for (int op = 0; op < PICA_OP_UNKNOWN; op++) {
		for (unsigned seed = 0; seed < 64; seed++) {
			const struct pica_fmt_info *fi = &PICA_FMTS[PICA_OPS[op].fmt];
			struct pica_inst in = { .op = (enum pica_op)op };
			if (fi->desc.width) {
				in.desc_id = (uint8_t)(seed * 7 % (1u << fi->desc.width));
				in.dst = fi->dst.width ? (uint8_t)(seed * 5 % 32) : 0;
				for (int s = 0; s < fi->nsrc; s++)
					in.src[s].reg = (uint8_t)((seed * 13 + (unsigned)s * 29) % (1u << fi->src[s].width));
				if (fi->idx_src >= 0)
					in.src[fi->idx_src].idx = (uint8_t)(seed % 4);
			}
			/* the non-register fields from the format's rows */
			for (int f = 0; f < PICA_FLD_COUNT; f++) {
				const struct pica_field_row *r = &PICA_FIELD_ROWS[f];
				if (r->fmt != PICA_OPS[op].fmt)
					continue;
				uint32_t v = (seed * 61u + (unsigned)f * 7u) & ((1u << r->bits.width) - 1u);
				char *m = (char *)&in + r->offset;
				if (r->type == PICA_FT_BOOL)
					*(bool *)m = v & 1;
				else if (r->type == PICA_FT_U8)
					*(uint8_t *)m = (uint8_t)v;
				else
					*(uint16_t *)m = (uint16_t)v;
			}
			uint32_t w;
			cr_assert(pica_encode(&in, &w), "%s does not encode", PICA_OPS[op].name);
			struct pica_inst out;
			pica_decode(w, 0, &out);
			cr_assert_eq(out.op, op, "%s decodes as %s", PICA_OPS[op].name, PICA_OPS[out.op].name);
			cr_assert_eq(out.stray, 0u, "%s: stray bits 0x%x", PICA_OPS[op].name, out.stray);
			cr_assert_eq(out.desc_id, in.desc_id);
			cr_assert_eq(out.dst, in.dst);
			for (int s = 0; s < 3; s++) {
				cr_assert_eq(out.src[s].reg, in.src[s].reg, "%s src%d", PICA_OPS[op].name, s + 1);
				cr_assert_eq(out.src[s].idx, in.src[s].idx, "%s idx%d", PICA_OPS[op].name, s + 1);
			}
			cr_assert_eq(out.target, in.target);
			cr_assert_eq(out.num, in.num);
			cr_assert_eq(out.uniform_id, in.uniform_id);
			cr_assert_eq(out.cond, in.cond);
			cr_assert_eq(out.ref_x, in.ref_x);
			cr_assert_eq(out.cmp_op[0], in.cmp_op[0]);
			cr_assert_eq(out.vtx_id, in.vtx_id);
			cr_assert_eq(out.prim, in.prim);
			cr_assert_eq(out.inv, in.inv);
			cr_assert_eq(out.ref_y, in.ref_y);
			cr_assert_eq(out.cmp_op[1], in.cmp_op[1]);
			uint32_t w2;
			cr_assert(pica_encode(&out, &w2));
			cr_assert_eq(w, w2);
		}
	}
}

Test(pica_isa, known_words)
{
	/* corpus both_screens word 0: mov r0.xyz, v0 with descriptor 0 */
	struct pica_inst in;
	pica_decode(0x4e000000, 0x0000036e, &in);
	cr_assert_eq(in.op, PICA_OP_MOV);
	cr_assert_eq(in.dst, 0x10);
	cr_assert_eq(in.src[0].reg, 0x00);
	cr_assert_eq(in.mask, 0xE);
	cr_assert_eq(pica_swz_pack(in.src[0].swz), PICA_SWZ_IDENTITY);
	/* format 5 MAD: 111 | dst 28:24 | idx 23:22 | src1 21:17 | src2 16:10 | src3 9:5 | desc 4:0 */
	struct pica_inst m = { .op = PICA_OP_MAD, .dst = 0x13, .desc_id = 5 };
	m.src[0].reg = 0x14;
	m.src[1].reg = 0x2A;
	m.src[1].idx = PICA_IDX_A0Y;
	m.src[2].reg = 0x11;
	uint32_t w;
	cr_assert(pica_encode(&m, &w));
	cr_assert_eq(w, 7u << 29 | 0x13u << 24 | 2u << 22 | 0x14u << 17 | 0x2Au << 10 | 0x11u << 5 | 5u);
	/* out-of-range fields are refused */
	m.src[0].reg = 0x20;    /* MAD src1 is a 5-bit field */
	cr_assert_not(pica_encode(&m, &w));
	m.src[0].reg = 0x14;
	m.desc_id = 32;         /* MAD reaches descriptors 0-31 only */
	cr_assert_not(pica_encode(&m, &w));
	/* JMPU !b3: NUM bit 0 */
	struct pica_inst j = { .op = PICA_OP_JMPU, .uniform_id = 3, .target = 0x12, .num = 1 };
	cr_assert(pica_encode(&j, &w));
	cr_assert_eq(w, 0x2Du << 26 | 3u << 22 | 0x12u << 10 | 1u);
	/* SETEMIT 2, prim inv */
	struct pica_inst se = { .op = PICA_OP_SETEMIT, .vtx_id = 2, .prim = true, .inv = true };
	cr_assert(pica_encode(&se, &w));
	cr_assert_eq(w, 0x2Bu << 26 | 2u << 24 | 1u << 23 | 1u << 22);
}

Test(pica_isa, decode_reports_stray_bits_and_unknown_opcodes)
{
	struct pica_inst in;
	pica_decode(0x21u << 26 | 0x5, 0, &in);     /* NOP with junk */
	cr_assert_eq(in.op, PICA_OP_NOP);
	cr_assert_eq(in.stray, 0x5u);
	pica_decode(0x10u << 26 | 0x123, 0, &in);
	cr_assert_eq(in.op, PICA_OP_UNKNOWN);
	cr_assert_eq(in.stray, 0x123u);
	cr_assert_eq(pica_desc_index(0x10u << 26), -1);
	cr_assert_eq(pica_desc_index(0x22u << 26), -1);
	cr_assert_eq(pica_desc_index(0x38u << 26 | 0x1F), 0x1F);
	uint32_t descs[2] = { 0, 0 };
	cr_assert_not(pica_decode_prog(0x13u << 26 | 5, descs, 2, &in));   /* desc 5 of 2 */
	cr_assert(pica_decode_prog(0x13u << 26 | 1, descs, 2, &in));
}

Test(pica_isa, descriptor_pack_unpack)
{
	for (uint32_t seed = 1; seed < 5000; seed++) {
		uint32_t desc = (seed * 2654435761u) & 0x7FFFFFFFu;
		struct pica_inst in = { 0 };
		pica_desc_unpack(desc, &in);
		cr_assert_eq(pica_desc_pack(&in), desc);
	}
	uint8_t swz[4];
	pica_swz_unpack(PICA_SWZ_IDENTITY, swz);
	cr_assert(swz[0] == 0 && swz[1] == 1 && swz[2] == 2 && swz[3] == 3);
}

Test(pica_isa, descriptor_care_masks)
{
	/* corpus README "The bits an instruction cares about" */
	uint32_t all2 = 0xF | 0x1FFu << 4 | 0x1FFu << 13;
	cr_assert_eq(pica_desc_care(PICA_OP_DP4, 0x8), all2);
	cr_assert_eq(pica_desc_care(PICA_OP_DST, 0x1), all2);
	/* mov .x: only the x selector of src1 (bits 12:11) plus negate and mask */
	cr_assert_eq(pica_desc_care(PICA_OP_MOV, 0x8), 0xFu | 1u << 4 | 3u << 11);
	/* rcp: src1.x only, whatever the mask */
	cr_assert_eq(pica_desc_care(PICA_OP_RCP, 0xF), 0xFu | 1u << 4 | 3u << 11);
	/* cmp: no mask, src1.xy, all of src2 */
	cr_assert_eq(pica_desc_care(PICA_OP_CMP, 0xF), 1u << 4 | 0xFu << 9 | 0x1FFu << 13);
	/* dp3: xyz of both sources */
	cr_assert_eq(pica_desc_care(PICA_OP_DP3, 0xF), all2 & ~(3u << 5) & ~(3u << 14));
	/* dph(i): src1 xyz, src2 all */
	cr_assert_eq(pica_desc_care(PICA_OP_DPHI, 0xF), all2 & ~(3u << 5));
	/* mova a0.y: src1.y only */
	cr_assert_eq(pica_desc_care(PICA_OP_MOVA, 0x4), 0xFu | 1u << 4 | 3u << 9);
	/* madi follows mad: component-wise over three sources */
	cr_assert_eq(pica_desc_care(PICA_OP_MADI, 0xF), 0x7FFFFFFFu);
	cr_assert_eq(pica_desc_care(PICA_OP_NOP, 0xF), 0u);
}

Test(pica_isa, f24_constants_like_picasso)
{
	/* corpus README "Constants" */
	cr_assert_eq(pica_f24_from_f32((float)0.1), 0x3B9999u);
	cr_assert_eq(pica_f24_from_f32((float)131075.0), 0x500001u);
	cr_assert_eq(pica_f24_from_f32((float)1e-20), 0x000000u);
	cr_assert_eq(pica_f24_from_f32((float)-1e30), 0xFF0000u);
	cr_assert_eq(pica_f24_from_f32(-0.0f), 0x800000u);
	cr_assert_eq(pica_f24_from_f32(1.0f), F24_ONE);
	cr_assert_eq(pica_f24_from_f32(NAN), 0x7F0000u);
	cr_assert_eq(pica_f24_from_f32((float)0.003921568393707275390625), 0x370101u);
	/* in the normal range it is mf_encode with truncation */
	for (uint32_t i = 0; i < 200000; i++) {
		uint32_t bits = 0x1F800000u + i * 0x2A3Bu;
		float v;
		memcpy(&v, &bits, sizeof v);
		if (!isfinite(v) || fabsf(v) < 0x1p-62f || fabsf(v) >= 0x1p64f)
			continue;
		cr_assert_eq(pica_f24_from_f32(v), f24_encode(v, ULP_ROUND_TRUNCATE), "0x%08x", bits);
	}
}

Test(pica_isa, register_names)
{
	char b[8];
	cr_assert_str_eq(pica_src_name(0x03, b), "v3");
	cr_assert_str_eq(pica_src_name(0x1F, b), "r15");
	cr_assert_str_eq(pica_src_name(0x7F, b), "c95");
	cr_assert_str_eq(pica_dst_name(0x06, b), "o6");
	cr_assert_str_eq(pica_dst_name(0x10, b), "r0");
}

/* The field rows: every format's fields (register operands, descriptor,
 * opcode and the PICA_FIELD_ROWS rows) are disjoint, and together with the
 * bits pica200.md §1.2 leaves unused they cover the word. */
Test(pica_isa, field_rows_cover_each_format)
{
	/* bits no format field claims: 1u SRC2 11:7, formats 2/3 bits 9:8,
	 * 3i bits 25:24 (INT id is 23:22), 4 bits 21:0, 0 everything */
	const uint32_t unused[PICA_FMT_COUNT] = {
		[PICA_FMT_0] = 0x03FFFFFFu, [PICA_FMT_1U] = 0x1Fu << 7, [PICA_FMT_2] = 3u << 8,
		[PICA_FMT_3] = 3u << 8, [PICA_FMT_3I] = 3u << 8 | 3u << 24, [PICA_FMT_4] = 0x003FFFFFu,
	};
	for (int fmt = 0; fmt < PICA_FMT_COUNT; fmt++) {
		const struct pica_fmt_info *fi = &PICA_FMTS[fmt];
		uint32_t used = ~0u << (32 - fi->op_bits);
		struct pica_field all[8 + PICA_FLD_COUNT];
		int n = 0;
		all[n++] = fi->dst;
		all[n++] = fi->idx;
		all[n++] = fi->desc;
		for (int s = 0; s < 3; s++)
			all[n++] = fi->src[s];
		for (int f = 0; f < PICA_FLD_COUNT; f++)
			if (PICA_FIELD_ROWS[f].fmt == (enum pica_fmt)fmt)
				all[n++] = PICA_FIELD_ROWS[f].bits;
		for (int k = 0; k < n; k++) {
			if (!all[k].width)
				continue;
			uint32_t m = (uint32_t)(((uint64_t)1 << all[k].width) - 1) << all[k].lo;
			cr_assert_eq(used & m, 0u, "format %s: field at bit %u overlaps", fi->name, all[k].lo);
			used |= m;
		}
		cr_assert_eq(used | unused[fmt], ~0u, "format %s: bits 0x%08x belong to no field",
		             fi->name, ~(used | unused[fmt]));
		cr_assert_eq(used & unused[fmt], 0u, "format %s", fi->name);
	}
	/* pica_word_set_target/num serve formats 2, 3 and 3i: same DST and NUM bits */
	cr_assert(PICA_FIELD_ROWS[PICA_FLD_3_DST].bits.lo == PICA_FIELD_ROWS[PICA_FLD_2_DST].bits.lo &&
	          PICA_FIELD_ROWS[PICA_FLD_3I_DST].bits.lo == PICA_FIELD_ROWS[PICA_FLD_2_DST].bits.lo &&
	          PICA_FIELD_ROWS[PICA_FLD_3_NUM].bits.lo == PICA_FIELD_ROWS[PICA_FLD_2_NUM].bits.lo &&
	          PICA_FIELD_ROWS[PICA_FLD_3I_NUM].bits.width == PICA_FIELD_ROWS[PICA_FLD_2_NUM].bits.width);
	/* the assembler's branch patching goes through the rows */
	cr_assert_eq(pica_word_set_target(0x24u << 26 | 0x5, 0x123), 0x24u << 26 | 0x123u << 10 | 0x5);
	cr_assert_eq(pica_word_set_num(0x24u << 26 | 0x123u << 10 | 0x5, 0x40), 0x24u << 26 | 0x123u << 10 | 0x40);
}

/* The exec, timing and flags columns agree with pica200.md §1.3. */
Test(pica_isa, op_columns)
{
	for (int op = 0; op < PICA_OP_COUNT; op++) {
		const struct pica_op_info *oi = &PICA_OPS[op];
		cr_assert_lt(oi->exec, PICA_EX_COUNT, "%s", oi->name);
		/* format-2 ops with a condition read cmp; the others do not */
		bool cond = oi->fmt == PICA_FMT_2 && op != PICA_OP_CALL;
		cr_assert_eq(!!(oi->flags & PICA_F_CMPR), cond, "%s cmp read", oi->name);
		/* a destination is written exactly by the ALU formats other than MOVA and CMP */
		bool dst = PICA_FMTS[oi->fmt].dst.width && op != PICA_OP_MOVA;
		cr_assert_eq(!!(oi->flags & PICA_F_DST), dst, "%s dst", oi->name);
		cr_assert_eq(oi->exec == PICA_EX_SFU, oi->timing == PICA_CLS_SFU, "%s", oi->name);
		cr_assert_eq(oi->timing == PICA_CLS_FLOW,
		             oi->fmt >= PICA_FMT_2 && oi->fmt <= PICA_FMT_4 ? true
		             : op == PICA_OP_BREAK || op == PICA_OP_EMIT, "%s timing", oi->name);
	}
	cr_assert_eq(PICA_OPS[PICA_OP_CMP].flags & PICA_F_CMPW, PICA_F_CMPW);
	cr_assert_eq(PICA_OPS[PICA_OP_LITP].flags & PICA_F_CMPW, PICA_F_CMPW);
	cr_assert_eq(PICA_OPS[PICA_OP_END].flags, PICA_F_END);
	cr_assert_eq(PICA_OPS[PICA_OP_LOOP].flags, PICA_F_AL);
	cr_assert_eq(PICA_OPS[PICA_OP_MOVA].flags, PICA_F_A0);
	cr_assert_eq(PICA_OPS[PICA_OP_UNKNOWN].exec, PICA_EX_UNDOC);
	cr_assert_eq(PICA_OPS[PICA_OP_LOOP].fmt, PICA_FMT_3I);
}

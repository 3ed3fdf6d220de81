/* A 2x2 quad of fragment-shader invocations for the reference renderer.
 *
 * Each lane is a tgsi_exec_machine (frontends/tgsi/tgsi_exec.h) and every
 * arithmetic opcode goes through the interpreter's own tx_alu, so the f32
 * results are the reference interpreter's.  What this file adds is what a
 * single-lane interpreter cannot do: texture sampling from real textures
 * (nearest filtering, clamp to edge, mipmap level from the quad's
 * derivatives) and DDX/DDY from neighbouring lanes.  Lanes run in lockstep:
 * each step executes the lanes at the lowest pc together, so lanes that
 * diverge re-converge at ENDIF; derivatives need all four lanes together
 * (otherwise they read 0 and textures use level 0). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "traces/piglit/piglit_exec.h"
#include "frontends/tgsi/tgsi_exec_ops.h"

/* ---- textures ---- */

static int clampi(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

static int texel_index(float s, unsigned size)
{
	float f = floorf(s * (float)size);
	if (!(f > -1e9f && f < 1e9f))
		f = 0;
	return clampi((int)f, 0, (int)size - 1);
}

static bool compare(int func, float ref, float d)
{
	switch (func) {
	case PG_CMP_NEVER: return false;
	case PG_CMP_LESS: return ref < d;
	case PG_CMP_EQUAL: return ref == d;
	case PG_CMP_LEQUAL: return ref <= d;
	case PG_CMP_GREATER: return ref > d;
	case PG_CMP_NOTEQUAL: return ref != d;
	case PG_CMP_GEQUAL: return ref >= d;
	default: return true;
	}
}

static void sample(const pg_texture *tx, const float co[4], float lod, bool shadow, float ref,
                   float out[4])
{
	unsigned level = 0;
	if (tx->levels > 1 && lod > 0.5f) {
		float l = ceilf(lod + 0.5f) - 1.0f;
		level = l >= (float)(tx->levels - 1) ? tx->levels - 1 : (unsigned)l;
	}
	unsigned w = tx->w >> level, h = tx->h >> level, dd = tx->d;
	if (!w)
		w = 1;
	if (!h)
		h = 1;
	int x = texel_index(co[0], w);
	int y = tx->dims >= 2 ? texel_index(co[1], h) : 0;
	int z = tx->dims == 3 ? texel_index(co[2], dd) : 0;
	const float *p = tx->level[level] + (((size_t)z * h + (size_t)y) * w + (size_t)x) * 4;
	if (!tx->shadow) {
		memcpy(out, p, 4 * sizeof *out);
		return;
	}
	float r = p[0];
	if (shadow && tx->compare_func != PG_CMP_NONE)
		r = compare(tx->compare_func, fminf(fmaxf(ref, 0.0f), 1.0f), r) ? 1.0f : 0.0f;
	switch (tx->depth_mode) {
	case 1: out[0] = out[1] = out[2] = out[3] = r; break;                 /* intensity */
	case 2: out[0] = out[1] = out[2] = 0; out[3] = r; break;             /* alpha */
	case 3: out[0] = r; out[1] = out[2] = 0; out[3] = 1; break;          /* red */
	default: out[0] = out[1] = out[2] = r; out[3] = 1; break;             /* luminance */
	}
}

/* One texture instruction for the lanes in `group` (bit mask). */
static bool tex_op(pg_quad *q, const tgsi_instruction *in, unsigned group, uint32_t s[4][TGSI_MAX_SRC][4],
                   uint32_t r[4][4], char *reason, size_t n)
{
	unsigned op = in->opcode;
	if (op != TGSI_OPCODE_TEX && op != TGSI_OPCODE_TXP && op != TGSI_OPCODE_TXB &&
	    op != TGSI_OPCODE_TXL) {
		snprintf(reason, n, "reference: %s not interpreted", tgsi_get_opcode_info(op)->mnemonic);
		return false;
	}
	int samp = -1;
	for (int k = in->num_src - 1; k >= 0; k--)
		if (in->src[k].reg.file == TGSI_FILE_SAMPLER) {
			samp = in->src[k].reg.index;
			break;
		}
	const pg_texture *tx = samp >= 0 && samp < PG_MAX_UNITS ? q->units[samp] : NULL;
	if (!tx) {
		snprintf(reason, n, "reference: no texture bound for SAMP[%d]", samp);
		return false;
	}
	bool shadow = in->target == TGSI_TEXTURE_SHADOW1D || in->target == TGSI_TEXTURE_SHADOW2D ||
	              in->target == TGSI_TEXTURE_SHADOWRECT;
	float co[4][4];
	for (int l = 0; l < 4; l++) {
		for (int c = 0; c < 4; c++)
			co[l][c] = tx_u2f(s[l][0][c]);
		if (op == TGSI_OPCODE_TXP && co[l][3] != 0.0f)
			for (int c = 0; c < 3; c++)
				co[l][c] /= co[l][3];
	}
	float lod = 0.0f;
	if (group == 15) {
		float sc[3] = { (float)tx->w, (float)tx->h, (float)tx->d };
		float dx = 0, dy = 0;
		for (unsigned c = 0; c < tx->dims && c < 3; c++) {
			float ddx = (co[1][c] - co[0][c]) * sc[c], ddy = (co[2][c] - co[0][c]) * sc[c];
			dx += ddx * ddx;
			dy += ddy * ddy;
		}
		float rho = sqrtf(fmaxf(dx, dy));
		lod = rho > 0 ? log2f(rho) : -100.0f;
	}
	for (int l = 0; l < 4; l++) {
		if (!(group & (1u << l)))
			continue;
		float lv = lod;
		if (op == TGSI_OPCODE_TXB)
			lv += co[l][3];
		else if (op == TGSI_OPCODE_TXL)
			lv = co[l][3];
		float ref = tx->dims == 1 || in->target == TGSI_TEXTURE_SHADOW1D ? co[l][2] : co[l][2];
		float out[4];
		sample(tx, co[l], lv, shadow, ref, out);
		for (int c = 0; c < 4; c++)
			r[l][c] = tx_f2u(out[c]);
	}
	return true;
}

/* ---- the quad ---- */

static void reset_file(tgsi_exec_machine *m, unsigned f)
{
	for (size_t b = 0; b < m->files[f].nbanks; b++) {
		tgsi_exec_bank *bk = &m->files[f].banks[b];
		if (bk->n) {
			memset(bk->v, 0, bk->n * sizeof *bk->v);
			for (size_t i = 0; i < bk->n; i++)
				bk->flags[i] &= (uint8_t)~TGSI_EXEC_WRITTEN;
		}
	}
}

void pg_quad_reset(pg_quad *q)
{
	for (int l = 0; l < 4; l++) {
		reset_file(&q->m[l], TGSI_FILE_TEMPORARY);
		reset_file(&q->m[l], TGSI_FILE_OUTPUT);
		reset_file(&q->m[l], TGSI_FILE_ADDRESS);
		q->m[l].killed = false;
	}
}

bool pg_quad_run(pg_quad *q, char *reason, size_t n)
{
	const tgsi_shader *sh = q->m[0].sh;
	int32_t pc[4] = { 0, 0, 0, 0 };
	bool done[4] = { false, false, false, false };
	uint64_t steps = 0;
	ulp_diag dd;
	ulp_diag_clear(&dd);
	for (;;) {
		int32_t lo = INT32_MAX;
		for (int l = 0; l < 4; l++)
			if (!done[l] && pc[l] < lo)
				lo = pc[l];
		if (lo == INT32_MAX)
			return true;
		unsigned group = 0;
		for (int l = 0; l < 4; l++) {
			if (done[l])
				continue;
			if (pc[l] < 0 || (size_t)pc[l] >= sh->num_insts)
				done[l] = true;
			else if (pc[l] == lo)
				group |= 1u << l;
		}
		if (!group)
			continue;
		if (++steps > 4000000) {
			snprintf(reason, n, "reference: step limit exceeded (an endless loop?)");
			return false;
		}
		const tgsi_instruction *in = &sh->insts[lo];
		bool int_type = tx_int_sources(in->opcode);
		uint32_t s[4][TGSI_MAX_SRC][4], r[4][4];
		memset(s, 0, sizeof s);
		memset(r, 0, sizeof r);
		for (int l = 0; l < 4; l++)
			if (group & (1u << l))
				for (unsigned k = 0; k < in->num_src; k++)
					tgsi_exec_fetch(&q->m[l], &in->src[k], int_type, s[l][k]);
		bool write = false;
		for (int l = 0; l < 4; l++) {
			if (!(group & (1u << l)))
				continue;
			int32_t next = lo + 1;
			if (tgsi_exec_cf_next(in, lo, s[l][0][0], &next)) {
				pc[l] = next;
				continue;
			}
			switch (in->opcode) {
			case TGSI_OPCODE_END:
			case TGSI_OPCODE_RET:
				done[l] = true;
				break;
			case TGSI_OPCODE_KILL:
				q->m[l].killed = true;
				done[l] = true;
				break;
			case TGSI_OPCODE_KILL_IF:
			case TGSI_OPCODE_KIL:
				for (int c = 0; c < 4; c++)
					if (tx_u2f(s[l][0][c]) < 0.0f)
						q->m[l].killed = true;
				done[l] = q->m[l].killed;
				break;
			case TGSI_OPCODE_ENDIF:
			case TGSI_OPCODE_BGNLOOP:
			case TGSI_OPCODE_NOP:
				break;
			case TGSI_OPCODE_CAL:
			case TGSI_OPCODE_SWITCH:
				snprintf(reason, n, "reference: %s not interpreted",
				         tgsi_get_opcode_info(in->opcode)->mnemonic);
				return false;
			case TGSI_OPCODE_DDX:
			case TGSI_OPCODE_DDX_FINE:
			case TGSI_OPCODE_DDY:
			case TGSI_OPCODE_DDY_FINE:
				write = true;
				if (group == 15) {
					bool dx = in->opcode == TGSI_OPCODE_DDX || in->opcode == TGSI_OPCODE_DDX_FINE;
					int a = dx ? (l & 2) : (l & 1), b = dx ? a + 1 : a + 2;
					for (int c = 0; c < 4; c++)
						r[l][c] = tx_f2u(tx_u2f(s[b][0][c]) - tx_u2f(s[a][0][c]));
				}
				break;
			default:
				write = true;
				if (tgsi_get_opcode_info(in->opcode)->flags & TGSI_OPF_TEX) {
					/* once for the whole group, at its first lane */
					if (!(group & ((1u << l) - 1u)) && !tex_op(q, in, group, s, r, reason, n))
						return false;
				} else if (!tx_alu(in->opcode, (const uint32_t(*)[4])s[l], r[l])) {
					snprintf(reason, n, "reference: %s not supported by the interpreter",
					         tgsi_get_opcode_info(in->opcode)->mnemonic);
					return false;
				}
			}
			pc[l] = next;
		}
		if (write)
			for (int l = 0; l < 4; l++)
				if (group & (1u << l))
					for (unsigned k = 0; k < in->num_dst; k++)
						if (!tgsi_exec_store(&q->m[l], in, &in->dst[k], r[l], &dd)) {
							snprintf(reason, n, "reference: %s", dd.msg);
							return false;
						}
	}
}

/* Tegra fragment backend: ALU packets and their constants (tegra_sched.h).
 * A packet holds four slots, or three and the embedded constants imm0..imm2
 * in slot 3 (tegra-fp.md §2.4); when the constants would keep a packet from
 * a fourth slot they move to FP_CONST words no uniform uses (tfp_upool). */
#include <stdlib.h>
#include <string.h>

#include "frontends/tegra/tegra_sched.h"
#include "isa/fp20.h"

/* Constant operand: 0 when it is #0/#1 with modifiers, else 1 and its FP20. */
static int imm_bits(float k, uint32_t *bits)
{
	if (k == 0.0f || k == 1.0f || k == -1.0f || k == 2.0f || k == -2.0f)
		return 0;
	*bits = tfp_imm_bits(k);
	if ((*bits & 0x7FFFFu) == 0)
		return 0;   /* rounds to zero: #0 */
	return 1;
}

static unsigned slot_imms(const tfp_slot *s, uint32_t out[3])
{
	unsigned n = 0;
	for (unsigned k = 0; k < 3; k++) {
		uint32_t b;
		if (s->s[k].kind != TO_IMM || !imm_bits(s->s[k].k, &b))
			continue;
		bool dup = false;
		for (unsigned j = 0; j < n; j++)
			dup |= out[j] == b;
		if (!dup)
			out[n++] = b;
	}
	return n;
}

/* Distinct embedded constants of packet pk with slot s added (out, n). */
static unsigned packet_imms(const tfp_packet *pk, const tfp_slot *s, uint32_t out[6])
{
	uint32_t im[3];
	unsigned n = slot_imms(s, im), total = pk->nimm;
	memcpy(out, pk->imm, sizeof pk->imm);
	for (unsigned j = 0; j < n; j++) {
		bool have = false;
		for (unsigned i = 0; i < total; i++)
			have |= out[i] == im[j];
		if (!have)
			out[total++] = im[j];
	}
	return total;
}

/* The FP_CONST slot holding bits, -1 none. */
static int upool_find(const tfp_upool *u, uint32_t bits)
{
	for (unsigned k = 0; k < TEGRA_FP_NUM_CONST; k++)
		if ((u->used >> k & 1u) && u->bits[k] == bits)
			return (int)k;
	return -1;
}

/* Can the n constants im move to FP_CONST (held already or free slots)? */
static bool upool_room(const tfp_upool *u, const uint32_t *im, unsigned n)
{
	unsigned need = 0;
	for (unsigned j = 0; j < n; j++)
		need += upool_find(u, im[j]) < 0;
	return need <= (unsigned)__builtin_popcount(u->free);
}

/* Can slot s join packet pk?  Embedded constants take slot 3; when that
 * leaves no room for s, the packet's constants may move to FP_CONST. */
bool tfp_packet_fits(const tfp_sched *S, const tfp_packet *pk, const tfp_slot *s)
{
	uint32_t im[6];
	unsigned total = packet_imms(pk, s, im);
	if (total <= 3 && (unsigned)pk->n + 1 <= (total ? 3u : 4u))
		return true;
	return (unsigned)pk->n + 1 <= 4u && upool_room(S->up, im, total);
}

/* Operand o reads FP_CONST instead of an embedded constant. */
static void to_uniform(tfp_upool *u, tfp_opnd *o)
{
	uint32_t b;
	if (o->kind != TO_IMM || !imm_bits(o->k, &b))
		return;
	int k = upool_find(u, b);
	const float xk = tfp_xval(o);   /* arith=exact's binary32 (a fold's, docs/exact.md) */
	if (k < 0 && !u->free) {   /* two packets converted on one check (place_sfu) */
		u->overflow = true;
		return;
	}
	if (k < 0) {
		k = __builtin_ctz(u->free);
		u->free &= ~(1u << k);
		u->used |= 1u << k;
		u->bits[k] = b;
		u->k[k] = xk;
	} else if (memcmp(&u->k[k], &xk, sizeof xk) != 0) {
		u->kconflict |= 1u << k;
	}
	*o = (tfp_opnd){ .kind = TO_UNIF, .v = k, .neg = o->neg, .abs = o->abs, .m1 = o->m1, .x2 = o->x2 };
}

void tfp_packet_add(const tfp_sched *S, tfp_packet *pk, const tfp_slot *s)
{
	uint32_t im[6];
	unsigned total = packet_imms(pk, s, im);
	pk->slot[pk->n++] = *s;
	if (total <= 3 && (unsigned)pk->n <= (total ? 3u : 4u)) {
		pk->nimm = (uint8_t)total;
		memcpy(pk->imm, im, sizeof pk->imm);
		return;
	}
	for (unsigned k = 0; k < pk->n; k++)   /* packet_fits checked the room */
		for (unsigned j = 0; j < 3; j++)
			to_uniform(S->up, &pk->slot[k].s[j]);
	pk->nimm = 0;
}

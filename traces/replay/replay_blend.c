/* The trace's blend state (replay_blend.h). */
#include "traces/replay/replay_blend.h"

#include <string.h>

void replay_blend_default(tgsi_blend_state *b)
{
	memset(b, 0, sizeof *b);
	b->rgb_func = b->alpha_func = TGSI_BLEND_ADD;
	b->rgb_src = b->alpha_src = TGSI_BLEND_ONE;
	b->rgb_dst = b->alpha_dst = TGSI_BLEND_ZERO;
	b->colormask = 15;
}

/* The enum field `key` (validated by traces/), else def. */
static uint8_t pick(const cJSON *c, const char *key, bool func, uint8_t def)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(c, key);
	if (!cJSON_IsString(v))
		return def;
	return (uint8_t)(func ? tgsi_blend_func_from_name(v->valuestring)
	                      : tgsi_blend_factor_from_name(v->valuestring));
}

void replay_blend_state(const cJSON *c, tgsi_blend_state *b)
{
	replay_blend_default(b);
	b->enable = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(c, "enable"));
	b->rgb_func = pick(c, "rgb_func", true, TGSI_BLEND_ADD);
	b->rgb_src = pick(c, "rgb_src", false, TGSI_BLEND_ONE);
	b->rgb_dst = pick(c, "rgb_dst", false, TGSI_BLEND_ZERO);
	b->alpha_func = pick(c, "alpha_func", true, b->rgb_func);
	b->alpha_src = pick(c, "alpha_src", false, b->rgb_src);
	b->alpha_dst = pick(c, "alpha_dst", false, b->rgb_dst);
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(c, "colormask");
	if (cJSON_IsNumber(m))
		b->colormask = (uint8_t)(m->valueint & 15);
	const cJSON *col = cJSON_GetObjectItemCaseSensitive(c, "color");
	for (int k = 0; k < 4 && cJSON_IsArray(col); k++) {
		const cJSON *x = cJSON_GetArrayItem(col, k);
		b->color[k] = cJSON_IsNumber(x) ? (float)x->valuedouble : 0.0f;
	}
}

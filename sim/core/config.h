/* Simulator configuration: every knob in sim/core/config.def.  A config is a
 * plain struct passed explicitly; there is no global state. */
#ifndef ULP_SIM_CONFIG_H
#define ULP_SIM_CONFIG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "base/diag.h"
#include "isa/f24.h"
#include "isa/minifloat.h"

enum fx10_overflow { FX10_OVERFLOW_CLAMP, FX10_OVERFLOW_WRAP };
enum pica_undoc_policy { PICA_UNDOC_ERROR, PICA_UNDOC_NOP };
enum pica_dsti { PICA_DSTI_SAME, PICA_DSTI_SWAPPED };
/* arith: the hardware's number formats, or binary32 everywhere (docs/exact.md) */
enum ulp_arith { ULP_ARITH_HW, ULP_ARITH_EXACT };

#define CFG_TYPE_BOOL bool
#define CFG_TYPE_INT int64_t
#define CFG_TYPE_REAL double
#define CFG_TYPE_ROUND enum ulp_round
#define CFG_TYPE_ENUM_MAXNEG enum f24_max_neg_inf
#define CFG_TYPE_ENUM_OVERFLOW enum fx10_overflow
#define CFG_TYPE_ENUM_UNDOC enum pica_undoc_policy
#define CFG_TYPE_ENUM_DSTI enum pica_dsti
#define CFG_TYPE_ENUM_ARITH enum ulp_arith

typedef struct ulp_config {
#define KNOB(field, key, type, def, lo, hi, kind, doc) CFG_TYPE_##type field;
#include "sim/core/config.def"
#undef KNOB
} ulp_config;

enum cfg_kind { CFG_FACT, CFG_ASSUMPTION, CFG_MODEL, CFG_HOST };

typedef struct cfg_knob_info {
	const char *key;
	const char *doc;
	enum cfg_kind kind;
} cfg_knob_info;

void ulp_config_defaults(ulp_config *c);
/* Apply a JSON object, nested ({"f24": {"round": "truncate"}}) or flat
 * ({"f24.round": "truncate"}).  Errors name the JSON path. */
bool ulp_config_apply_json(ulp_config *c, const char *json, const char *file, ulp_diag *d);
bool ulp_config_load(ulp_config *c, const char *path, ulp_diag *d);
/* "key=value" as given to --set. */
bool ulp_config_set(ulp_config *c, const char *assignment, ulp_diag *d);
/* Apply a named preset: tegra2 (one GR3D, 300 MHz), tegra3 (two GR3D
 * blocks, 416 MHz), pica200 (4 shader units, 268 MHz).  A config file may
 * say "preset": NAME (applied where it appears); --set preset=NAME too. */
bool ulp_config_preset(ulp_config *c, const char *name, ulp_diag *d);
/* Write every knob as nested JSON (the config actually used). */
void ulp_config_dump_json(const ulp_config *c, FILE *f);

size_t ulp_config_knob_count(void);
const cfg_knob_info *ulp_config_knob(size_t i);

/* The float24 rules as the units use them. */
static inline f24_mode ulp_config_f24_mode(const ulp_config *c)
{
	return (f24_mode){ .round = c->f24_round, .max_neg_inf = c->f24_max_zero_neg_inf,
	                   .exact = c->arith == ULP_ARITH_EXACT };
}

#endif

/* sim/config: defaults, JSON (nested and flat), --set, errors with the JSON
 * path, the dump, and every ASSUMPTION knob documented. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fileio.h"
#include "sim/core/config.h"

Test(config, defaults_follow_the_table)
{
	ulp_config c;
	ulp_config_defaults(&c);
	cr_assert_eq(c.f24_round, ULP_ROUND_TRUNCATE);
	cr_assert_eq(c.fx10_round, ULP_ROUND_NEAREST_AWAY);
	cr_assert_eq(c.pica_units, 4);
	cr_assert_eq(c.pica_code_words, 512);
	cr_assert_eq(c.pica_undocumented, PICA_UNDOC_ERROR);
	f24_mode m = ulp_config_f24_mode(&c);
	cr_assert_eq(m.round, ULP_ROUND_TRUNCATE);
}

Test(config, json_nested_flat_and_set)
{
	ulp_config c;
	ulp_diag d;
	ulp_diag_clear(&d);
	ulp_config_defaults(&c);
	cr_assert(ulp_config_apply_json(&c, "{\"f24\": {\"round\": \"nearest-even\"},"
	                                    " \"pica.code_words\": 4096,"
	                                    " \"pica\": {\"latency\": {\"sfu\": 9}}}", "c.json", &d),
	          "%s", d.msg);
	cr_assert_eq(c.f24_round, ULP_ROUND_NEAREST_EVEN);
	cr_assert_eq(c.pica_code_words, 4096);
	cr_assert_eq(c.pica_lat_sfu, 9);
	cr_assert(ulp_config_set(&c, "f24.max_zero_neg_inf=neg_inf", &d), "%s", d.msg);
	cr_assert_eq(c.f24_max_zero_neg_inf, F24_MAX_NEG_INF);
	cr_assert(ulp_config_set(&c, "sim.watchdog_cycles=0x10", &d), "%s", d.msg);
	cr_assert_eq(c.watchdog_cycles, 16);
}

static void expect_error(const char *json, const char *needle)
{
	ulp_config c;
	ulp_diag d;
	ulp_diag_clear(&d);
	ulp_config_defaults(&c);
	cr_assert_not(ulp_config_apply_json(&c, json, "c.json", &d), "%s accepted", json);
	char buf[1024];
	ulp_diag_format(&d, buf, sizeof buf);
	cr_assert(strstr(buf, needle), "'%s' lacks '%s'", buf, needle);
}

Test(config, errors_name_the_path)
{
	expect_error("{\"f24\": {\"rnd\": \"truncate\"}}", "c.json: $.f24.rnd: unknown knob");
	expect_error("{\"f24\": {\"round\": \"up\"}}", "$.f24.round: 'up' is not one of nearest-even, truncate, nearest-away");
	expect_error("{\"pica\": {\"units\": 9}}", "$.pica.units: 9 is outside 1..4");
	expect_error("{\"pica\": {\"units\": true}}", "$.pica.units: wrong type");
	expect_error("{\"pica\": {\"units\": [1]}}", "$.pica.units: expected a value");
	expect_error("[1]", "$: expected an object");
	expect_error("{\n  \"a\": }", "c.json:2:");
	ulp_config c;
	ulp_diag d;
	ulp_diag_clear(&d);
	ulp_config_defaults(&c);
	cr_assert_not(ulp_config_set(&c, "nope", &d));
	cr_assert(strstr(d.msg, "expected key=value"));
}

Test(config, presets)
{
	ulp_config c;
	ulp_diag d;
	ulp_diag_clear(&d);
	ulp_config_defaults(&c);
	cr_assert_eq(c.gr3d_instances, 1);
	cr_assert(ulp_config_set(&c, "preset=tegra3", &d), "%s", d.msg);
	cr_assert_eq(c.gr3d_instances, 2);
	cr_assert_eq(c.gr3d_clock_mhz, 416);
	cr_assert(ulp_config_apply_json(&c, "{\"preset\": \"tegra2\", \"gr3d\": {\"clock_mhz\": 333}}", "p.json", &d),
	          "%s", d.msg);
	cr_assert_eq(c.gr3d_instances, 1);
	cr_assert_eq(c.gr3d_clock_mhz, 333, "later keys override the preset");
	cr_assert_not(ulp_config_set(&c, "preset=tegra9", &d));
	cr_assert(strstr(d.msg, "unknown preset 'tegra9'"), "%s", d.msg);
}

Test(config, dump_reloads_to_the_same_config)
{
	ulp_config a, b;
	ulp_diag d;
	ulp_diag_clear(&d);
	ulp_config_defaults(&a);
	cr_assert(ulp_config_set(&a, "fx10.overflow=wrap", &d));
	cr_assert(ulp_config_set(&a, "pica.latency.alu=5", &d));
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	ulp_config_dump_json(&a, f);
	fclose(f);
	ulp_config_defaults(&b);
	cr_assert(ulp_config_apply_json(&b, buf, "dump", &d), "%s", d.msg);
	cr_assert_eq(memcmp(&a, &b, sizeof a), 0);
	cr_assert(strstr(buf, "\"overflow\":\t\"wrap\""), "%s", buf);
	free(buf);
}

Test(config, every_assumption_is_documented)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	char *doc = ulp_read_file("docs/ASSUMPTIONS.md", NULL, &d);
	cr_assert(doc, "%s", d.msg);
	unsigned assumptions = 0;
	for (size_t i = 0; i < ulp_config_knob_count(); i++) {
		const cfg_knob_info *k = ulp_config_knob(i);
		cr_assert(k->doc && *k->doc, "%s has no description", k->key);
		if (k->kind != CFG_ASSUMPTION)
			continue;
		assumptions++;
		char needle[160];
		snprintf(needle, sizeof needle, "`%s`", k->key);
		cr_expect(strstr(doc, needle), "docs/ASSUMPTIONS.md lacks a row for %s", k->key);
	}
	cr_assert_gt(assumptions, 5);
	free(doc);
}

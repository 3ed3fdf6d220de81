/* The timeline writers' text, byte for byte: a fixed pseudo-random event
 * stream (activity spans and stalls, overlapping items, instants, ids and
 * args up to 2^32 - 1, cycles up to 2^40, an END without its BEGIN, lane
 * names that need escaping or cleaning, a lane with no name, more than one
 * chunk of events and more than one text buffer of output) through the
 * Perfetto JSON, VCD and Kanata writers.  The expected size and FNV-1a hash
 * of each file were taken from the writers as they were before the text
 * buffer (sim/out/tl_file.h: fprintf per field, commit 3862b98), so the
 * buffered formatting is checked to give the same bytes.  scripts/golden.sh
 * checks the same on the sample traces. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fileio.h"
#include "sim/core/unit.h"
#include "sim/out/tl_chrome.h"
#include "sim/out/tl_file.h"
#include "sim/out/tl_kanata.h"
#include "sim/out/tl_vcd.h"
#include "tests/test_util.h"

typedef struct expect {
	size_t size;
	uint64_t hash;
} expect;

static uint64_t fnv1a(const char *s, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 0x100000001b3ull;
	return h;
}

static uint32_t rnd(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)(*s >> 33);
}

/* The stream: lanes 0..5 named, lane 6 left unnamed (it is declared to the
 * VCD by its events in the first chunk). */
static void emit_stream(sim_timeline *tl, uint64_t seed, unsigned nevents, uint64_t cycle0)
{
	uint64_t s = seed;
	uint64_t cycle = cycle0;
	uint32_t open[7][8] = { { 0 } };
	unsigned nopen[7] = { 0 };
	uint32_t next_id = 0xfffffff0u;          /* wraps through 2^32 - 1 */
	for (unsigned i = 0; i < nevents; i++) {
		uint32_t r = rnd(&s);
		if (r % 4 == 0)
			cycle += r % 7 == 0 ? (uint64_t)(r >> 8) : r % 3;
		uint16_t lane = (uint16_t)((r >> 4) % 7);
		unsigned what = (r >> 8) % 6;
		if (what == 2 || what == 3)
			what = nopen[lane] < 8 ? 2 : 4;    /* a full lane ends one */
		switch (what) {
		case 0:
		case 1:
			sim_tl_emit(tl, cycle, lane, SIM_TL_ACTIVITY, 0, (r >> 12) % 5);
			break;
		case 2: {
			uint32_t id = next_id++;
			open[lane][nopen[lane]++] = id;
			sim_tl_emit(tl, cycle, lane, SIM_TL_BEGIN, id, r % 3 == 0 ? 0xffffffffu : r >> 20);
			break;
		}
		case 4:
			if (nopen[lane]) {
				unsigned k = (r >> 16) % nopen[lane];
				sim_tl_emit(tl, cycle, lane, SIM_TL_END, open[lane][k], 0);
				open[lane][k] = open[lane][--nopen[lane]];
			} else {
				sim_tl_emit(tl, cycle, lane, SIM_TL_END, 12345, 0);   /* no BEGIN */
			}
			break;
		default:
			sim_tl_emit(tl, cycle, lane, SIM_TL_INSTANT, r, r >> 3);
			break;
		}
	}
}

static char *slurp_n(const char *path, size_t *n)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	char *s = ulp_read_file(path, n, &d);
	cr_assert(s, "%s", d.msg);
	return s;
}

static void check(uint64_t seed, const char *path, const char *what, expect e)
{
	size_t n = 0;
	char *s = slurp_n(path, &n);
	uint64_t h = fnv1a(s, n);
	cr_expect(n == e.size && h == e.hash, "seed %llu %s: %zu bytes, hash 0x%016llx; want %zu, 0x%016llx",
	          (unsigned long long)seed, what, n, (unsigned long long)h, e.size, (unsigned long long)e.hash);
	free(s);
	remove(path);
}

/* One run of the stream through the three writers. */
static void run(uint64_t seed, unsigned nevents, uint64_t cycle0, uint32_t mhz, const tl_kanata_opts *ko,
                expect ej, expect ev, expect ek)
{
	sim_timeline tl;
	cr_assert(sim_tl_init(&tl));
	static const char *const NAMES[] = { "pseq", "alu", "we\"ird\\na\x01me", "tab\there", "dw", "mfu" };
	for (unsigned i = 0; i < 6; i++)
		sim_tl_lane(&tl, NAMES[i]);
	char *dir = test_tmpdir();
	cr_assert(dir);
	char pj[1024], pv[1024], pk[1024];
	snprintf(pj, sizeof pj, "%s/t.json", dir);
	snprintf(pv, sizeof pv, "%s/t.vcd", dir);
	snprintf(pk, sizeof pk, "%s/t.kanata", dir);
	tl_kanata_opts kopts = *ko;
	kopts.tl = &tl;
	ulp_diag d;
	ulp_diag_clear(&d);
	tl_chrome *c = tl_chrome_open(pj, &(tl_chrome_opts){ .tl = &tl, .clock_mhz = mhz, .process_name = "g\"pu" },
	                              &d);
	tl_vcd *v = tl_vcd_open(pv, &(tl_vcd_opts){ .tl = &tl, .top = "top-1" }, &d);
	tl_kanata *k = tl_kanata_open(pk, &kopts, &d);
	cr_assert(c && v && k, "%s", d.msg);
	cr_assert(sim_tl_add_sink(&tl, tl_chrome_sink(c)));
	cr_assert(sim_tl_add_sink(&tl, tl_vcd_sink(v)));
	cr_assert(sim_tl_add_sink(&tl, tl_kanata_sink(k)));
	tl.enabled = true;
	emit_stream(&tl, seed, nevents, cycle0);
	sim_tl_fini(&tl);
	cr_assert(tl_chrome_close(c, &d), "%s", d.msg);
	cr_assert(tl_vcd_close(v, &d), "%s", d.msg);
	cr_assert(tl_kanata_close(k, &d), "%s", d.msg);
	check(seed, pj, "json", ej);
	check(seed, pv, "vcd", ev);
	check(seed, pk, "kanata", ek);
	remove(dir);
	free(dir);
}

/* 1 cycle = 1 µs; Kanata with a retire grace. */
Test(tl_text, same_bytes_cycles)
{
	run(1, 30000, 0, 0, &(tl_kanata_opts){ .retire_after = 3 },
	    (expect){ 2096836, 0x5d905dc0111dc190ull }, (expect){ 430057, 0x1ad3b35d8b96f7eaull },
	    (expect){ 943509, 0x5870c2902e60185cull });
}

/* 300 MHz (three decimals), large cycles; Kanata with per-lane keys. */
Test(tl_text, same_bytes_300mhz)
{
	run(2, 20000, (1ull << 40) - 5, 300, &(tl_kanata_opts){ .lane_local = true },
	    (expect){ 1482782, 0x9e8085bbd41d28b5ull }, (expect){ 292789, 0x997a929b8243da9cull },
	    (expect){ 616464, 0x16b685e3b3cb025cull });
}

/* An odd clock (7 MHz); Kanata with last lanes (dw) and GR3D domains. */
Test(tl_text, same_bytes_7mhz)
{
	run(3, 9000, 17, 7, &(tl_kanata_opts){ .last_lanes = 1u << 4, .gr3d_domains = true },
	    (expect){ 668703, 0x7712aeec4ef6a950ull }, (expect){ 124449, 0x92de2f86eb4741a5ull },
	    (expect){ 277801, 0x6a6501c792512640ull });
}

/* Few events: one chunk, the header and trailers. */
Test(tl_text, same_bytes_short)
{
	run(4, 40, 1000, 0, &(tl_kanata_opts){ .gr3d_domains = true },
	    (expect){ 7027, 0x3b9594f3ae39f188ull }, (expect){ 2470, 0x1932d0656addf149ull },
	    (expect){ 1782, 0xbea07e7e16c19701ull });
}

/* The digits against printf's %llu: around every power of two and of ten,
 * and every value below 2^20. */
Test(tl_text, digits_as_printf)
{
	char a[32], b[32];
	uint64_t p10 = 1;
	for (int k = 0; k < 64; k++) {
		for (int d = -3; d <= 3; d++) {
			uint64_t vs[2] = { (1ull << k) + (uint64_t)(int64_t)d, k < 20 ? p10 + (uint64_t)(int64_t)d : 0 };
			for (int j = 0; j < 2; j++) {
				a[tl_fmt_u64(a, vs[j])] = '\0';
				snprintf(b, sizeof b, "%llu", (unsigned long long)vs[j]);
				cr_assert_str_eq(a, b);
			}
		}
		if (k < 19)
			p10 *= 10;
	}
	for (uint64_t v = 0; v < (1u << 20); v++) {
		a[tl_fmt_u64(a, v)] = '\0';
		snprintf(b, sizeof b, "%llu", (unsigned long long)v);
		if (strcmp(a, b))
			cr_assert_str_eq(a, b);
	}
}

/* One value through tl_fmt_u64 against %llu, with a guard: nothing is
 * stored at p + 20 or past it. */
static void digits_check(uint64_t v)
{
	char a[40], b[32];
	memset(a, '#', sizeof a);
	size_t n = tl_fmt_u64(a, v);
	snprintf(b, sizeof b, "%llu", (unsigned long long)v);
	for (size_t i = 20; i < sizeof a; i++)
		if (a[i] != '#')
			cr_assert_fail("%llu: byte %zu stored", (unsigned long long)v, i);
	a[n] = '\0';
	if (strcmp(a, b))
		cr_assert_str_eq(a, b);
}

/* The 8 digits at once (tl_digits8): its two halves of 4 digits and its
 * pairs are worked side by side, so every 4-digit value in each half (the
 * other half all values too), both halves' bounds, every number of digits
 * and its neighbours up to 2^64 - 1, and pseudo-random values of every
 * magnitude. */
Test(tl_text, digits_eight_at_once)
{
	for (uint64_t k = 0; k < 10000; k++) {
		digits_check(k * 10000u + k);
		digits_check(k * 10000u + (9999u - k));
		digits_check(k * 10000u);
		digits_check(k * 10000u + 9999u);
		digits_check(k * 100000000ull + 99999999u - k);       /* 9 to 12 digits */
		digits_check(k * 10000000000000000ull + k * 7919u);  /* 17 to 20 digits */
	}
	uint64_t p10 = 1;
	for (int k = 0; k < 20; k++, p10 *= 10)
		for (uint64_t d = 0; d < 1000; d++) {
			digits_check(p10 + d);
			digits_check(p10 - 1 - d);
			digits_check(p10 * 9 + d);
		}
	digits_check(UINT64_MAX);
	digits_check(UINT64_MAX - 1);
	uint64_t s = 7;
	for (int i = 0; i < 200000; i++) {
		uint64_t r = (uint64_t)rnd(&s) << 32 | rnd(&s);
		digits_check(r >> (r & 63u));
	}
}

/* v in binary as VCD writes it: no leading zeros, "0" for 0. */
static void binary(char *b, uint32_t v)
{
	char t[33];
	size_t n = 0;
	do {
		t[n++] = (char)('0' + (v & 1u));
		v >>= 1;
	} while (v);
	for (size_t i = 0; i < n; i++)
		b[i] = t[n - 1 - i];
	b[n] = '\0';
}

/* The VCD's values a byte of digits at a time (tl_vcd.c bin_at) against a
 * bit-by-bit binary, at every bit length (2^k - 1, 2^k, 2^k + 1) and for
 * pseudo-random words; and a time whose events change nothing has no
 * "#<time>" (the stamp taken back). */
Test(tl_text, vcd_values_and_stamps)
{
	enum { NV = 3 * 33 + 200 };
	uint32_t val[NV];
	unsigned nv = 0;
	for (unsigned k = 0; k <= 32; k++) {
		uint64_t p = 1ull << k;
		val[nv++] = (uint32_t)(p - 1u);
		val[nv++] = k < 32 ? (uint32_t)p : 0xfffffffeu;
		val[nv++] = k < 32 ? (uint32_t)(p + 1u) : 0x80000000u;
	}
	uint64_t s = 99;
	while (nv < NV) {
		uint32_t r = rnd(&s);
		val[nv++] = r >> (r & 31u);
	}
	sim_timeline tl;
	cr_assert(sim_tl_init(&tl));
	sim_tl_lane(&tl, "u");
	char *dir = test_tmpdir();
	cr_assert(dir);
	char pv[1024];
	snprintf(pv, sizeof pv, "%s/v.vcd", dir);
	ulp_diag d;
	ulp_diag_clear(&d);
	tl_vcd *v = tl_vcd_open(pv, &(tl_vcd_opts){ .tl = &tl }, &d);
	cr_assert(v, "%s", d.msg);
	cr_assert(sim_tl_add_sink(&tl, tl_vcd_sink(v)));
	tl.enabled = true;
	/* item i: BEGIN at 10i + 1 (id and arg val[i]), END at 10i + 5; at
	 * 10i + 3 the activity is set to what it is (no change, no stamp) */
	for (unsigned i = 0; i < nv; i++) {
		sim_tl_emit(&tl, 10u * i + 1u, 0, SIM_TL_BEGIN, val[i], val[i]);
		sim_tl_emit(&tl, 10u * i + 3u, 0, SIM_TL_ACTIVITY, 0, SIM_ACT_IDLE);
		sim_tl_emit(&tl, 10u * i + 5u, 0, SIM_TL_END, val[i], 0);
	}
	sim_tl_fini(&tl);
	cr_assert(tl_vcd_close(v, &d), "%s", d.msg);
	size_t n = 0;
	char *text = slurp_n(pv, &n);
	const char *p = strstr(text, "$dumpvars");
	cr_assert(p);
	p = strstr(p, "$end\n");
	cr_assert(p);
	p += 5;
	unsigned ni = 0, na = 0, nt = 0;
	uint64_t last_t = 0;
	while (*p) {
		const char *e = strchr(p, '\n');
		cr_assert(e);
		char line[64];
		size_t len = (size_t)(e - p);
		cr_assert(len < sizeof line);
		memcpy(line, p, len);
		line[len] = '\0';
		p = e + 1;
		if (line[0] == '#') {
			uint64_t t = strtoull(line + 1, NULL, 10);
			cr_assert(t % 10 == 1 || t % 10 == 5, "a stamp at %llu", (unsigned long long)t);
			cr_assert(nt == 0 || t > last_t);
			last_t = t;
			nt++;
			continue;
		}
		char want[40];
		if (strcmp(line + len - 2, " \"") == 0 && line[1] != 'x') {   /* item: the id */
			cr_assert(ni < nv);
			binary(want, val[ni++]);
		} else if (strcmp(line + len - 2, " #") == 0 && line[1] != 'x') {   /* arg */
			cr_assert(na < nv);
			binary(want, val[na++]);
		} else {
			continue;
		}
		line[len - 2] = '\0';
		cr_assert_str_eq(line + 1, want);
	}
	cr_expect(ni == nv && na == nv, "%u ids, %u args of %u", ni, na, nv);
	cr_expect(nt == 2 * nv, "%u stamps, want %u", nt, 2 * nv);
	free(text);
	remove(pv);
	remove(dir);
	free(dir);
}

static void odd_label(void *ctx, uint16_t lane, uint32_t id, uint32_t arg, char *buf, size_t n)
{
	(void)ctx;
	snprintf(buf, n, "l%u \"%u\"\t%x", (unsigned)lane, (unsigned)id, (unsigned)arg);
}

/* The Perfetto writer's constant texts (made at open): an item's tid in
 * every slot digit count (slots 0 to 299: tids ...001 to ...300), activity
 * codes past the known ones ("?"), a lane past the maximum, and items named
 * by a label callback (escaped), each line against the one printf makes. */
Test(tl_text, chrome_heads_slots_and_codes)
{
	for (int labelled = 0; labelled < 2; labelled++) {
		sim_timeline tl;
		cr_assert(sim_tl_init(&tl));
		sim_tl_lane(&tl, "a");
		sim_tl_lane(&tl, "b");
		char *dir = test_tmpdir();
		cr_assert(dir);
		char pj[1024];
		snprintf(pj, sizeof pj, "%s/h.json", dir);
		ulp_diag d;
		ulp_diag_clear(&d);
		tl_chrome *c = tl_chrome_open(pj, &(tl_chrome_opts){ .tl = &tl, .label = labelled ? odd_label : NULL },
		                              &d);
		cr_assert(c, "%s", d.msg);
		cr_assert(sim_tl_add_sink(&tl, tl_chrome_sink(c)));
		tl.enabled = true;
		for (uint32_t i = 0; i < 300; i++)
			sim_tl_emit(&tl, i, 1, SIM_TL_BEGIN, 1000000u + i, i * 4099u);
		sim_tl_emit(&tl, 300, 0, SIM_TL_ACTIVITY, 0, 200);                /* "?" */
		sim_tl_emit(&tl, 310, 0, SIM_TL_ACTIVITY, 0, SIM_ACT_STALL + 1);
		sim_tl_emit(&tl, 320, 0, SIM_TL_ACTIVITY, 0, SIM_ACT_IDLE);
		sim_tl_emit(&tl, 330, 200, SIM_TL_ACTIVITY, 0, SIM_ACT_BUSY);    /* the last lane */
		for (uint32_t i = 300; i--;)
			sim_tl_emit(&tl, 1000 + i, 1, SIM_TL_END, 1000000u + i, 0);
		sim_tl_fini(&tl);
		cr_assert(tl_chrome_close(c, &d), "%s", d.msg);
		size_t n = 0;
		char *text = slurp_n(pj, &n);
		char want[256];
		for (uint32_t i = 0; i < 300; i++) {
			char name[64];
			if (labelled)
				snprintf(name, sizeof name, "l1 \\\"%u\\\"\\u0009%x", 1000000u + i, i * 4099u);
			else
				snprintf(name, sizeof name, "0x%x", i * 4099u);
			snprintf(want, sizeof want,
			         "\n{\"ph\":\"X\",\"pid\":1,\"tid\":%u,\"cat\":\"item\",\"name\":\"%s\",\"ts\":%u,"
			         "\"dur\":%u,\"args\":{\"id\":%u,\"arg\":%u}}",
			         2001u + i, name, i, 1000u, 1000000u + i, i * 4099u);
			cr_assert(strstr(text, want), "missing: %s", want);
		}
		cr_assert(strstr(text, "\n{\"ph\":\"X\",\"pid\":1,\"tid\":1000,\"cat\":\"activity\",\"name\":\"?\","
		                       "\"ts\":300,\"dur\":10}"));
		snprintf(want, sizeof want,
		         "\n{\"ph\":\"X\",\"pid\":1,\"tid\":1000,\"cat\":\"activity\",\"name\":\"%s\",\"ts\":310,\"dur\":10}",
		         sim_activity_name(SIM_ACT_STALL + 1));
		cr_assert(strstr(text, want), "missing: %s", want);
		snprintf(want, sizeof want,
		         "\n{\"ph\":\"X\",\"pid\":1,\"tid\":%u,\"cat\":\"activity\",\"name\":\"busy\",\"ts\":330,\"dur\":969}",
		         1000u * SIM_TL_MAX_LANES);
		cr_assert(strstr(text, want), "missing: %s", want);
		free(text);
		remove(pj);
		remove(dir);
		free(dir);
	}
}

/* s with tabs and newlines as spaces, cut to n - 1 bytes when it had any
 * (tl_kanata.c clean). */
static void kanata_clean(char *out, const char *s, size_t n)
{
	if (!strpbrk(s, "\t\n\r")) {
		strcpy(out, s);
		return;
	}
	size_t k = 0;
	for (; s[k] && k + 1 < n; k++)
		out[k] = s[k] == '\t' || s[k] == '\n' || s[k] == '\r' ? ' ' : s[k];
	out[k] = '\0';
}

/* Kanata's lines of a new instruction and its stages, against printf's, for
 * lane names around the lengths where the writer keeps a stage line's end
 * (44 and 45 bytes), names that need cleaning, one cut when cleaned (past
 * 63 bytes) and one that makes the label longer than its 159 bytes; ids and
 * args of every width. */
Test(tl_text, kanata_lines_by_name_length)
{
	static char names[6][160];
	memset(names, 0, sizeof names);
	memset(names[0], 'a', 44);
	memset(names[1], 'b', 45);
	memset(names[2], 'c', 44);
	names[2][1] = '\t';
	memset(names[3], 'd', 45);
	names[3][3] = '\n';
	for (int i = 0; i < 80; i++)
		names[4][i] = i % 2 ? '\t' : 'e';
	memset(names[5], 'f', 150);
	static const uint32_t ids[3] = { 7, 99999999u, 4294967295u };
	static const uint32_t args[3] = { 0, 0xabcu, 0xffffffffu };
	sim_timeline tl;
	cr_assert(sim_tl_init(&tl));
	for (int l = 0; l < 6; l++)
		sim_tl_lane(&tl, names[l]);
	char *dir = test_tmpdir();
	cr_assert(dir);
	char pk[1024];
	snprintf(pk, sizeof pk, "%s/k.kanata", dir);
	ulp_diag d;
	ulp_diag_clear(&d);
	tl_kanata *k = tl_kanata_open(pk, &(tl_kanata_opts){ .tl = &tl, .lane_local = true }, &d);
	cr_assert(k, "%s", d.msg);
	cr_assert(sim_tl_add_sink(&tl, tl_kanata_sink(k)));
	tl.enabled = true;
	for (int l = 0; l < 6; l++)
		for (int j = 0; j < 3; j++)
			sim_tl_emit(&tl, (uint64_t)(l * 3 + j), (uint16_t)l, SIM_TL_BEGIN, ids[j], args[j]);
	for (int l = 0; l < 6; l++)
		for (int j = 0; j < 3; j++)
			sim_tl_emit(&tl, 100, (uint16_t)l, SIM_TL_END, ids[j], 0);
	sim_tl_fini(&tl);
	cr_assert(tl_kanata_close(k, &d), "%s", d.msg);
	size_t n = 0;
	char *text = slurp_n(pk, &n);
	for (int l = 0; l < 6; l++) {
		char stage[160];
		kanata_clean(stage, names[l], 64);
		for (int j = 0; j < 3; j++) {
			unsigned serial = (unsigned)(l * 3 + j);
			char label[1024], clean_label[160], want[1024];
			snprintf(label, sizeof label, "%s 0x%x #%lu", names[l], args[j], (unsigned long)ids[j]);
			label[159] = '\0';                             /* the writer's label buffer */
			kanata_clean(clean_label, label, 160);
			snprintf(want, sizeof want, "I\t%u\t%u\t0\nL\t%u\t0\t%s\nL\t%u\t1\tid %u arg %u (%s)\nS\t%u\t0\t%s\n",
			         serial, ids[j], serial, clean_label, serial, ids[j], args[j], stage, serial, stage);
			cr_assert(strstr(text, want), "lane %d item %d: missing\n%s", l, j, want);
			snprintf(want, sizeof want, "\nE\t%u\t0\t%s\n", serial, stage);
			cr_assert(strstr(text, want), "lane %d item %d: missing\n%s", l, j, want);
			snprintf(want, sizeof want, "\nR\t%u\t%u\t0\n", serial, serial);
			cr_assert(strstr(text, want), "lane %d item %d: missing\n%s", l, j, want);
		}
	}
	free(text);
	remove(pk);
	remove(dir);
	free(dir);
}

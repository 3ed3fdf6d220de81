/* gem5-style stats.txt writer (stats_txt.h). */
#include "sim/out/stats_txt.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fileio.h"

static const char BEGIN_LINE[] = "---------- Begin Simulation Statistics ----------\n";
static const char END_LINE[] = "---------- End Simulation Statistics   ----------\n";

struct stats_txt {
	ulp_out out;
	stats_txt_opts o;
	sim_unit **units;
	unsigned nunits;
	FILE *draws;                       /* tmpfile() with the drawN.* lines */
	unsigned ndraws;
	bool in_draw;
	uint64_t draw_start;
	sim_unit_stats *snap;              /* per unit, at begin_draw */
	stats_port_mark port[STATS_MAX_PORTS];
	unsigned nports;
};

static void line(FILE *f, const char *name, const char *value, const char *desc)
{
	fprintf(f, "%-48s %16s  # %s\n", name, value, desc);
}

static void line_u(FILE *f, const char *name, uint64_t v, const char *desc)
{
	char buf[32];
	snprintf(buf, sizeof buf, "%llu", (unsigned long long)v);
	line(f, name, buf, desc);
}

static void line_r(FILE *f, const char *name, double v, const char *desc)
{
	char buf[48];
	snprintf(buf, sizeof buf, "%.6f", v);
	line(f, name, buf, desc);
}

/* Seconds to the ns: a short run is still visible. */
static void line_s(FILE *f, const char *name, double v, const char *desc)
{
	char buf[48];
	snprintf(buf, sizeof buf, "%.9f", v);
	line(f, name, buf, desc);
}

/* <pre>sim.cycles and <pre><prefix>.<unit>.* for stats st[] over cycles. */
static void write_block(const stats_txt *s, FILE *f, const char *pre, const sim_unit_stats *st,
                        uint64_t cycles)
{
	const char *gpu = s->o.prefix ? s->o.prefix : "gpu";
	char name[256], desc[160];
	snprintf(name, sizeof name, "%ssim.cycles", pre);
	line_u(f, name, cycles, "cycles simulated");
	if (s->o.silicon_mhz) {
		snprintf(name, sizeof name, "%ssim.seconds", pre);
		snprintf(desc, sizeof desc, "simulated seconds at the silicon clock (%u MHz)",
		         s->o.silicon_mhz);
		line_s(f, name, (double)cycles / ((double)s->o.silicon_mhz * 1e6), desc);
	}
	for (unsigned i = 0; i < s->nunits; i++) {
		const sim_unit *u = s->units[i];
		const sim_unit_stats *x = &st[i];
		char base[160];
		snprintf(base, sizeof base, "%s%s.%s", pre, gpu, u->name ? u->name : "unit");
		uint64_t stalled = 0;
		for (unsigned c = 0; c < SIM_STALL_COUNT; c++)
			stalled += x->stall[c];
		uint64_t used = x->busy + stalled;
		snprintf(name, sizeof name, "%s.busy_cycles", base);
		line_u(f, name, x->busy, "cycles doing useful work");
		for (unsigned c = 0; c < SIM_STALL_COUNT; c++) {
			snprintf(name, sizeof name, "%s.stall_cycles::%s", base,
			         sim_stall_name((enum sim_stall)c));
			snprintf(desc, sizeof desc, "stalled: %s", sim_stall_desc((enum sim_stall)c));
			line_u(f, name, x->stall[c], desc);
		}
		snprintf(name, sizeof name, "%s.stall_cycles::total", base);
		line_u(f, name, stalled, "stalled, all causes");
		snprintf(name, sizeof name, "%s.idle_cycles", base);
		line_u(f, name, cycles > used ? cycles - used : 0, "neither busy nor stalled");
		snprintf(name, sizeof name, "%s.utilization", base);
		line_r(f, name, cycles ? (double)x->busy / (double)cycles : 0.0,
		       "busy_cycles / sim.cycles");
		for (unsigned k = 0; k < u->ncounters && k < SIM_MAX_COUNTERS; k++) {
			const sim_counter_def *def = u->counter_defs ? &u->counter_defs[k] : NULL;
			if (def && def->name)
				snprintf(name, sizeof name, "%s.%s", base, def->name);
			else
				snprintf(name, sizeof name, "%s.counter%u", base, k);
			line_u(f, name, x->counter[k], def && def->desc ? def->desc : "unit counter");
		}
	}
}

static sim_unit_stats *current_stats(const stats_txt *s)
{
	sim_unit_stats *st = calloc(s->nunits ? s->nunits : 1, sizeof *st);
	for (unsigned i = 0; st && i < s->nunits; i++)
		st[i] = s->units[i]->stats;
	return st;
}

stats_txt *stats_txt_open(const char *path, sim_unit *const *units, unsigned nunits,
                          const stats_txt_opts *opts, ulp_diag *d)
{
	stats_txt *s = calloc(1, sizeof *s);
	if (s && nunits) {
		s->units = malloc(nunits * sizeof *s->units);
		s->snap = calloc(nunits, sizeof *s->snap);
	}
	if (!s || (nunits && (!s->units || !s->snap))) {
		if (s) {
			free(s->units);
			free(s->snap);
		}
		free(s);
		ulp_diag_at(d, path, 0, 0, "out of memory");
		return NULL;
	}
	if (nunits)
		memcpy(s->units, units, nunits * sizeof *units);
	s->nunits = nunits;
	if (opts)
		s->o = *opts;
	if (!ulp_out_open(&s->out, path, d)) {
		free(s->units);
		free(s->snap);
		free(s);
		return NULL;
	}
	return s;
}

bool stats_txt_begin_draw(stats_txt *s, uint64_t cycle, ulp_diag *d)
{
	if (s->in_draw)
		return ulp_diag_at(d, s->out.path, 0, 0, "begin_draw: draw %u has not ended", s->ndraws);
	for (unsigned i = 0; i < s->nunits; i++)
		s->snap[i] = s->units[i]->stats;
	s->draw_start = cycle;
	s->in_draw = true;
	return true;
}

bool stats_txt_end_draw(stats_txt *s, uint64_t cycle, ulp_diag *d)
{
	if (!s->in_draw)
		return ulp_diag_at(d, s->out.path, 0, 0, "end_draw without begin_draw");
	s->in_draw = false;
	if (!s->draws && !(s->draws = tmpfile()))
		return ulp_diag_at(d, s->out.path, 0, 0, "cannot create a temporary file: %s",
		                   strerror(errno));
	sim_unit_stats *delta = current_stats(s);
	if (!delta)
		return ulp_diag_at(d, s->out.path, 0, 0, "out of memory");
	for (unsigned i = 0; i < s->nunits; i++) {
		const sim_unit_stats *a = &s->snap[i];
		sim_unit_stats *b = &delta[i];
		b->busy -= a->busy;
		for (unsigned c = 0; c < SIM_STALL_COUNT; c++)
			b->stall[c] -= a->stall[c];
		for (unsigned k = 0; k < SIM_MAX_COUNTERS; k++)
			b->counter[k] -= a->counter[k];
	}
	char pre[32];
	snprintf(pre, sizeof pre, "draw%u.", s->ndraws++);
	write_block(s, s->draws, pre, delta, cycle > s->draw_start ? cycle - s->draw_start : 0);
	free(delta);
	if (ferror(s->draws))
		return ulp_diag_at(d, s->out.path, 0, 0, "write error (per-draw statistics)");
	return true;
}

static bool copy_draws(stats_txt *s, ulp_diag *d)
{
	if (!s->draws)
		return true;
	if (fflush(s->draws) != 0 || fseek(s->draws, 0, SEEK_SET) != 0)
		return ulp_diag_at(d, s->out.path, 0, 0, "cannot read back the per-draw statistics");
	char buf[8192];
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, s->draws)) > 0)
		if (fwrite(buf, 1, n, s->out.f) != n)
			return ulp_diag_at(d, s->out.path, 0, 0, "write error");
	if (ferror(s->draws))
		return ulp_diag_at(d, s->out.path, 0, 0, "cannot read back the per-draw statistics");
	return true;
}

static void free_writer(stats_txt *s)
{
	if (s->draws)
		fclose(s->draws);
	free(s->units);
	free(s->snap);
	free(s);
}

stats_port_mark stats_port_mark_of(const char *name, uint32_t capacity, uint32_t max_count)
{
	stats_port_mark m = { .capacity = capacity, .max_count = max_count };
	snprintf(m.name, sizeof m.name, "%s", name ? name : "?");
	return m;
}

void stats_txt_port_marks(stats_txt *s, const stats_port_mark *m, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		unsigned k = 0;
		while (k < s->nports && strcmp(s->port[k].name, m[i].name))
			k++;
		if (k == s->nports) {
			if (s->nports == STATS_MAX_PORTS)
				continue;
			s->port[s->nports++] = m[i];
		} else if (m[i].max_count > s->port[k].max_count) {
			s->port[k].max_count = m[i].max_count;
		}
	}
}

/* <prefix>.port.<name>.max_count for every port recorded. */
static void write_ports(const stats_txt *s, FILE *f)
{
	const char *gpu = s->o.prefix ? s->o.prefix : "gpu";
	for (unsigned k = 0; k < s->nports; k++) {
		char pname[96] = "", name[192], desc[96];
		for (const char *c = s->port[k].name; *c && strlen(pname) + 5 < sizeof pname; c++) {
			if (c[0] == '-' && c[1] == '>') {
				strcat(pname, "_to_");
				c++;
			} else {
				strncat(pname, c, 1);
			}
		}
		snprintf(name, sizeof name, "%s.port.%s.max_count", gpu, pname);
		snprintf(desc, sizeof desc, "most items the port held at once (capacity %u)", s->port[k].capacity);
		line_u(f, name, s->port[k].max_count, desc);
	}
}

bool stats_txt_close(stats_txt *s, uint64_t cycles, double host_seconds, ulp_diag *d)
{
	if (!s)
		return false;
	FILE *f = s->out.f;
	sim_unit_stats *st = current_stats(s);
	if (!st) {
		stats_txt_abort(s);
		return ulp_diag_at(d, NULL, 0, 0, "out of memory");
	}
	fputs(BEGIN_LINE, f);
	write_block(s, f, "", st, cycles);
	free(st);
	write_ports(s, f);
	if (s->o.host) {
		line_r(f, "host_seconds", host_seconds, "host wall-clock seconds");
		line_r(f, "sim_cycles_per_s", host_seconds > 0 ? (double)cycles / host_seconds : 0.0,
		       "simulated cycles per host second");
		if (s->o.silicon_mhz && cycles) {
			double silicon = (double)cycles / ((double)s->o.silicon_mhz * 1e6);
			line_r(f, "silicon_slowdown", host_seconds / silicon,
			       "host seconds per simulated second at the silicon clock");
		}
	}
	bool ok = copy_draws(s, d);
	if (ok) {
		fputs(END_LINE, f);
		if (s->o.cfg) {
			fputc('\n', f);
			ulp_config_dump_json(s->o.cfg, f);
		}
		ok = ulp_out_commit(&s->out, d);
	} else {
		ulp_out_abort(&s->out);
	}
	s->out.f = NULL;
	free_writer(s);
	return ok;
}

void stats_txt_abort(stats_txt *s)
{
	if (!s)
		return;
	ulp_out_abort(&s->out);
	free_writer(s);
}

bool stats_txt_write_clock(const char *path, const sim_clock *c, const stats_txt_opts *opts,
                           double host_seconds, ulp_diag *d)
{
	stats_txt *s = stats_txt_open(path, c->unit, c->nunits, opts, d);
	if (!s)
		return false;
	for (unsigned k = 0; k < c->nports; k++) {
		const stats_port_mark m = stats_port_mark_of(c->port[k]->name, c->port[k]->capacity,
		                                             c->port[k]->max_count);
		stats_txt_port_marks(s, &m, 1);
	}
	return stats_txt_close(s, c->now, host_seconds, d);
}

/* ulpsim piglit DIR... [--report r.json] [--images OUTDIR] [--compare-softpipe]
 * Runs piglit shader tests (corpus folders) on the simulator and on the
 * float reference renderer and scores them (docs/piglit.md). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cjson/cJSON.h>

#include "base/fileio.h"
#include "base/image.h"
#include "cli/cli.h"
#include "traces/piglit/piglit.h"
#include "sim/check/compare.h"

static const char usage[] =
	"usage: ulpsim piglit <test-dir>... [--report report.json] [--images OUTDIR]\n"
	"                     [--compare-softpipe] [--sim-only | --ref-only] [--quiet]\n"
	"                     [--report-only] [--no-exact]\n"
	"  runs each corpus test folder (vs.tgsi, fs.tgsi, test.txt, meta.json) on three paths:\n"
	"    sim        a ulpsim trace replayed on the simulated GPU\n"
	"    exact      the same trace with --set arith=exact (binary32 arithmetic, the\n"
	"               same compiled programs and timing: docs/exact.md)\n"
	"    reference  the TGSI reference interpreter on a float rasterizer\n"
	"  and checks piglit's probes (tolerance 3/256).  Per test: pass, fail (the probe,\n"
	"  expected vs got; 'precision' when the exact path passes, else 'bug') or refused\n"
	"  (what cannot be run today, with the command's line).\n"
	"  --no-exact          skip the exact path (a failure is then 'fail', unclassified)\n"
	"  --report F          everything as JSON, written atomically\n"
	"  --images DIR        DIR/<test>.ulpsim.png, .ref.png and .diff.png (vs softpipe.png)\n"
	"  --compare-softpipe  PSNR and max difference of each final image vs softpipe.png\n"
	"  --quiet             only the summary\n"
	"  --report-only       a scoring run: exit 0 whatever the scores\n"
	"exit: 0 every test that ran passed (or was refused: what cannot run today),\n"
	"      1 a test failed on a path it ran (not with --report-only),\n"
	"      2 bad usage or input (a folder that is not there)\n";

static cJSON *path_json(const pg_path_result *p)
{
	cJSON *o = cJSON_CreateObject();
	if (!o)
		return NULL;
	cJSON_AddStringToObject(o, "status", pg_status_name(p->status));
	if (p->reason[0])
		cJSON_AddStringToObject(o, "reason", p->reason);
	if (p->line)
		cJSON_AddNumberToObject(o, "line", p->line);
	cJSON_AddNumberToObject(o, "probes", p->probes);
	cJSON_AddNumberToObject(o, "probes_passed", p->probes_passed);
	if (p->status == PG_FAIL) {
		cJSON *f = cJSON_AddObjectToObject(o, "failed_probe");
		cJSON_AddNumberToObject(f, "line", p->probe.line);
		cJSON_AddStringToObject(f, "command", p->probe.text);
		cJSON_AddNumberToObject(f, "x", p->probe.x);
		cJSON_AddNumberToObject(f, "y", p->probe.y);
		cJSON *e = cJSON_AddArrayToObject(f, "expected"), *g = cJSON_AddArrayToObject(f, "got");
		for (unsigned k = 0; k < p->probe.ncomp; k++) {
			cJSON_AddItemToArray(e, cJSON_CreateNumber(p->probe.expected[k]));
			cJSON_AddItemToArray(g, cJSON_CreateNumber(p->probe.got[k]));
		}
	}
	cJSON_AddNumberToObject(o, "seconds", p->seconds);
	return o;
}

static void add_cmp(cJSON *o, const char *key, bool have, double psnr, unsigned maxd)
{
	if (!have)
		return;
	cJSON *c = cJSON_AddObjectToObject(o, key);
	if (isinf(psnr))
		cJSON_AddStringToObject(c, "psnr_db", "inf");
	else
		cJSON_AddNumberToObject(c, "psnr_db", psnr);
	cJSON_AddNumberToObject(c, "max_diff", maxd);
}

/* A sim failure is precision when the exact path passes, bug when it ran
 * and did not (docs/piglit.md). */
static const char *classify(const pg_result *r, bool exact_ran)
{
	if (r->sim.status != PG_FAIL)
		return pg_status_name(r->sim.status);
	if (!exact_ran)
		return "fail";
	return r->precision ? "precision" : "bug";
}

static void save_images(const char *dir, const pg_result *r)
{
	char p[1600];
	ulp_diag d;
	ulp_diag_clear(&d);
	if (r->sim.image) {
		snprintf(p, sizeof p, "%s/%s.ulpsim.png", dir, r->name);
		ulp_image_save_png(r->sim.image, p, &d);
	}
	if (r->ref.image) {
		snprintf(p, sizeof p, "%s/%s.ref.png", dir, r->name);
		ulp_image_save_png(r->ref.image, p, &d);
	}
	(void)d;
}

static void save_diff(const char *dir, const char *test_dir, const pg_result *r)
{
	const ulp_image *img = r->sim.image ? r->sim.image : r->ref.image;
	if (!img)
		return;
	char p[1600];
	ulp_diag d;
	ulp_diag_clear(&d);
	snprintf(p, sizeof p, "%s/softpipe.png", test_dir);
	ulp_image *sp = ulp_image_load_png(p, &d);
	if (!sp)
		return;
	ulp_compare_result cr;
	ulp_image *diff = NULL;
	if (ulp_compare_images(img, sp, 3, &cr, &diff, &d)) {
		snprintf(p, sizeof p, "%s/%s.diff.png", dir, r->name);
		ulp_image_save_png(diff, p, &d);
	}
	ulp_image_free(diff);
	ulp_image_free(sp);
}

enum { MAX_CATS = 64 };
typedef struct cats {
	char what[MAX_CATS][120];
	unsigned count[MAX_CATS];
	unsigned n;
} cats;

/* A refusal's category: its reason without "line N: " and "$.commands[N]: ". */
static void count_cat(cats *c, const char *reason)
{
	char buf[PG_REASON_MAX];
	const char *p = reason;
	if (!strncmp(p, "line ", 5)) {
		const char *q = strchr(p, ':');
		if (q)
			p = q + 2;
	}
	const char *cmd = strstr(p, "$.commands[");
	size_t o = 0;
	for (; *p && o + 1 < sizeof buf; p++) {
		if (p == cmd) {
			const char *q = strstr(p, "]: ");
			if (q) {
				p = q + 2;
				continue;
			}
		}
		buf[o++] = *p;
	}
	buf[o] = '\0';
	char *sc = strchr(buf, ';');
	if (sc)
		*sc = '\0';
	if (strlen(buf) > 110)
		buf[110] = '\0';
	for (unsigned i = 0; i < c->n; i++)
		if (!strcmp(c->what[i], buf)) {
			c->count[i]++;
			return;
		}
	if (c->n < MAX_CATS) {
		memcpy(c->what[c->n], buf, strlen(buf) + 1);   /* at most 111 bytes */
		c->count[c->n++] = 1;
	}
}

static void print_cats(const char *label, const cats *c)
{
	bool done[MAX_CATS] = { false };
	for (unsigned k = 0; k < c->n; k++) {
		unsigned best = 0, bi = 0;
		for (unsigned i = 0; i < c->n; i++)
			if (!done[i] && c->count[i] > best) {
				best = c->count[i];
				bi = i;
			}
		done[bi] = true;
		printf("  %s refused %4u: %s\n", label, best, c->what[bi]);
	}
}

int cmd_piglit(int argc, char **argv)
{
	if (cli_wants_help(argc, argv)) {
		fputs(usage, stdout);
		return EXIT_OK;
	}
	const char *report = NULL, *images = NULL;
	pg_run_opts o = { .run_sim = true, .run_ref = true, .run_exact = true };
	bool quiet = false, opts_done = false, report_only = false;
	char **dirs = calloc((size_t)argc, sizeof *dirs);
	int ndirs = 0;
	if (!dirs)
		return EXIT_BAD;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!opts_done && !strcmp(a, "--")) {
			opts_done = true;
		} else if (!opts_done && !strcmp(a, "--report")) {
			if (++i >= argc || !*argv[i]) {
				free(dirs);
				return cli_usage("piglit", "--report takes a file name");
			}
			report = argv[i];
		} else if (!opts_done && !strcmp(a, "--images")) {
			if (++i >= argc || !*argv[i]) {
				free(dirs);
				return cli_usage("piglit", "--images takes a directory");
			}
			images = argv[i];
		} else if (!opts_done && !strcmp(a, "--compare-softpipe")) {
			o.compare_softpipe = true;
		} else if (!opts_done && !strcmp(a, "--sim-only")) {
			o.run_ref = false;
		} else if (!opts_done && !strcmp(a, "--ref-only")) {
			o.run_sim = false;
		} else if (!opts_done && !strcmp(a, "--quiet")) {
			quiet = true;
		} else if (!opts_done && !strcmp(a, "--report-only")) {
			report_only = true;
		} else if (!opts_done && !strcmp(a, "--no-exact")) {
			o.run_exact = false;
		} else if (!opts_done && a[0] == '-' && a[1]) {
			free(dirs);
			return cli_usage("piglit", "unknown option '%s'", a);
		} else {
			size_t l = strlen(a);
			if (l > 9 && !strcmp(a + l - 9, "README.md"))
				continue;       /* a shell glob over the corpus folder picks it up */
			dirs[ndirs++] = argv[i];
		}
	}
	if (!ndirs) {
		free(dirs);
		return cli_usage("piglit", "expected at least one test folder");
	}
	for (int i = 0; i < ndirs; i++) {       /* bad input before any output */
		struct stat sb;
		if (stat(dirs[i], &sb) != 0 || !S_ISDIR(sb.st_mode)) {
			ulp_diag d;
			ulp_diag_clear(&d);
			ulp_diag_at(&d, dirs[i], 0, 0, "not a test folder (%s)",
			            stat(dirs[i], &sb) != 0 ? "no such folder" : "not a folder");
			free(dirs);
			return cli_fail(&d);
		}
	}
	if (images && mkdir(images, 0777) != 0) {
		struct stat sb;
		if (stat(images, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
			free(dirs);
			return cli_usage("piglit", "cannot create the directory '%s'", images);
		}
	}
	cJSON *root = cJSON_CreateObject(), *tests = cJSON_CreateArray();
	cats *sim_cats = calloc(2, sizeof *sim_cats), *ref_cats = sim_cats ? sim_cats + 1 : NULL;
	if (!sim_cats) {
		free(dirs);
		cJSON_Delete(root);
		cJSON_Delete(tests);
		return EXIT_BAD;
	}
	unsigned npass = 0, nfail = 0, nprec = 0, nbug = 0, nref = 0, rpass = 0, rfail = 0, rref = 0;
	unsigned xpass = 0, xfail = 0, xref = 0, xonly_fail = 0;   /* the exact path */
	unsigned failed = 0;                 /* tests that failed on a path they ran */
	for (int i = 0; i < ndirs; i++) {
		pg_result r;
		pg_run_test(dirs[i], &o, &r);
		switch (r.sim.status) {
		case PG_PASS: npass++; break;
		case PG_FAIL: nfail++; r.precision ? nprec++ : nbug++; break;
		default:
			nref++;
			if (o.run_sim)
				count_cat(sim_cats, r.sim.reason);
		}
		const bool exact_ran = o.run_exact && o.run_sim;
		if (exact_ran) {
			xpass += r.exact.status == PG_PASS;
			xfail += r.exact.status == PG_FAIL;
			xref += r.exact.status == PG_REFUSED;
			xonly_fail += r.exact.status == PG_FAIL && r.sim.status == PG_PASS;
		}
		switch (r.ref.status) {
		case PG_PASS: rpass++; break;
		case PG_FAIL: rfail++; break;
		default:
			rref++;
			if (o.run_ref)
				count_cat(ref_cats, r.ref.reason);
		}
		if (!quiet) {
			printf("%s: %s", r.name, classify(&r, exact_ran));
			if (r.sim.status != PG_PASS && o.run_sim)
				printf(" (%s)", r.sim.reason);
			if (exact_ran && r.sim.status != PG_REFUSED) {
				printf("; exact %s", pg_status_name(r.exact.status));
				if (r.exact.status != PG_PASS)
					printf(" (%s)", r.exact.reason);
			}
			printf("; reference %s", pg_status_name(r.ref.status));
			if (r.ref.status != PG_PASS && o.run_ref)
				printf(" (%s)", r.ref.reason);
			if (r.sim_compared)
				printf("; psnr %.2f dB max %u", r.psnr_sim, r.maxdiff_sim);
			if (r.ref_compared)
				printf("; reference psnr %.2f dB max %u", r.psnr_ref, r.maxdiff_ref);
			printf("\n");
		}
		if (images) {
			save_images(images, &r);
			save_diff(images, dirs[i], &r);
		}
		if (tests) {
			cJSON *t = cJSON_CreateObject();
			cJSON_AddStringToObject(t, "name", r.name);
			cJSON_AddStringToObject(t, "dir", dirs[i]);
			cJSON_AddStringToObject(t, "result", classify(&r, exact_ran));
			cJSON_AddItemToObject(t, "sim", path_json(&r.sim));
			if (exact_ran)
				cJSON_AddItemToObject(t, "exact", path_json(&r.exact));
			cJSON_AddItemToObject(t, "reference", path_json(&r.ref));
			add_cmp(t, "softpipe_sim", r.sim_compared, r.psnr_sim, r.maxdiff_sim);
			add_cmp(t, "softpipe_reference", r.ref_compared, r.psnr_ref, r.maxdiff_ref);
			cJSON_AddItemToArray(tests, t);
		}
		failed += (o.run_sim && r.sim.status == PG_FAIL) || (o.run_ref && r.ref.status == PG_FAIL);
		pg_result_free(&r);
		fflush(stdout);
	}
	if (o.run_exact && o.run_sim) {
		printf("piglit: %u pass, %u fail (%u precision, %u bug), %u refused of %d\n", npass, nfail,
		       nprec, nbug, nref, ndirs);
		printf("exact: %u pass, %u fail, %u refused of %d (%u fail where the default passes)\n",
		       xpass, xfail, xref, ndirs, xonly_fail);
	} else {
		printf("piglit: %u pass, %u fail, %u refused of %d\n", npass, nfail, nref, ndirs);
	}
	printf("reference: %u pass, %u fail, %u refused of %d\n", rpass, rfail, rref, ndirs);
	print_cats("sim", sim_cats);
	print_cats("reference", ref_cats);
	int rc = failed && !report_only ? EXIT_CHECK : EXIT_OK;
	if (report) {
		cJSON *s = cJSON_AddObjectToObject(root, "summary");
		cJSON_AddNumberToObject(s, "tests", ndirs);
		cJSON_AddNumberToObject(s, "pass", npass);
		cJSON_AddNumberToObject(s, "fail", nfail);
		cJSON_AddNumberToObject(s, "precision", nprec);
		cJSON_AddNumberToObject(s, "bug", nbug);
		if (o.run_exact && o.run_sim) {
			cJSON_AddNumberToObject(s, "exact_pass", xpass);
			cJSON_AddNumberToObject(s, "exact_fail", xfail);
			cJSON_AddNumberToObject(s, "exact_refused", xref);
			cJSON_AddNumberToObject(s, "exact_fail_default_pass", xonly_fail);
		}
		cJSON_AddNumberToObject(s, "refused", nref);
		cJSON_AddNumberToObject(s, "reference_pass", rpass);
		cJSON_AddNumberToObject(s, "reference_fail", rfail);
		cJSON_AddNumberToObject(s, "reference_refused", rref);
		cJSON *rc_sim = cJSON_AddObjectToObject(s, "sim_refusals");
		for (unsigned k = 0; k < sim_cats->n; k++)
			cJSON_AddNumberToObject(rc_sim, sim_cats->what[k], sim_cats->count[k]);
		cJSON *rc_ref = cJSON_AddObjectToObject(s, "reference_refusals");
		for (unsigned k = 0; k < ref_cats->n; k++)
			cJSON_AddNumberToObject(rc_ref, ref_cats->what[k], ref_cats->count[k]);
		cJSON_AddItemToObject(root, "tests", tests);
		tests = NULL;
		char *txt = cJSON_Print(root);
		ulp_diag d;
		ulp_diag_clear(&d);
		if (!txt || !ulp_write_file(report, txt, strlen(txt), &d)) {
			if (!txt)
				ulp_diag_at(&d, report, 0, 0, "out of memory");
			rc = cli_fail(&d);
		}
		free(txt);
	}
	cJSON_Delete(tests);
	cJSON_Delete(root);
	free(sim_cats);
	free(dirs);
	if (fflush(stdout) != 0)
		return EXIT_BAD;
	return rc;
}

/* ulpsim compare a.png b.png [--tolerance N] [--diff d.png]
 * Golden-image comparison (sim/check/compare.h, docs/compare.md). */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/image.h"
#include "cli/cli.h"
#include "sim/check/compare.h"

static const char usage[] =
	"usage: ulpsim compare <a.png> <b.png> [--tolerance N] [--diff <d.png>]\n"
	"  compares two PNG images of the same size, channel by channel (R, G, B, A)\n"
	"  --tolerance N  a pixel passes when no channel differs by more than N\n"
	"                 (0..255; default 0: exact)\n"
	"  --diff d.png   write a diff image: black where equal, blue where the\n"
	"                 difference is within the tolerance, a heat colour (dark red,\n"
	"                 red, yellow, white) scaled by the difference where it is not\n"
	"prints:\n"
	"  max_diff <M>  over_tolerance <K>/<pixels>  psnr <dB> dB     (psnr inf: identical)\n"
	"  worst (<x>,<y>)  a #rrggbbaa  b #rrggbbaa                  (only when M > 0)\n"
	"  M is the largest channel difference, K the pixels differing by more than N,\n"
	"  PSNR = 10*log10(255^2 / MSE) with the MSE over all four channels\n"
	"exit: 0 no pixel over the tolerance, 1 some pixel over it,\n"
	"      2 bad usage, unreadable or bad PNG, or images of different sizes\n";

static bool parse_tolerance(const char *s, unsigned *out)
{
	char *end;
	errno = 0;
	if (!(*s >= '0' && *s <= '9'))
		return false;
	unsigned long v = strtoul(s, &end, 10);
	if (*end || errno || v > 255)
		return false;
	*out = (unsigned)v;
	return true;
}

static void print_px(const char *label, const ulp_image *img, uint32_t x, uint32_t y)
{
	const uint8_t *p = ulp_image_cpx(img, x, y);
	printf("  %s #%02x%02x%02x%02x", label, p[0], p[1], p[2], p[3]);
}

static int run(const char *pa, const char *pb, unsigned tol, const char *diff_path,
               ulp_image *a, ulp_image *b)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	if (a->width != b->width || a->height != b->height) {
		ulp_diag_at(&d, pb, 0, 0,
		            "image is %" PRIu32 "x%" PRIu32 " but %s is %" PRIu32 "x%" PRIu32
		            "; only images of the same size can be compared",
		            b->width, b->height, pa, a->width, a->height);
		return cli_fail(&d);
	}
	ulp_compare_result r;
	ulp_image *diff = NULL;
	if (!ulp_compare_images(a, b, tol, &r, diff_path ? &diff : NULL, &d))
		return cli_fail(&d);
	if (diff_path) {
		bool ok = ulp_image_save_png(diff, diff_path, &d);
		ulp_image_free(diff);
		if (!ok)
			return cli_fail(&d);
	}
	printf("max_diff %u  over_tolerance %" PRIu64 "/%" PRIu64 "  psnr ", r.max_diff,
	       r.over_tolerance, r.pixels);
	if (isinf(r.psnr_db))
		printf("inf dB\n");
	else
		printf("%.2f dB\n", r.psnr_db);
	if (r.max_diff > 0) {
		printf("worst (%" PRIu32 ",%" PRIu32 ")", r.max_x, r.max_y);
		print_px("a", a, r.max_x, r.max_y);
		print_px("b", b, r.max_x, r.max_y);
		printf("\n");
	}
	if (fflush(stdout) != 0)
		return EXIT_BAD;
	return r.over_tolerance ? EXIT_CHECK : EXIT_OK;
}

int cmd_compare(int argc, char **argv)
{
	if (cli_wants_help(argc, argv)) {
		fputs(usage, stdout);
		return EXIT_OK;
	}
	unsigned tol = 0;
	const char *diff_path = NULL;
	const char *pos[2] = { NULL, NULL };
	int npos = 0;
	bool opts_done = false;
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i];
		if (!opts_done && strcmp(arg, "--") == 0) {
			opts_done = true;
		} else if (!opts_done && strcmp(arg, "--tolerance") == 0) {
			if (++i >= argc || !parse_tolerance(argv[i], &tol))
				return cli_usage("compare", "--tolerance takes an integer 0..255");
		} else if (!opts_done && strcmp(arg, "--diff") == 0) {
			if (++i >= argc || !*argv[i] || strcmp(argv[i], "-") == 0)
				return cli_usage("compare", "--diff takes an output file name (not '-')");
			diff_path = argv[i];
		} else if (!opts_done && arg[0] == '-' && arg[1] != '\0') {
			return cli_usage("compare", "unknown option '%s'", arg);
		} else if (npos < 2) {
			pos[npos++] = arg;
		} else {
			return cli_usage("compare", "unexpected argument '%s'", arg);
		}
	}
	if (npos != 2)
		return cli_usage("compare", "expected two PNG files");

	ulp_diag d;
	ulp_diag_clear(&d);
	ulp_image *a = ulp_image_load_png(pos[0], &d);
	if (!a)
		return cli_fail(&d);
	ulp_image *b = ulp_image_load_png(pos[1], &d);
	if (!b) {
		ulp_image_free(a);
		return cli_fail(&d);
	}
	int rc = run(pos[0], pos[1], tol, diff_path, a, b);
	ulp_image_free(a);
	ulp_image_free(b);
	return rc;
}

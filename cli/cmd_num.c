/* ulpsim num <fp20|fx10|f24> <decimal | 0xHEX> [--round truncate|nearest-even]
 * prints "<fmt> 0x<hex> <decimal %.9g>". */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "isa/f24.h"
#include "isa/fp20.h"
#include "isa/fx10.h"

static const char usage[] =
	"usage: ulpsim num <fp20|fx10|f24> <value> [--round MODE]\n"
	"  <value> decimal: encode it, rounding with MODE = truncate, nearest-even or\n"
	"          nearest-away; the default is the format's hardware knob default\n"
	"          (docs/ASSUMPTIONS.md): fp20 nearest-even, fx10 nearest-away, f24 truncate\n"
	"  <value> 0x<hex>: decode the raw code\n"
	"prints: <fmt> 0x<hex> <decimal>\n"
	"  fp20: sign 19, exponent 13..18 (bias 31), mantissa 0..12\n"
	"  fx10: 10-bit two's complement, 8 fraction bits, [-2, 2), saturating\n"
	"  f24:  sign 23, exponent 16..22 (bias 63), mantissa 0..15\n";

static void print_value(const char *fmt, uint32_t code, double v)
{
	if (isnan(v))
		printf("%s 0x%x nan\n", fmt, code);
	else if (isinf(v))
		printf("%s 0x%x %s\n", fmt, code, v < 0 ? "-inf" : "inf");
	else
		printf("%s 0x%x %.9g\n", fmt, code, v);
}

int cmd_num(int argc, char **argv)
{
	if (cli_wants_help(argc, argv)) {
		fputs(usage, stdout);
		return EXIT_OK;
	}
	enum ulp_round round = ULP_ROUND_NEAREST_EVEN;
	bool round_given = false;
	const char *pos[2] = { NULL, NULL };
	int npos = 0;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--round") == 0) {
			if (++i >= argc || !ulp_round_parse(argv[i], &round))
				return cli_usage("num", "--round takes truncate, nearest-even or nearest-away");
			round_given = true;
		} else if (npos < 2) {
			pos[npos++] = argv[i];
		} else {
			return cli_usage("num", "unexpected argument '%s'", argv[i]);
		}
	}
	if (npos != 2)
		return cli_usage("num", "expected a format and a value");

	const char *fmt = pos[0], *text = pos[1];
	unsigned bits;
	if (strcmp(fmt, "fp20") == 0)
		bits = 20;
	else if (strcmp(fmt, "fx10") == 0)
		bits = 10;
	else if (strcmp(fmt, "f24") == 0)
		bits = 24;
	else
		return cli_usage("num", "unknown format '%s' (fp20, fx10 or f24)", fmt);

	if (!round_given)
		round = bits == 10 ? ULP_ROUND_NEAREST_AWAY
		      : bits == 24 ? F24_MODE_DEFAULT.round : ULP_ROUND_NEAREST_EVEN;

	char *end;
	errno = 0;
	if (text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
		unsigned long code = strtoul(text + 2, &end, 16);
		if (text[2] == '\0' || *end || errno)
			return cli_usage("num", "'%s' is not a hex code", text);
		if (code >> bits)
			return cli_usage("num", "code %s does not fit in %u bits", text, bits);
		double v = bits == 20 ? fp20_decode((uint32_t)code)
		         : bits == 10 ? fx10_decode((uint32_t)code)
		                      : f24_decode((uint32_t)code);
		print_value(fmt, (uint32_t)code, v);
		return EXIT_OK;
	}
	double v = strtod(text, &end);
	if (end == text || *end)
		return cli_usage("num", "'%s' is not a number", text);
	uint32_t code = bits == 20 ? mf_encode(&FP20_FORMAT, v, round)
	              : bits == 10 ? fx10_encode(v, round)
	                           : mf_encode(&F24_FORMAT, v, round);
	double back = bits == 20 ? fp20_decode(code) : bits == 10 ? fx10_decode(code) : f24_decode(code);
	print_value(fmt, code, back);
	return EXIT_OK;
}

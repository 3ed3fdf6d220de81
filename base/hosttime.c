#define _POSIX_C_SOURCE 200809L
#include "base/hosttime.h"

#include <time.h>

double ulp_host_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

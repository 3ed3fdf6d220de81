/* Host wall-clock time, for rates printed to users (never for simulation). */
#ifndef ULP_BASE_HOSTTIME_H
#define ULP_BASE_HOSTTIME_H

double ulp_host_seconds(void);   /* monotonic */

#endif

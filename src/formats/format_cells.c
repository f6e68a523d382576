// SPDX-License-Identifier: BSD-2-Clause
/* Number cells shared by the table and the CSV, and the phase in each of their slots. */
#include "config.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>

#include "core/phase.h"
#include "formats/format.h"

/*
 * bonnie++: seconds above 99.999999, ms above 0.099999, else us; 0: empty.
 * Truncated like bonnie++, after a nudge so 0.016824 s is not 16823us.
 */
void format_latency(char *buf, size_t len, double seconds)
{
	if (seconds <= 0)
		buf[0] = '\0';
	else if (seconds > 99.999999)
		snprintf(buf, len, "%ds", (int)(seconds + 1e-9));
	else if (seconds > 0.099999)
		snprintf(buf, len, "%dms", (int)(seconds * 1000.0 + 1e-6));
	else
		snprintf(buf, len, "%dus", (int)(seconds * 1000000.0 + 1e-3));
}

/* KiB/s in five columns: NNNNk under 10000, then m, then g. */
void format_kib_rate(char *buf, size_t len, double kib)
{
	double mib = kib / 1024.0;

	if (kib < 10000.0)
		snprintf(buf, len, "%4dk", (int)kib);
	else if (mib < 99.95)	/* so that %4.1f never rounds up to 100.0 */
		snprintf(buf, len, "%4.1fm", mib);
	else if (mib < 1000.0)
		snprintf(buf, len, "%4dm", (int)(mib + 0.5));
	else if (mib / 1024.0 < 999.95)
		snprintf(buf, len, "%4.1fg", mib / 1024.0);
	else
		snprintf(buf, len, "%4.0ft", mib / 1024.0 / 1024.0);
}

/*
 * A count per second in five columns. Seeks keep bonnie++'s one decimal
 * under 1000, and are rounded above it as the CSV rounds them. Files per
 * second are truncated, as the CSV truncates them (bonnie++ 2.00a's
 * int(stat)), so that table and CSV show the same number. A number too
 * wide for the cell (112298 files/s) gets a k or m suffix so the columns
 * stay aligned; the CSV keeps it whole.
 */
void format_count5(char *buf, size_t len, double v, bool seeks)
{
	uint64_t n;

	if (seeks && v < 99999.5) {
		/* the CSV's own formats: %.1f, then %.0f */
		snprintf(buf, len, v < 1000.0 ? "%5.1f" : "%5.0f", v);
		return;
	}
	/* clamped before the cast: a double past 2^64 does not fit */
	n = v <= 0 ? 0 : v < 1e18 ? (uint64_t)v : UINT64_C(1000000000000000000);
	if (n < 100000)
		snprintf(buf, len, "%5" PRIu64, n);
	else if (n < 10000000)
		snprintf(buf, len, "%4" PRIu64 "k", n / 1000);
	else
		snprintf(buf, len, "%4" PRIu64 "m", n / 1000000);
}

void format_put_field(FILE *out, const char *s)
{
	for (; *s; s++)
		fputc(*s == ',' || *s == '\n' ? ' ' : *s, out);
}

const struct phase_result *format_slot(const struct run_result *r, enum csv_slot slot,
				       enum phase_id *id)
{
	static const struct phase_result not_run;

	*id = phase_in_slot(slot);
	return *id < PH_COUNT ? &r->phase[*id] : &not_run;
}

// SPDX-License-Identifier: BSD-2-Clause
/*
 * libFuzzer target for clyde-report: any bytes through the stream reader
 * (fmemopen, as a file would come), then the grouping, the baseline
 * lookup and comparison, and every formatter into /dev/null. Nothing may
 * crash, leak or trip a sanitizer. Built and run by .ci/fuzz-report
 * (clang -fsanitize=fuzzer,address,undefined), not by make.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "report/report.h"

static void format_all(FILE *sink, struct report_set *s)
{
	report_text(sink, s);
	report_svg(sink, s);
	report_html(sink, s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *sink;
	struct report_set s;
	FILE *in;

	if (!sink)
		sink = fopen("/dev/null", "w");
	if (!sink)
		return 0;
	report_set_init(&s);
	/* fmemopen of no bytes fails on older C libraries: the buffer reader takes those */
	in = size ? fmemopen((void *)data, size, "r") : NULL;
	if (in) {
		report_read_stream(&s, in, "fuzz", sink);
		fclose(in);
	} else {
		report_read_buffer(&s, (const char *)data, size, "fuzz", sink);
	}
	if (report_group(&s) || !s.nconfigs)
		goto out;
	format_all(sink, &s);
	report_compare(&s, report_find_config(&s, s.runs[s.nruns - 1].name));
	format_all(sink, &s);
	report_compare(&s, report_find_config(&s, s.configs[s.nconfigs - 1].key));
	format_all(sink, &s);
out:
	report_set_free(&s);
	return 0;
}

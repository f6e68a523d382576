/* SPDX-License-Identifier: BSD-2-Clause */
/* A tiny unit-test harness: each failed check is reported, main returns the verdict. */
#ifndef CLYDE_UNIT_H
#define CLYDE_UNIT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int unit_failures;
static int unit_checks;

#define CHECK(cond, ...) do {						\
	unit_checks++;							\
	if (!(cond)) {							\
		unit_failures++;					\
		fprintf(stderr, "%s:%d: FAIL: %s: ", __FILE__, __LINE__, #cond); \
		fprintf(stderr, __VA_ARGS__);				\
		fputc('\n', stderr);					\
	}								\
} while (0)

#define CHECK_STR(got, want) do {					\
	const char *g_ = (got), *w_ = (want);				\
	CHECK(g_ && !strcmp(g_, w_), "got '%s', want '%s'", g_ ? g_ : "(null)", w_); \
} while (0)

static inline int unit_verdict(const char *name)
{
	printf("%s: %d checks, %d failed\n", name, unit_checks, unit_failures);
	return unit_failures ? 1 : 0;
}

#endif

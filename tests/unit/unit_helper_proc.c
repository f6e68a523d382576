// SPDX-License-Identifier: BSD-2-Clause
/*
 * helper_close_inherited (src/sys/helper_proc.c): every descriptor from
 * the first named up is closed, those below it kept open, whichever way
 * the build closes them (closefrom, close_range, or one by one where
 * neither is there: configure with ac_cv_func_closefrom=no to test that).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <sys/resource.h>
#include <unistd.h>

#include "sys/helper_proc.h"
#include "unit.h"

static bool is_open(int fd)
{
	return fcntl(fd, F_GETFD) >= 0 || errno != EBADF;
}

int main(void)
{
	int high[] = { 40, 41, 47, 200, 1000 }, below = 39, null;
	struct rlimit lim;

	null = open("/dev/null", O_RDONLY);
	CHECK(null >= 0 && null < below, "/dev/null opened at %d", null);
	CHECK(dup2(null, below) == below, "dup2 to %d", below);
	getrlimit(RLIMIT_NOFILE, &lim);
	for (unsigned i = 0; i < sizeof(high) / sizeof(high[0]); i++) {
		if ((rlim_t)high[i] >= lim.rlim_cur)
			high[i] = 47;	/* a low limit: the descriptor is one the test has */
		CHECK(dup2(null, high[i]) == high[i], "dup2 to %d", high[i]);
	}
	helper_close_inherited(40);
	for (unsigned i = 0; i < sizeof(high) / sizeof(high[0]); i++)
		CHECK(!is_open(high[i]), "fd %d still open after helper_close_inherited(40)",
		      high[i]);
	CHECK(is_open(below), "fd %d, below 40, was closed", below);
	CHECK(is_open(null), "fd %d, below 40, was closed", null);
	CHECK(is_open(2), "standard error was closed");
	return unit_verdict("unit_helper_proc");
}

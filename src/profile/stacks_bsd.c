// SPDX-License-Identifier: BSD-2-Clause
/*
 * --profile=stacks on the BSDs: refused. Their ways to sample every CPU's
 * stacks are DTrace's profile provider and hwpmc(4), neither of them
 * perf_event_open; clyde(1) names them.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>

#include "profile/profile.h"
#include "profile/stacks.h"

int prof_stacks_open(struct prof_sampler *p, unsigned hz, char *err, size_t errlen)
{
	(void)p;
	(void)hz;
	snprintf(err, errlen, "--profile=stacks needs Linux perf_event_open; on the BSDs "
		 "DTrace or hwpmc, see clyde(1)");
	return -EOPNOTSUPP;
}

void prof_stacks_start(struct prof_sampler *p)
{
	(void)p;
}

void prof_stacks_stop(struct prof_sampler *p)
{
	(void)p;
}

void prof_stacks_poll(struct prof_sampler *p)
{
	(void)p;
}

int prof_stacks_reload_symbols(struct prof_sampler *p)
{
	(void)p;
	return 0;
}

int prof_stacks_collect(struct prof_sampler *p, struct stack_set *out)
{
	(void)p;
	(void)out;
	return -EOPNOTSUPP;
}

void prof_stacks_close(struct prof_sampler *p)
{
	(void)p;
}

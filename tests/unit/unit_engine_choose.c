// SPDX-License-Identifier: BSD-2-Clause
/*
 * engine_choose: the one --engine rule of clyde and clyde-zcav. A named
 * engine at its depth (1 for one that keeps one request), auto at depth 1
 * is psync, auto above takes the first engine that keeps requests in
 * flight, moves data and probes, and falls back to psync at depth 1 naming
 * the last one refused. An engine flagged ENGINE_F_NOT_AUTO (aio where it
 * is blocking threads underneath) is never auto's, only a name's. Over
 * tables of this test's own, so every branch runs whatever this kernel
 * allows, then over clyde's table.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "engines/aio_host.h"
#include "engines/engine.h"
#include "unit.h"

static int probe_ok(unsigned depth, char *desc, size_t len)
{
	snprintf(desc, len, "taken at %u", depth);
	return 0;
}

static int probe_refused(unsigned depth, char *desc, size_t len)
{
	(void)depth;
	snprintf(desc, len, "refused here");
	return -EPERM;
}

static const struct engine_ops refuser = {
	.name = "refuser", .flags = ENGINE_F_QUEUED, .probe = probe_refused,
};
static const struct engine_ops nodata = {
	.name = "nodata", .flags = ENGINE_F_QUEUED | ENGINE_F_NO_DATA, .probe = probe_ok,
};
static const struct engine_ops taker = {
	.name = "taker", .flags = ENGINE_F_QUEUED, .probe = probe_ok,
};
static const struct engine_ops later = {
	.name = "later", .flags = ENGINE_F_QUEUED, .probe = probe_ok,
};
static const struct engine_ops by_name_only = {
	.name = "by-name-only", .flags = ENGINE_F_QUEUED | ENGINE_F_NOT_AUTO, .probe = probe_ok,
};

#define N(t) (sizeof(t) / sizeof((t)[0]))

int main(void)
{
	const struct engine_ops *const all[] = { &engine_psync, &refuser, &nodata, &taker, &later };
	const struct engine_ops *const no_taker[] = { &engine_psync, &refuser, &nodata };
	const struct engine_ops *const nothing_queued[] = { &engine_psync, &nodata };
	const struct engine_ops *const not_auto_first[] = { &engine_psync, &by_name_only, &later };
	const struct engine_ops *const not_auto_only[] = { &engine_psync, &nodata, &by_name_only };
	struct engine_choice c;
	int ret;

	/* auto above 1: the first queued engine that moves data and probes, past a refusal */
	ret = engine_choose_in(all, N(all), "auto", 8, &c);
	CHECK(ret == 0 && c.ops == &taker && c.depth == 8 && !c.refused, "auto at 8: %d %s %u %s",
	      ret, c.ops ? c.ops->name : "-", c.depth, c.refused ? c.refused : "-");
	CHECK_STR(c.desc, "taken at 8");

	/* auto at 1: psync, no ring for one request at a time, and no fallback said */
	ret = engine_choose_in(all, N(all), "auto", 1, &c);
	CHECK(ret == 0 && c.ops == &engine_psync && c.depth == 1 && !c.refused,
	      "auto at 1: %d %s %u", ret, c.ops ? c.ops->name : "-", c.depth);

	/* none takes it: psync at 1, naming the last refused and why; never the no-data one */
	ret = engine_choose_in(no_taker, N(no_taker), "auto", 16, &c);
	CHECK(ret == 0 && c.ops == &engine_psync && c.depth == 1, "fallback: %d %s %u", ret,
	      c.ops ? c.ops->name : "-", c.depth);
	CHECK(c.refused && !strcmp(c.refused, "refuser"), "refused: %s",
	      c.refused ? c.refused : "-");
	CHECK_STR(c.why, "refused here");
	ret = engine_choose_in(nothing_queued, N(nothing_queued), "auto", 4, &c);
	CHECK(ret == 0 && c.ops == &engine_psync && c.depth == 1 && c.refused &&
	      !strcmp(c.refused, "none") && !c.why[0], "nothing queued: %d %s %s", ret,
	      c.ops ? c.ops->name : "-", c.refused ? c.refused : "-");

	/* not for auto: passed over for the next queued one, or psync when it is the only one */
	ret = engine_choose_in(not_auto_first, N(not_auto_first), "auto", 8, &c);
	CHECK(ret == 0 && c.ops == &later && c.depth == 8 && !c.refused,
	      "auto past a not-auto engine: %d %s %u", ret, c.ops ? c.ops->name : "-", c.depth);
	ret = engine_choose_in(not_auto_only, N(not_auto_only), "auto", 32, &c);
	CHECK(ret == 0 && c.ops == &engine_psync && c.depth == 1 && c.refused &&
	      !strcmp(c.refused, "none") && !c.why[0], "only a not-auto engine: %d %s %u %s", ret,
	      c.ops ? c.ops->name : "-", c.depth, c.refused ? c.refused : "-");
	/* ...while its name still chooses it, at its depth */
	ret = engine_choose_in(not_auto_only, N(not_auto_only), "by-name-only", 32, &c);
	CHECK(ret == 0 && c.ops == &by_name_only && c.depth == 32, "not-auto by name: %d %s %u", ret,
	      c.ops ? c.ops->name : "-", c.depth);
	CHECK_STR(c.desc, "taken at 32");

	/* a name: its depth when it queues, else 1 and a depth above is refused */
	ret = engine_choose_in(all, N(all), "nodata", 4, &c);
	CHECK(ret == 0 && c.ops == &nodata && c.depth == 4, "nodata by name: %d", ret);
	ret = engine_choose_in(all, N(all), "psync", 1, &c);
	CHECK(ret == 0 && c.ops == &engine_psync && c.depth == 1, "psync by name: %d", ret);
	ret = engine_choose_in(all, N(all), "psync", 4, &c);
	CHECK(ret == -EINVAL, "psync at 4: %d", ret);
	CHECK_STR(c.desc, "psync keeps one request in flight");
	ret = engine_choose_in(all, N(all), "refuser", 4, &c);
	CHECK(ret == -EPERM && c.ops == &refuser, "refused by name: %d", ret);
	CHECK_STR(c.desc, "refused here");
	ret = engine_choose_in(all, N(all), "spdk", 4, &c);
	CHECK(ret == -ENOENT, "unknown: %d", ret);
	CHECK_STR(c.desc, "no engine spdk");

	/* clyde's own table: null by name, never by auto */
	ret = engine_choose("null", 4, &c);
	CHECK(ret == 0 && c.ops == &engine_null && c.depth == 4, "null by name: %d", ret);
	ret = engine_choose("auto", 8, &c);
	CHECK(ret == 0 && c.ops != &engine_null, "auto at 8 in clyde's table: %d %s", ret,
	      c.ops ? c.ops->name : "-");
	CHECK(c.ops == &engine_psync ? c.depth == 1 && c.refused != NULL : c.depth == 8,
	      "auto at 8: %s at %u", c.ops ? c.ops->name : "-", c.depth);
	ret = engine_choose("auto", 1, &c);
	CHECK(ret == 0 && c.ops == &engine_psync && c.depth == 1, "auto at 1: %d", ret);

	/* clyde's aio: by name where built, by auto only where flagged for it (in-kernel AIO) */
	const struct engine_ops *aio = engine_find("aio");

	CHECK(aio != NULL, "aio is listed");
	CHECK(aio && (AIO_HOST_IN_KERNEL || aio->flags & ENGINE_F_NOT_AUTO),
	      "aio is not for auto where it is not in the kernel (%s)", AIO_HOST_NOTE);
	if (aio && !aio->unavailable) {
		ret = engine_choose("aio", 8, &c);
		CHECK(ret == 0 && c.ops == aio && c.depth == 8, "aio by name: %d %s %u", ret,
		      c.ops ? c.ops->name : "-", c.depth);
	}
	if (aio && aio->flags & ENGINE_F_NOT_AUTO) {
		for (unsigned depth = 2; depth <= 64; depth *= 2) {
			ret = engine_choose("auto", depth, &c);
			CHECK(ret == 0 && c.ops != aio, "auto at %u took aio, not for auto here", depth);
		}
	}
	return unit_verdict("unit_engine_choose");
}

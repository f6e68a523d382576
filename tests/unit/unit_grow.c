// SPDX-License-Identifier: BSD-2-Clause
/* The growable array every room uses (lib/grow.c). */
#include "config.h"

#include <errno.h>
#include <stdint.h>

#include "lib/grow.h"
#include "unit.h"

struct pair {
	int a, b;
};

int main(void)
{
	struct pair *v = NULL, *before;
	size_t n = 0, cap = 0, caps[8] = { 0 }, ncaps = 0;
	int ret = 0;

	/* Appending 1000: every element kept, the room doubling from 4. */
	for (int i = 0; i < 1000 && !ret; i++) {
		size_t was = cap;

		ret = array_room(&v, &cap, n, sizeof(*v), 4);
		if (cap != was && ncaps < 8)
			caps[ncaps++] = cap;
		if (!ret)
			v[n++] = (struct pair){ i, -i };
	}
	CHECK(ret == 0 && n == 1000, "appended %zu, ret %d", n, ret);
	CHECK(cap == 1024, "room %zu for 1000 from 4 doubling, want 1024", cap);
	CHECK(ncaps >= 3 && caps[0] == 4 && caps[1] == 8 && caps[2] == 16,
	      "the room went %zu, %zu, %zu", caps[0], caps[1], caps[2]);
	for (size_t i = 0; i < n; i++)
		if (v[i].a != (int)i || v[i].b != -(int)i) {
			CHECK(0, "element %zu is %d,%d", i, v[i].a, v[i].b);
			break;
		}

	/* Room left: nothing moves. */
	before = v;
	CHECK(array_room(&v, &cap, 10, sizeof(*v), 4) == 0 && v == before && cap == 1024,
	      "room with space left changed the array");
	CHECK(array_reserve(&v, &cap, 512, sizeof(*v)) == 0 && v == before && cap == 1024,
	      "a smaller reserve changed the array");

	/* Sizes that wrap are refused, the array as it was. */
	CHECK(array_reserve(&v, &cap, SIZE_MAX / 2, sizeof(*v)) == -EOVERFLOW,
	      "a reserve of SIZE_MAX/2 pairs was not refused");
	CHECK(v == before && cap == 1024 && v[999].a == 999, "a refused reserve touched the array");
	{
		size_t huge = SIZE_MAX / 2 + 1;
		char *c = NULL;

		CHECK(array_room(&c, &huge, huge, 1, 4) == -EOVERFLOW,
		      "doubling past SIZE_MAX was not refused");
		CHECK(c == NULL && huge == SIZE_MAX / 2 + 1, "a refused room touched the array");
	}
	/* first 0 means 1: the first element has a place. */
	{
		double *d = NULL;
		size_t dcap = 0;

		CHECK(array_room(&d, &dcap, 0, sizeof(*d), 0) == 0 && dcap == 1 && d,
		      "the first room with first 0: %zu", dcap);
		free(d);
	}
	free(v);
	return unit_verdict("unit_grow");
}

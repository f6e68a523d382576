// SPDX-License-Identifier: BSD-2-Clause
/*
 * One growable array for every room: the doubling, the overflow check and
 * the failed realloc that keeps the old array, written once.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/grow.h"

int array_reserve(void *arrayp, size_t *cap, size_t n, size_t size)
{
	void *old, *grown;

	if (n <= *cap)
		return 0;
	if (size && n > SIZE_MAX / size)
		return -EOVERFLOW;
	/* The pointer is read and written as bytes: arrayp may point at any T *. */
	memcpy(&old, arrayp, sizeof(old));
	grown = realloc(old, n * size);
	if (!grown)
		return -ENOMEM;
	memcpy(arrayp, &grown, sizeof(grown));
	*cap = n;
	return 0;
}

int array_room(void *arrayp, size_t *cap, size_t n, size_t size, size_t first)
{
	size_t want;

	if (n < *cap)
		return 0;
	if (!*cap)
		want = first ? first : 1;
	else if (*cap > SIZE_MAX / 2)
		return -EOVERFLOW;
	else
		want = *cap * 2;
	return array_reserve(arrayp, cap, want, size);
}

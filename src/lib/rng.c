// SPDX-License-Identifier: BSD-2-Clause
/* Deterministic pseudo-random numbers for seeks, names and file sizes. */
#include "config.h"

#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include "lib/rng.h"

void rng_seed(struct rng *r, uint64_t seed)
{
	r->state = seed ^ 0x6a09e667f3bcc909ull;
}

uint64_t rng_next(struct rng *r)
{
	uint64_t z = (r->state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

uint64_t rng_below(struct rng *r, uint64_t bound)
{
	/* Reject the short top range so every value is equally likely. */
	uint64_t limit = UINT64_MAX - UINT64_MAX % bound;
	uint64_t v;

	do
		v = rng_next(r);
	while (v >= limit);
	return v % bound;
}

uint32_t rng_system_seed(void)
{
	uint32_t seed = 0;
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);

	if (fd >= 0) {
		ssize_t n = read(fd, &seed, sizeof(seed));

		close(fd);
		if (n == (ssize_t)sizeof(seed))
			return seed;
	}
	return (uint32_t)time(NULL) ^ ((uint32_t)getpid() << 16);
}

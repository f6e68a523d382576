/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_RNG_H
#define CLYDE_RNG_H

#include <stdint.h>

/* A small deterministic generator (splitmix64): same seed, same run. */
struct rng {
	uint64_t state;
};

void rng_seed(struct rng *r, uint64_t seed);
uint64_t rng_next(struct rng *r);
/* Uniform in [0, bound), bound > 0. */
uint64_t rng_below(struct rng *r, uint64_t bound);

/* A seed from the system's entropy, for runs without -z. */
uint32_t rng_system_seed(void);

#endif

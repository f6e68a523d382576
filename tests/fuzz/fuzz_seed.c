// SPDX-License-Identifier: BSD-2-Clause
/*
 * libFuzzer target for -Z's seed file: any bytes, as read from the file,
 * through seed_from_bytes(). Fewer than four bytes must be refused with
 * -EINVAL and leave the seed alone; four or more give the first four in
 * network byte order, whatever follows them. A violation aborts. Built
 * and run by .ci/fuzz-report, not by make.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/size.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint32_t seed = 0xdeadbeef, want = 0, again = 0;
	unsigned char *copy;
	int r;

	/* an allocation of exactly the file's size, so a read past it is caught */
	copy = malloc(size ? size : 1);
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	r = seed_from_bytes(copy, size, &seed);
	if (size < 4) {
		if (r != -EINVAL || seed != 0xdeadbeef) {
			fprintf(stderr, "fuzz_seed: %zu bytes gave %d, seed %#x\n", size, r, seed);
			abort();
		}
		free(copy);
		return 0;
	}
	for (int i = 0; i < 4; i++)
		want = want << 8 | data[i];
	if (r || seed != want || seed_from_bytes(copy, 4, &again) || again != seed) {
		fprintf(stderr, "fuzz_seed: %zu bytes gave %d, seed %#x, want %#x\n", size, r, seed,
			want);
		abort();
	}
	free(copy);
	return 0;
}

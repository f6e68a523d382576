// SPDX-License-Identifier: BSD-2-Clause
/* --data buffers and the --verify pattern: what passes and what is caught. */
#include "config.h"

#include "phases/pattern.h"
#include "unit.h"

#define KEY 0x1234567890abcdefull

static size_t zeros(const char *b, size_t n)
{
	size_t z = 0;

	for (size_t i = 0; i < n; i++)
		z += !b[i];
	return z;
}

int main(void)
{
	static char buf[65536], other[65536];
	struct rng r;
	uint64_t bad = 0;

	rng_seed(&r, 7);
	pattern_fill(buf, sizeof(buf), DATA_ZERO, 0, &r);
	CHECK(zeros(buf, sizeof(buf)) == sizeof(buf), "zero");
	pattern_fill(buf, sizeof(buf), DATA_RANDOM, 0, &r);
	CHECK(zeros(buf, sizeof(buf)) < sizeof(buf) / 100, "random has few zeros: %zu", zeros(buf, sizeof(buf)));
	pattern_fill(buf, sizeof(buf), DATA_COMPRESSIBLE, 50, &r);
	CHECK(zeros(buf, sizeof(buf)) >= sizeof(buf) / 2 && zeros(buf, sizeof(buf)) < sizeof(buf) / 2 + 512,
	      "compressible:50 is half zeros: %zu", zeros(buf, sizeof(buf)));

	for (size_t chunk = 256; chunk <= 65536; chunk *= 4) {
		uint64_t off = 3 * chunk;

		verify_fill(buf, chunk, off, KEY, 1);
		CHECK(!verify_check(buf, chunk, off, KEY, 1, &bad), "chunk %zu checks", chunk);
		CHECK(verify_check(buf, chunk, off + chunk, KEY, 1, &bad) && bad >= off + chunk &&
		      bad < off + chunk + 16,
		      "chunk %zu at the wrong offset is caught at %llu", chunk, (unsigned long long)bad);
		CHECK(verify_check(buf, chunk, off, KEY + 1, 1, &bad), "another run's key is caught");
		memcpy(other, buf, chunk);
		verify_fill(buf, chunk, off, KEY, 2);
		CHECK(memcmp(buf, other, chunk), "a new version changes the data");
		CHECK(!verify_check(buf, chunk, off, KEY, 2, &bad), "chunk %zu checks at version 2", chunk);
		/* A lost write: the file still holds version 1 where 2 is expected. */
		CHECK(verify_check(other, chunk, off, KEY, 2, &bad) && bad == off + 4,
		      "stale chunk %zu is caught at its version field (%llu)", chunk,
		      (unsigned long long)bad);
		/* ... and a write that should not have happened. */
		CHECK(verify_check(buf, chunk, off, KEY, 1, &bad), "a version too new is caught");
		if (chunk >= 1024) {
			memcpy(buf, other, chunk / 2);
			CHECK(verify_check(buf, chunk, off, KEY, 2, &bad) && bad == off + 4,
			      "a half-written chunk %zu is caught", chunk);
			verify_fill(buf, chunk, off, KEY, 2);
		}
		buf[chunk - 3] ^= 0x40;
		CHECK(verify_check(buf, chunk, off, KEY, 2, &bad) && bad == off + chunk - 3,
		      "a flipped byte of chunk %zu is found at its offset (%llu)", chunk,
		      (unsigned long long)bad);
		buf[chunk - 3] ^= 0x40;
		buf[5] ^= 1;	/* the version field itself */
		CHECK(verify_check(buf, chunk, off, KEY, 2, &bad), "a changed version is caught");
		buf[5] ^= 1;
		/* A prefix of a chunk, as the per-char read ends: */
		CHECK(!verify_check(buf, chunk < 700 ? chunk - 10 : 700, off, KEY, 2, &bad), "a prefix checks");
	}
	/* Streams: any slice is made and checked alone. */
	verify_stream_fill(buf, 10000, 0, KEY);
	verify_stream_fill(other, 777, 1234, KEY);
	CHECK(!memcmp(buf + 1234, other, 777), "stream slices agree");
	CHECK(!verify_stream_check(buf + 3, 5000, 3, KEY, &bad), "stream checks at an odd offset");
	buf[4321] ^= 8;
	CHECK(verify_stream_check(buf, 10000, 0, KEY, &bad) && bad == 4321, "stream flip found at %llu",
	      (unsigned long long)bad);
	return unit_verdict("unit_pattern");
}

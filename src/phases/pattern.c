// SPDX-License-Identifier: BSD-2-Clause
/* What clyde writes (--data) and how it checks what it reads (--verify). */
#include "config.h"

#include <string.h>

#include "phases/pattern.h"

#define VERIFY_MAGIC	0x436c7964u	/* "Clyd" */
#define HEADER_LEN	16u

void pattern_fill(char *buf, size_t len, enum data_mode mode, unsigned zero_pct, struct rng *r)
{
	size_t zeros = mode == DATA_ZERO ? len : mode == DATA_COMPRESSIBLE ? len * zero_pct / 100 : 0;

	memset(buf, 0, zeros);
	for (size_t i = zeros; i < len; i += 8) {
		uint64_t w = rng_next(r);

		memcpy(buf + i, &w, len - i < 8 ? len - i : 8);
	}
}

static inline uint64_t mix64(uint64_t z)
{
	z ^= z >> 30;
	z *= 0xbf58476d1ce4e5b9ull;
	z ^= z >> 27;
	z *= 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static inline uint64_t word_at(uint64_t key, uint64_t off, uint32_t version)
{
	return mix64(key + off * 0x9e3779b97f4a7c15ull + (uint64_t)version * 0xd1b54a32d192ed03ull);
}

static size_t unit_len(size_t len)
{
	return len < VERIFY_UNIT ? len : VERIFY_UNIT;
}

static void fill_unit(char *u, size_t n, uint64_t off, uint64_t key, uint32_t version)
{
	uint32_t magic = VERIFY_MAGIC ^ (uint32_t)key;
	char header[HEADER_LEN];

	memcpy(header, &magic, 4);
	memcpy(header + 4, &version, 4);
	memcpy(header + 8, &off, 8);
	/* A unit can be shorter than its header at the end of a short read. */
	memcpy(u, header, n < HEADER_LEN ? n : HEADER_LEN);
	for (size_t i = HEADER_LEN; i < n; i += 8) {
		uint64_t w = word_at(key, off + i, version);

		memcpy(u + i, &w, n - i < 8 ? n - i : 8);
	}
}

void verify_fill(char *buf, size_t len, uint64_t off, uint64_t key, uint32_t version)
{
	size_t n = unit_len(len);

	for (size_t i = 0; i < len; i += n)
		fill_unit(buf + i, len - i < n ? len - i : n, off + i, key, version);
}

/* The first byte of a..a+n that differs from b, as an index. */
static size_t first_diff(const char *a, const char *b, size_t n)
{
	size_t i = 0;

	while (i < n && a[i] == b[i])
		i++;
	return i;
}

int verify_check(const char *buf, size_t len, uint64_t off, uint64_t key, uint32_t version,
		 uint64_t *bad)
{
	size_t n = unit_len(len);
	char want[VERIFY_UNIT];

	for (size_t i = 0; i < len; i += n) {
		size_t m = len - i < n ? len - i : n;

		fill_unit(want, m, off + i, key, version);
		if (memcmp(want, buf + i, m)) {
			*bad = off + i + first_diff(buf + i, want, m);
			return -1;
		}
	}
	return 0;
}

void verify_stream_fill(char *buf, size_t len, uint64_t off, uint64_t key)
{
	/* Words aligned on the file offset, so any slice can be made alone. */
	for (size_t i = 0; i < len;) {
		uint64_t pos = off + i, aligned = pos & ~7ull;
		uint64_t w = word_at(key, aligned, 0);
		size_t skip = (size_t)(pos - aligned);
		size_t take = 8 - skip < len - i ? 8 - skip : len - i;

		memcpy(buf + i, (char *)&w + skip, take);
		i += take;
	}
}

int verify_stream_check(const char *buf, size_t len, uint64_t off, uint64_t key, uint64_t *bad)
{
	char want[VERIFY_UNIT];

	for (size_t i = 0; i < len; i += VERIFY_UNIT) {
		size_t m = len - i < VERIFY_UNIT ? len - i : VERIFY_UNIT;

		verify_stream_fill(want, m, off + i, key);
		if (memcmp(want, buf + i, m)) {
			*bad = off + i + first_diff(buf + i, want, m);
			return -1;
		}
	}
	return 0;
}

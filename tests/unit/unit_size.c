// SPDX-License-Identifier: BSD-2-Clause
/* Size and integer parsing, size labels. */
#include "config.h"

#include <errno.h>

#include "lib/size.h"
#include "unit.h"

static void parses(const char *text, uint64_t unit, uint64_t want)
{
	uint64_t got = 0;
	int r = size_parse(text, unit, &got);

	CHECK(r == 0 && got == want, "size_parse(%s) = %d, %llu; want %llu", text, r,
	      (unsigned long long)got, (unsigned long long)want);
}

static void rejects(const char *text, int want)
{
	uint64_t got = 0;
	int r = size_parse(text, 1, &got);

	CHECK(r == want, "size_parse(%s) = %d, want %d", text, r, want);
}

static void label(uint64_t v, const char *units, const char *want)
{
	char buf[32];

	size_label(buf, sizeof(buf), v, units);
	CHECK_STR(buf, want);
}

int main(void)
{
	const uint64_t mib = 1ull << 20;
	int64_t v;

	/* -s accepts what bonnie++ accepts: 64M, 64m, 64 (MiB), 4G. */
	parses("64M", mib, 64 * mib);
	parses("64m", mib, 64 * mib);
	parses("64", mib, 64 * mib);
	parses("4G", mib, 4096 * mib);
	parses("4g", mib, 4096 * mib);
	parses("1t", mib, 1024 * 1024 * mib);
	parses("16k", 1, 16384);
	parses("8192", 1, 8192);
	parses("64KiB", 1, 65536);
	parses("64MB", 1, 64 * mib);
	parses("0", mib, 0);
	parses("512b", mib, 512);
	rejects("", -EINVAL);
	rejects("k", -EINVAL);
	rejects("-1", -EINVAL);
	rejects("12x", -EINVAL);
	rejects("12kk", -EINVAL);
	rejects("1.5G", -EINVAL);
	rejects(" 12", -EINVAL);
	rejects("99999999999999999999", -ERANGE);
	rejects("17179869184g", -ERANGE);

	CHECK(int_parse("-2", &v) == 0 && v == -2, "int_parse(-2)");
	CHECK(int_parse("4294967295", &v) == 0 && v == 4294967295ll, "int_parse(uint32 max)");
	CHECK(int_parse("12a", &v) == -EINVAL, "int_parse(12a)");
	CHECK(int_parse("", &v) == -EINVAL, "int_parse(empty)");
	CHECK(int_parse("99999999999999999999", &v) == -ERANGE, "int_parse(huge)");

	/* bonnie++'s print_size: divide by 1024 while exact. */
	label(4096, "MGT", "4G");
	label(48208, "MGT", "48208M");
	label(512, "MGT", "512M");
	label(1024 * 1024, "MGT", "1T");
	label(16384, " km", "16k");
	label(1 << 20, " km", "1m");
	label(0, "MGT", "0M");
	label(256, " km", "256");
	label(1536, " km", "1536");

	/* -Z: the first four bytes in network order; fewer are refused. */
	{
		static const unsigned char b[] = { 0x00, 0x00, 0x01, 0x02, 0xff };
		static const unsigned char hi[] = { 0xfe, 0xdc, 0xba, 0x98 };
		uint32_t seed = 7;

		CHECK(seed_from_bytes(b, 0, &seed) == -EINVAL && seed == 7, "no bytes");
		CHECK(seed_from_bytes(b, 3, &seed) == -EINVAL && seed == 7, "three bytes");
		CHECK(seed_from_bytes(b, 4, &seed) == 0 && seed == 258, "four bytes: %u", seed);
		CHECK(seed_from_bytes(b + 1, 4, &seed) == 0 && seed == 0x000102ffu,
		      "the fifth byte counts only from one on: %#x", seed);
		CHECK(seed_from_bytes(b, sizeof(b), &seed) == 0 && seed == 258, "five bytes: %u", seed);
		CHECK(seed_from_bytes(hi, 4, &seed) == 0 && seed == 0xfedcba98u, "high bits: %#x",
		      seed);
	}

	return unit_verdict("unit_size");
}

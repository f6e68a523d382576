/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_SIZE_H
#define CLYDE_SIZE_H

#include <stddef.h>
#include <stdint.h>

/*
 * Parse "64", "64k", "64M", "4g", "1t" into *out, in units of bytes.
 * A number without a suffix is multiplied by default_unit.
 * Returns 0, -EINVAL for text that is not a size, -ERANGE on overflow.
 */
int size_parse(const char *text, uint64_t default_unit, uint64_t *out);

/* Parse a plain decimal integer, optionally negative; 0, -EINVAL or -ERANGE. */
int int_parse(const char *text, int64_t *out);

/*
 * bonnie++'s size label: divide by 1024 while exact, e.g. 4096 MiB -> "4G",
 * 48208 MiB -> "48208M", 16384 bytes with units "bkm" -> "16k".
 * units[0] is the unit of value; each next letter is 1024 times larger.
 */
void size_label(char *buf, size_t len, uint64_t value, const char *units);

/* Human-readable byte count for messages: "3.0 MiB", "512 KiB". */
void size_human(char *buf, size_t len, uint64_t bytes);

/*
 * -Z's seed: the first four of n bytes, in network byte order, as
 * bonnie++ reads its random file. 0, or -EINVAL for fewer than four bytes
 * (then *seed is left alone).
 */
int seed_from_bytes(const unsigned char *b, size_t n, uint32_t *seed);

#endif

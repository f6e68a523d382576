/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_OPTION_SIZES_H
#define CLYDE_OPTION_SIZES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct clyde_options;

/*
 * The grammars of bonnie++'s number and size arguments, each a parser of
 * the options table (options.c). Each returns 0, or -EINVAL with a
 * message naming the option and the limit in err.
 */

/* Formats the message into err; returns -EINVAL. */
int options_fail(char *err, size_t errlen, const char *fmt, ...);

/* A whole number from lo to hi; the message names opt and what. */
int options_u32(const char *opt, const char *what, const char *text, uint32_t lo, uint32_t hi,
		uint32_t *out, char *err, size_t errlen);

/* -s size[:chunk[:seeks[:seekers]]] */
int options_size_arg(void *ctx, const char *text, char *err, size_t errlen);
/* -n number[:max[:min[:num_dirs[:chunk]]]] */
int options_files_arg(void *ctx, const char *text, char *err, size_t errlen);
/* -f[size]: NULL skips the per-char phases */
int options_perchar_arg(void *ctx, const char *text, char *err, size_t errlen);
/* -r ram */
int options_ram_arg(void *ctx, const char *text, char *err, size_t errlen);

#endif

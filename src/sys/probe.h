/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_PROBE_H
#define CLYDE_PROBE_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Before the first phase, inside the private directory: does the
 * filesystem take O_DIRECT (-D) and RWF_DONTCACHE (--cache=uncached)?
 * 0, or -errno with the refusal in words.
 */
int probe_io_modes(const char *workdir, bool direct, bool uncached, char *err, size_t errlen);

#endif

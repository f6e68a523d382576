/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_CALIBRATE_H
#define CLYDE_CALIBRATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clyde/plan.h"

/*
 * A short untimed trial in a private directory under p->dir, removed
 * after: file create/stat/delete costs (files) and block write and read
 * speeds and a 1-byte system call (io). 0, or -errno with err set.
 */
int calibrate(const struct run_plan *p, bool io, bool files, struct calibration *c,
	      char *err, size_t errlen);

/*
 * Whether the create trial's batch times (ns, n of them) say the machine
 * was noisy: fewer than four, the slowest quarter more than 1.5 times the
 * fastest, or the first half's median and the second's apart by more
 * than 1.3 times; then it measures again. *spread: slowest quarter over
 * fastest.
 */
bool calibrate_batches_noisy(const uint64_t *ns, unsigned n, double *spread);

#endif

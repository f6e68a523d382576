/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_CALIBRATE_H
#define CLYDE_CALIBRATE_H

#include <stdbool.h>
#include <stddef.h>

#include "plan.h"

/*
 * A short untimed trial in a private directory under p->dir, removed
 * after: file create/stat/delete costs (files) and block write and read
 * speeds and a 1-byte system call (io). 0, or -errno with err set.
 */
int calibrate(const struct run_plan *p, bool io, bool files, struct calibration *c,
	      char *err, size_t errlen);

#endif

// SPDX-License-Identifier: BSD-2-Clause
/* placeholder */
#include "config.h"
#include "tree.h"

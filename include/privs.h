/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_PRIVS_H
#define CLYDE_PRIVS_H

#include <stddef.h>

/*
 * Become user[:group] (-u) and/or group (-g). A user given by name
 * without a group takes its primary group; by number, its passwd group
 * if it has one, else "nogroup" (as bonnie++). 0 or -errno with err set.
 */
int privs_drop(const char *user, const char *group, char *err, size_t errlen);

#endif

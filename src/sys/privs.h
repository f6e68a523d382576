/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_PRIVS_H
#define CLYDE_PRIVS_H

#include <stddef.h>
#include <sys/types.h>

/*
 * Become user[:group] (-u) and/or group (-g). A user given by name
 * without a group takes its primary group; by number, its passwd group
 * if it has one, else "nogroup" (as bonnie++). 0 or -errno with err set.
 */
int privs_drop(const char *user, const char *group, char *err, size_t errlen);

/*
 * The uid and gid that privs_drop would take for user and group; opt
 * names the option in messages. A number is an id: one above what uid_t or
 * gid_t holds, or equal to its (T)-1, is refused (-ERANGE), never wrapped.
 * 0 or -EINVAL / -ERANGE with err set.
 */
int privs_resolve(const char *opt, const char *user, const char *group, uid_t *uid, gid_t *gid,
		  char *err, size_t errlen);

/*
 * Become uid and gid for good (a child about to act for another user):
 * supplementary groups (only gid), real, effective and saved ids, each
 * step checked, and root's return tried and refused. 0 or -errno, err set.
 */
int privs_become(uid_t uid, gid_t gid, char *err, size_t errlen);

#endif

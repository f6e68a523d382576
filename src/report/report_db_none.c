// SPDX-License-Identifier: BSD-2-Clause
/*
 * clyde-report built without libsqlite3 (configure --with-sqlite3=no, or
 * none found): the history's functions exist and refuse, and
 * report_db_built says how to get a build that has it.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>

#include "report/report_db.h"

bool report_db_built(const char **how)
{
	*how = "this clyde-report was built without SQLite; install libsqlite3 and its headers "
	       "(Debian: apt install libsqlite3-dev; FreeBSD: pkg install sqlite3) and rebuild "
	       "with ./configure --with-sqlite3=yes";
	return false;
}

int report_db_open(struct report_db **db, const char *path, bool write, char *err, size_t errlen)
{
	(void)write;
	*db = NULL;
	snprintf(err, errlen, "%s: no SQLite in this build", path);
	return -ENOTSUP;
}

void report_db_close(struct report_db *db)
{
	(void)db;
}

int report_db_add(struct report_db *db, const struct report_set *s, char *const *labels,
		  unsigned nlabels, unsigned *added, unsigned *present, char *err, size_t errlen)
{
	(void)db, (void)s, (void)labels, (void)nlabels;
	*added = *present = 0;
	snprintf(err, errlen, "no SQLite in this build");
	return -ENOTSUP;
}

int report_db_select(struct report_db *db, const char *sel, const char *by,
		     struct report_points *pts, char *err, size_t errlen)
{
	(void)db, (void)sel, (void)by, (void)pts;
	snprintf(err, errlen, "no SQLite in this build");
	return -ENOTSUP;
}

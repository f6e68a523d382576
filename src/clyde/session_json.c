// SPDX-License-Identifier: BSD-2-Clause
/*
 * The --json file, written atomically: a temporary file beside the path,
 * renamed over it once the document is whole.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clyde/session.h"

/*
 * --json: a temporary file beside the path, made before the runs so a bad
 * path fails at once, and renamed over it once the document is whole, so
 * no reader ever sees half of one. temp gets its name.
 */
FILE *open_json(const char *path, char *temp, size_t len)
{
	mode_t mask;
	FILE *f;
	int fd;

	temp[0] = '\0';
	if (!path)
		return NULL;
	if (!strcmp(path, "-"))
		return stdout;
	if (snprintf(temp, len, "%s.XXXXXX", path) >= (int)len) {
		fprintf(stderr, "clyde: --json %s: %s\n", path, strerror(ENAMETOOLONG));
		return NULL;
	}
	fd = mkstemp(temp);
	if (fd < 0) {
		fprintf(stderr, "clyde: --json %s: %s\n", path, strerror(errno));
		temp[0] = '\0';
		return NULL;
	}
	/* the permissions fopen would have given */
	mask = umask(0);
	umask(mask);
	fchmod(fd, 0666 & ~mask);
	f = fdopen(fd, "w");
	if (!f) {
		fprintf(stderr, "clyde: --json %s: %s\n", path, strerror(errno));
		close(fd);
		unlink(temp);
		temp[0] = '\0';
	}
	return f;
}

/* The document is whole: it takes the path's name. 0, or an exit status. */
int close_json(FILE *f, const char *path, const char *temp)
{
	int bad = ferror(f);

	if (f == stdout)
		return fflush(f) || bad ? CLYDE_EXIT_IO : 0;
	if (fclose(f) || bad || rename(temp, path)) {
		fprintf(stderr, "clyde: --json %s: %s\n", path, strerror(errno ? errno : EIO));
		unlink(temp);
		return CLYDE_EXIT_IO;
	}
	return 0;
}

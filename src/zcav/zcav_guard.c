// SPDX-License-Identifier: BSD-2-Clause
/*
 * Whether -w may write zeros over its targets. Never without --force;
 * never, even with it, over a device that is mounted (itself or a
 * partition of it), in use as swap, or held by another (device mapper,
 * md, an exclusive open, a loop device over the file); a filesystem or
 * partition signature (blkid -p, else wipefs -n) is named, and is what
 * --force allows. Every refusal names what was found.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "zcav/zcav.h"

/*
 * Runs argv with its standard output into buf (len bytes, NUL ended),
 * its error output thrown away: its exit status, 127 when it could not
 * be run, or -errno.
 */
static int run_capture(char *const argv[], char *buf, size_t len)
{
	int pipefd[2], status, ret = 0;
	size_t used = 0;
	pid_t pid;

	buf[0] = '\0';
	if (pipe(pipefd))
		return -errno;
	pid = fork();
	if (pid < 0) {
		ret = -errno;
		goto out_pipe;
	}
	if (!pid) {
		int null = open("/dev/null", O_WRONLY);

		dup2(pipefd[1], 1);
		if (null >= 0)
			dup2(null, 2);
		close(pipefd[0]);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(pipefd[1]);
	pipefd[1] = -1;
	for (;;) {
		ssize_t n = read(pipefd[0], buf + used, used + 1 < len ? len - used - 1 : 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0 && used + 1 >= len) {
				char sink[256];

				/* more than we keep: read it to the end so the child can exit */
				while (read(pipefd[0], sink, sizeof(sink)) > 0)
					;
			}
			break;
		}
		used += (size_t)n;
	}
	buf[used] = '\0';
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			ret = -errno;
			goto out_pipe;
		}
	}
	ret = WIFEXITED(status) ? WEXITSTATUS(status) : 127;
out_pipe:
	close(pipefd[0]);
	if (pipefd[1] >= 0)
		close(pipefd[1]);
	return ret;
}

/* blkid's KEY=value lines: the keys that name a signature, as "TYPE=ext4, LABEL=x". */
static void blkid_words(const char *out, char *sig, size_t len)
{
	static const char *const keys[] = {
		"TYPE=", "PTTYPE=", "LABEL=", "UUID=", "PTUUID=", "USAGE=",
	};
	size_t used = 0;

	sig[0] = '\0';
	for (const char *line = out; *line && used < len;) {
		const char *nl = strchr(line, '\n');
		int n = nl ? (int)(nl - line) : (int)strlen(line);

		for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
			int w;

			if (strncmp(line, keys[k], strlen(keys[k])))
				continue;
			w = snprintf(sig + used, len - used, "%s%.*s", used ? ", " : "", n, line);
			if (w > 0)
				used += (size_t)w;
		}
		line += n + (nl ? 1 : 0);
	}
}

/*
 * A filesystem or partition signature on path: 1 with it said in sig
 * ("TYPE=ext4, UUID=... (blkid -p)"), 0 when the tools find none, -ENOENT
 * when neither blkid nor wipefs could be run.
 */
static int signature(const char *path, char *sig, size_t len)
{
	char *blkid[] = { "blkid", "-p", "-o", "export", (char *)path, NULL };
	char *wipefs[] = { "wipefs", "--no-act", "--noheadings", "--output", "TYPE,OFFSET",
			   (char *)path, NULL };
	char out[2048];
	size_t n;
	int st = run_capture(blkid, out, sizeof(out));

	if (st == 0 || st == 8) {
		blkid_words(out, sig, len > 16 ? len - 16 : len);
		if (st == 8)
			snprintf(sig + strlen(sig), len - strlen(sig), "%sseveral signatures",
				 sig[0] ? ", " : "");
		snprintf(sig + strlen(sig), len - strlen(sig), " (blkid -p)");
		return 1;
	}
	if (st == 2)
		return 0;
	st = run_capture(wipefs, out, sizeof(out));
	if (st)
		return -ENOENT;
	n = strlen(out);
	while (n && (out[n - 1] == '\n' || out[n - 1] == ' '))
		out[--n] = '\0';
	if (!n)
		return 0;
	for (char *p = out; *p; p++)
		if (*p == '\n')
			*p = ';';
	snprintf(sig, len, "%.400s (wipefs -n: type, offset)", out);
	return 1;
}

/* Who uses the target: 1 with what said, 0 none, -errno (said) when it cannot be told. */
static int in_use(const char *path, const struct stat *st, char *what, size_t len, FILE *err)
{
	int found = 0, r;

	what[0] = '\0';
	if ((S_ISBLK(st->st_mode) || S_ISCHR(st->st_mode)) && !zcav_dev_checks_known()) {
		snprintf(what, len, "a device on a system where clyde-zcav cannot tell whether"
			 " it is mounted, swap or held");
		return 1;
	}
	r = zcav_dev_mounted(st, what, len);
	if (r < 0)
		goto out_unknown;
	found |= r;
	r = zcav_dev_swap(st, what, len);
	if (r < 0)
		goto out_unknown;
	found |= r;
	/* a mounted device is held too: the exclusive open would only repeat it */
	if (!found) {
		r = zcav_dev_holders(path, st, what, len);
		if (r < 0)
			goto out_unknown;
		found |= r;
	}
	return found;
out_unknown:
	fprintf(err, "clyde-zcav: -w %s: cannot tell whether it is in use: %s\n", path, strerror(-r));
	return r;
}

int zcav_guard(const struct zcav_opts *o, FILE *err)
{
	int ret = 0;

	if (!o->write)
		return 0;
	for (unsigned i = 0; i < o->ntargets; i++) {
		const char *path = o->target[i].path;
		char what[2048], sig[512];
		struct stat st;
		int used, has_sig;

		if (stat(path, &st)) {
			fprintf(err, "clyde-zcav: -w %s: %s\n", path, strerror(errno));
			return ZCAV_EXIT_IO;
		}
		if (!S_ISBLK(st.st_mode) && !S_ISCHR(st.st_mode) && !S_ISREG(st.st_mode)) {
			fprintf(err, "clyde-zcav: -w %s: refused: not a device or a regular file\n", path);
			ret = ZCAV_EXIT_REFUSED;
			continue;
		}
		used = in_use(path, &st, what, sizeof(what), err);
		if (used < 0) {
			ret = ZCAV_EXIT_REFUSED;
			continue;
		}
		if (used) {
			fprintf(err, "clyde-zcav: -w %s: refused, even with --force: %s\n", path, what);
			ret = ZCAV_EXIT_REFUSED;
			continue;
		}
		has_sig = signature(path, sig, sizeof(sig));
		if (!o->force) {
			if (has_sig > 0)
				fprintf(err, "clyde-zcav: -w %s: refused without --force: it holds a"
					" signature: %s; zeros destroy it\n", path, sig);
			else
				fprintf(err, "clyde-zcav: -w %s: refused without --force: writing zeros"
					" destroys everything on it%s\n", path, has_sig < 0 ?
					" (neither blkid nor wipefs could look for a signature)" : "");
			ret = ZCAV_EXIT_REFUSED;
			continue;
		}
		if (has_sig > 0)
			fprintf(err, "clyde-zcav: -w --force %s: writing zeros over its signature: %s\n",
				path, sig);
		else
			fprintf(err, "clyde-zcav: -w --force %s: writing zeros over all of it\n", path);
	}
	return ret;
}

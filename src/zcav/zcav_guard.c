// SPDX-License-Identifier: BSD-2-Clause
/*
 * Whether -w may write zeros over its targets. Never without --force;
 * never, even with it, over a device that is mounted (itself or a
 * partition of it), in use as swap, or held by another (device mapper,
 * md, an exclusive open, a loop device over the file); a filesystem or
 * partition signature (blkid -p, else wipefs -n) is named, and is what
 * --force allows. Every refusal names what was found.
 *
 * Each target is opened once, here, and every check is made on that
 * descriptor (fstat, and the probe through it), which the sweep then
 * writes: a path checked and then opened again could be another file by
 * then. A symbolic link is followed only to a block device (the names in
 * /dev/disk/by-id are links); a regular file is opened by a path with no
 * link in any component, and refused when it has other names (hard
 * links), since writing one through a link has no use and is how another
 * user would aim root's zeros at a file of their choosing. Character
 * devices are refused.
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

#include "sys/compat.h"
#include "zcav/zcav.h"

/*
 * Runs argv with in_fd as its standard input and its standard output
 * into buf (len bytes, NUL ended), its error output thrown away: its
 * exit status, 127 when it could not be run, or -errno.
 */
static int run_capture(char *const argv[], int in_fd, char *buf, size_t len)
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

		dup2(in_fd, 0);
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
 * A filesystem or partition signature on the open target fd: 1 with it
 * said in sig ("TYPE=ext4, UUID=... (blkid -p)"), 0 when the tools find
 * none, -ENOENT when neither blkid nor wipefs could be run. The tools
 * get fd as their standard input and open the file it holds through
 * zcav_dev_stdin_path(), not through the target's name.
 */
static int signature(int fd, char *sig, size_t len)
{
	char *path = (char *)zcav_dev_stdin_path();
	char *blkid[] = { "blkid", "-p", "-o", "export", path, NULL };
	char *wipefs[] = { "wipefs", "--no-act", "--noheadings", "--output", "TYPE,OFFSET",
			   path, NULL };
	char out[2048];
	size_t n;
	int st = run_capture(blkid, fd, out, sizeof(out));

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
	st = run_capture(wipefs, fd, out, sizeof(out));
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
	r = zcav_dev_mounted(st, what, len);
	if (r < 0)
		goto out_unknown;
	found |= r;
	r = zcav_dev_swap(st, what, len);
	if (r < 0)
		goto out_unknown;
	found |= r;
	r = zcav_dev_holders(st, what, len);
	if (r < 0)
		goto out_unknown;
	found |= r;
	return found;
out_unknown:
	fprintf(err, "clyde-zcav: -w %s: cannot tell whether it is in use: %s\n", path, strerror(-r));
	return r;
}

/*
 * What -w may write: a block device, or a regular file not reached
 * through a symbolic link (link: the name given was one); NULL, or why not.
 */
static const char *unwritable(mode_t mode, bool link)
{
	if (S_ISBLK(mode))
		return NULL;
	if (S_ISREG(mode) && link)
		return "a symbolic link to a regular file (-w follows a link only to a block"
		       " device: name the file itself)";
	if (S_ISREG(mode))
		return NULL;
	if (S_ISCHR(mode))
		return "a character device (-w writes a block device or a regular file: on Linux a"
		       " disk is a block device; a terminal, a tape or /dev/null is not)";
	return "not a device or a regular file";
}

/*
 * The kernel refused the exclusive open (EBUSY), or a write open of a
 * swap file (ETXTBSY): refused, naming what holds it when it can be told,
 * from a second open that only looks (it is never written), by the name
 * as the first took it (link: following it).
 */
static int say_busy(const char *path, bool link, int errnum, FILE *err)
{
	char what[2048] = "";
	struct stat st;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | (link ? 0 : O_NOFOLLOW));

	if (fd >= 0 && !fstat(fd, &st) && !unwritable(st.st_mode, link) &&
	    in_use(path, &st, what, sizeof(what), err) < 0)
		what[0] = '\0';
	if (fd >= 0)
		close(fd);
	fprintf(err, "clyde-zcav: -w %s: refused, even with --force: %s (%s)\n", path,
		what[0] ? what : "held open by another program",
		errnum == EBUSY ? "an O_EXCL open: EBUSY" : "a write open: ETXTBSY, a swap file");
	return ZCAV_EXIT_REFUSED;
}

/*
 * path opened with flags following no symbolic link in any of its
 * components: each directory is opened below the one before by its own
 * name (O_NOFOLLOW | O_DIRECTORY), the last component with O_NOFOLLOW. A
 * directory link (ln -s real dl; dl/f) would otherwise lead root's zeros
 * into another directory. fd; -ELOOP where a component is a link, or
 * -errno.
 */
static int open_no_links(const char *path, int flags)
{
	char *copy = strdup(path), *part, *slash;
	int dir, fd, ret;
	struct stat st;

	if (!copy)
		return -ENOMEM;
	dir = open(*path == '/' ? "/" : ".", O_RDONLY | O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dir < 0) {
		ret = -errno;
		goto free_copy;
	}
	part = copy;
	for (;;) {
		while (*part == '/')
			part++;
		slash = strchr(part, '/');
		if (slash)
			*slash = '\0';
		fd = openat(dir, *part ? part : ".", slash ? O_RDONLY | O_PATH | O_DIRECTORY |
			    O_NOFOLLOW | O_CLOEXEC : flags | O_NOFOLLOW);
		if (fd < 0) {
			ret = -errno;
			/* the errno of a link met differs by system (ELOOP, EMLINK, ENOTDIR) */
			if (*part && !fstatat(dir, part, &st, AT_SYMLINK_NOFOLLOW) && S_ISLNK(st.st_mode))
				ret = -ELOOP;
			goto close_dir;
		}
		close(dir);
		dir = fd;
		if (!slash)
			break;
		part = slash + 1;
	}
	/* the last one opened is the target */
	ret = dir;
	dir = -1;
close_dir:
	if (dir >= 0)
		close(dir);
free_copy:
	free(copy);
	return ret;
}

/*
 * Opens a -w target: a block device through any symbolic links
 * (zcav_dev_open_block: decided before the open for writing), anything
 * else with no link in any component of its path (open_no_links);
 * exclusively (O_EXCL: Linux refuses it with EBUSY while the block
 * device is mounted or claimed; a regular file ignores it), without
 * blocking (a FIFO put there meanwhile). The kind is decided by fstat on
 * what was opened; lstat and stat before only spare opening what would
 * be refused. A regular file with other names (st_nlink > 1, a hard link
 * another user made) is refused: the zeros would land in the file behind
 * the other name. 0 with sw->fd and *st, ZCAV_EXIT_REFUSED or ZCAV_EXIT_IO
 * (said).
 */
static int open_to_write(const struct zcav_opts *o, struct zcav_sweep *sw, struct stat *st,
			 FILE *err)
{
	const char *path = sw->t->path, *why;
	int flags = zcav_open_flags(o) | O_EXCL | O_NONBLOCK, fl, ret = ZCAV_EXIT_REFUSED;
	bool link;

	if (lstat(path, st))
		goto out_io;
	link = S_ISLNK(st->st_mode);
	if (stat(path, st))
		goto out_io;
	why = unwritable(st->st_mode, link);
	if (why) {
		fprintf(err, "clyde-zcav: -w %s: refused: %s\n", path, why);
		return ZCAV_EXIT_REFUSED;
	}
	if (S_ISBLK(st->st_mode))
		sw->fd = zcav_dev_open_block(path, flags);
	else
		sw->fd = open_no_links(path, flags);
	if (sw->fd == -ELOOP || sw->fd == -ENOTBLK) {
		fprintf(err, "clyde-zcav: -w %s: refused: %s\n", path, sw->fd == -ELOOP ?
			"a symbolic link in the path (-w follows a link only to a block device: "
			"name the file by a path with no link in it)" :
			"no longer a block device when opened");
		sw->fd = -1;
		return ZCAV_EXIT_REFUSED;
	}
	if (sw->fd == -EBUSY || sw->fd == -ETXTBSY) {
		int busy = -sw->fd;

		sw->fd = -1;
		return say_busy(path, link, busy, err);
	}
	if (sw->fd < 0) {
		zcav_say_open_error(err, o, path, -sw->fd);
		sw->fd = -1;
		return ZCAV_EXIT_IO;
	}
	if (fstat(sw->fd, st))
		goto out_io;
	/* what was opened decides: the name may lead elsewhere by now */
	why = unwritable(st->st_mode, link);
	if (!why && S_ISREG(st->st_mode) && st->st_nlink > 1)
		why = "a regular file with other names (hard links: the zeros would reach it by "
		      "them too)";
	if (why) {
		fprintf(err, "clyde-zcav: -w %s: refused: %s\n", path, why);
		goto out_close;
	}
	fl = fcntl(sw->fd, F_GETFL);
	if (fl < 0 || fcntl(sw->fd, F_SETFL, fl & ~O_NONBLOCK))
		goto out_io;
	zcav_target_size(sw, st);
	return 0;
out_io:
	fprintf(err, "clyde-zcav: -w %s: %s\n", path, strerror(errno));
	ret = ZCAV_EXIT_IO;
out_close:
	if (sw->fd >= 0)
		close(sw->fd);
	sw->fd = -1;
	return ret;
}

/*
 * Before a byte is written: how much, where, and the last offset, in the
 * units of -r (MiB of the target) and -s (blocks of -b).
 */
static void say_plan(const struct zcav_opts *o, const struct zcav_sweep *sw, FILE *err)
{
	const char *path = sw->t->path;
	struct zcav_span sp;
	char every[48] = "";
	uint64_t last;

	zcav_span_of(o, sw, &sp);
	if (!sp.count)
		return;	/* the sweep says it is too small */
	if (sp.step > 1)
		snprintf(every, sizeof(every), ", every %llu%s block", (unsigned long long)sp.step,
			 sp.step == 2 ? "nd" : sp.step == 3 ? "rd" : "th");
	if (sp.count == UINT64_MAX) {
		fprintf(err, "clyde-zcav: -w --force %s: writing zeros over blocks of %u MiB%s,"
			" from MiB %llu to its end (its size not known)\n", path, o->block_mib,
			every, (unsigned long long)(sp.first * o->block_mib));
		return;
	}
	last = sp.first + (sp.count - 1) * sp.step;
	fprintf(err, "clyde-zcav: -w --force %s: writing zeros over %llu MiB: %llu block%s of"
		" %u MiB%s, from MiB %llu to MiB %llu; the last byte written is at offset %llu%s\n",
		path,
		(unsigned long long)(sp.count * o->block_mib), (unsigned long long)sp.count,
		sp.count == 1 ? "" : "s", o->block_mib, every,
		(unsigned long long)(sp.first * o->block_mib),
		(unsigned long long)((last + 1) * o->block_mib),
		(unsigned long long)((last + 1) * o->block_mib * (uint64_t)MIB - 1),
		o->passes > 1 ? ", in each pass" : "");
}

/* One target, opened and checked: 0 when it may be written, or what zcav_guard returns. */
static int guard_one(const struct zcav_opts *o, struct zcav_sweep *sw, FILE *err)
{
	const char *path = sw->t->path;
	char what[2048], sig[512];
	struct stat st;
	int ret, used, has_sig;

	ret = open_to_write(o, sw, &st, err);
	if (ret)
		return ret;
	used = in_use(path, &st, what, sizeof(what), err);
	if (used < 0)
		return ZCAV_EXIT_REFUSED;
	if (used) {
		fprintf(err, "clyde-zcav: -w %s: refused, even with --force: %s\n", path, what);
		return ZCAV_EXIT_REFUSED;
	}
	has_sig = signature(sw->fd, sig, sizeof(sig));
	if (!o->force) {
		if (has_sig > 0)
			fprintf(err, "clyde-zcav: -w %s: refused without --force: it holds a"
				" signature: %s; zeros destroy it\n", path, sig);
		else
			fprintf(err, "clyde-zcav: -w %s: refused without --force: writing zeros"
				" destroys everything on it%s\n", path, has_sig < 0 ?
				" (neither blkid nor wipefs could look for a signature)" : "");
		return ZCAV_EXIT_REFUSED;
	}
	if (has_sig > 0)
		fprintf(err, "clyde-zcav: -w --force %s: writing zeros over its signature: %s\n",
			path, sig);
	say_plan(o, sw, err);
	return 0;
}

/*
 * Whether target i names what an earlier target opened (a device and a
 * link to it, or one file twice): each is written by one sweep, and the
 * exclusive open would otherwise blame "another program". The stat here
 * only refuses; it never leads to a write.
 */
static bool named_before(const struct zcav_sweep *sw, unsigned i)
{
	struct stat st, prev;

	if (stat(sw[i].t->path, &st))
		return false;
	for (unsigned j = 0; j < i; j++) {
		if (sw[j].fd < 0 || fstat(sw[j].fd, &prev) || (st.st_mode & S_IFMT) !=
		    (prev.st_mode & S_IFMT))
			continue;
		if (S_ISBLK(st.st_mode) ? st.st_rdev == prev.st_rdev :
		    st.st_dev == prev.st_dev && st.st_ino == prev.st_ino)
			return true;
	}
	return false;
}

int zcav_guard(const struct zcav_opts *o, struct zcav_sweep *sw, FILE *err)
{
	int ret = 0;

	if (!o->write)
		return 0;
	if (!zcav_dev_checks_known()) {
		fputs("clyde-zcav: -w: refused on this system: clyde-zcav cannot tell here whether"
		      " a device or a file is mounted, swap or held, so it writes nothing\n", err);
		return ZCAV_EXIT_REFUSED;
	}
	for (unsigned i = 0; i < o->ntargets; i++) {
		int r;

		if (named_before(sw, i)) {
			fprintf(err, "clyde-zcav: -w %s: refused: an earlier target is the same device"
				" or file (each is written once)\n", sw[i].t->path);
			ret = ZCAV_EXIT_REFUSED;
			continue;
		}
		r = guard_one(o, &sw[i], err);

		/* an examination that failed outranks a refusal, as before */
		if (r == ZCAV_EXIT_IO)
			return r;
		if (r)
			ret = r;
	}
	return ret;
}

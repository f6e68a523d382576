// SPDX-License-Identifier: BSD-2-Clause
/*
 * What a later run makes of the markers in the private directories (written
 * by leftover_mark.c; see leftover.h). A process is gone when this host's
 * boot changed since the marker was written, or when no process has its
 * pid, or when the process with its pid started at another moment (the pid
 * was reused). Where the system tells neither boot nor start (no /proc), the
 * pid alone decides. A marker from another pid namespace (a container
 * sharing the directory) cannot be judged by its pid: it is kept unless
 * --cleanup-any-ns.
 *
 * --cleanup may run as root in a directory every user can write
 * (/var/tmp): it reads each candidate by descriptors, never through a
 * link, and removes only trees whose directory and marker the effective
 * uid owns; another user's tree only with --cleanup-user naming its owner,
 * and then in a child that has become that user.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pwd.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clyde/leftover.h"
#include "core/clyde.h"
#include "lib/size.h"
#include "sys/privs.h"
#include "sys/workdir.h"

/* The value of "key value" in text, or NULL. */
static const char *field(const char *text, const char *key, char *out, size_t len)
{
	size_t klen = strlen(key);

	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (!strncmp(p, key, klen) && p[klen] == ' ') {
			snprintf(out, len, "%.*s", (int)strcspn(p + klen + 1, "\n"), p + klen + 1);
			return out;
		}
	}
	return NULL;
}

int leftover_parse(const char *text, struct leftover *l)
{
	char v[64], *end;
	long long pid;

	memset(l, 0, sizeof(*l));
	if (strncmp(text, "clyde-marker 1\n", 15) || !field(text, "pid", v, sizeof(v)))
		return -EINVAL;
	errno = 0;
	pid = strtoll(v, &end, 10);
	if (errno || *end || pid <= 0 || pid > INT32_MAX)
		return -EINVAL;
	l->pid = (pid_t)pid;
	if (!field(text, "host", l->host, sizeof(l->host)))
		return -EINVAL;
	if (field(text, "time", v, sizeof(v)))
		l->started = strtoll(v, NULL, 10);
	field(text, "cmd", l->cmd, sizeof(l->cmd));
	field(text, "pidns", l->pidns, sizeof(l->pidns));
	return 0;
}

/*
 * Was the marker written in another pid namespace (or one clyde cannot see
 * now)? Then its pid says nothing here. A marker without the field (older
 * clyde) is judged by its pid as before.
 */
static bool other_namespace(struct leftover *l, bool any_ns)
{
	char mine[48];

	if (!l->pidns[0])
		return false;
	if (leftover_pid_namespace(mine, sizeof(mine)))
		snprintf(mine, sizeof(mine), "unknown");
	else if (!strcmp(mine, l->pidns))
		return false;
	l->other_ns = true;
	l->gone = any_ns;
	if (any_ns)
		snprintf(l->why, sizeof(l->why), "written in pid namespace %s, not this one (%s): "
			 "taken as gone (--cleanup-any-ns)", l->pidns, mine);
	else
		snprintf(l->why, sizeof(l->why), "written in pid namespace %s, not this one (%s): "
			 "clyde cannot tell whether pid %ld still runs there (--cleanup-any-ns "
			 "removes it)", l->pidns, mine, (long)l->pid);
	return true;
}

/* Is the marker's process gone? Only this host, in its pid namespace, can tell. */
static void judge(const char *text, struct leftover *l, bool any_ns)
{
	char host[64], boot[64], mine[64], start[32], now[32];
	bool zombie;

	leftover_host_name(host, sizeof(host));
	l->same_host = !strcmp(host, l->host);
	if (!l->same_host) {
		snprintf(l->why, sizeof(l->why), "left by host %s: only there can clyde tell "
			 "whether it still runs", l->host);
		return;
	}
	leftover_boot_id(mine, sizeof(mine));
	if (field(text, "boot", boot, sizeof(boot)) && boot[0] && mine[0] && strcmp(boot, mine)) {
		l->gone = true;
		snprintf(l->why, sizeof(l->why), "written before this host last booted");
		return;
	}
	if (other_namespace(l, any_ns))
		return;
	if (kill(l->pid, 0) && errno == ESRCH) {
		l->gone = true;
		snprintf(l->why, sizeof(l->why), "no process %ld", (long)l->pid);
		return;
	}
	leftover_process_start(l->pid, now, sizeof(now), &zombie);
	if (zombie) {
		l->gone = true;
		snprintf(l->why, sizeof(l->why), "process %ld has exited (not yet reaped)",
			 (long)l->pid);
		return;
	}
	if (field(text, "start", start, sizeof(start)) && start[0] && now[0] && strcmp(start, now)) {
		l->gone = true;
		snprintf(l->why, sizeof(l->why), "pid %ld is another process now", (long)l->pid);
		return;
	}
	snprintf(l->why, sizeof(l->why), "pid %ld still runs", (long)l->pid);
}

#define DIR_OPEN_FLAGS (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)

/*
 * Read the marker of the directory fd, as a regular file (never a link,
 * never a FIFO left to block the open), and its owner. 0 or -errno.
 */
static int read_marker(int fd, uid_t *owner, char *text, size_t len)
{
	struct stat seen, opened;
	int mfd, ret = 0;
	ssize_t n;

	if (fstatat(fd, LEFTOVER_MARKER, &seen, AT_SYMLINK_NOFOLLOW))
		return -errno;
	if (!S_ISREG(seen.st_mode))
		return -EINVAL;
	mfd = openat(fd, LEFTOVER_MARKER, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (mfd < 0)
		return -errno;
	if (fstat(mfd, &opened) || opened.st_ino != seen.st_ino || !S_ISREG(opened.st_mode)) {
		ret = -EINVAL;
		goto close_marker;
	}
	n = read(mfd, text, len - 1);
	if (n < 0) {
		ret = -errno;
		goto close_marker;
	}
	text[n] = '\0';
	*owner = opened.st_uid;
close_marker:
	close(mfd);
	return ret;
}

/*
 * The entry name of the directory parent_fd, if it is a real directory
 * (not a link) holding clyde's marker: l filled in but for the judgement,
 * the marker's text in text. 0 or -errno.
 */
static int inspect(int parent_fd, const char *name, struct leftover *l, char *text, size_t len)
{
	struct stat st, opened;
	uid_t marker_uid = (uid_t)-1;
	int fd, ret;

	if (fstatat(parent_fd, name, &st, AT_SYMLINK_NOFOLLOW))
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	fd = openat(parent_fd, name, DIR_OPEN_FLAGS);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &opened) || opened.st_dev != st.st_dev || opened.st_ino != st.st_ino) {
		ret = -EAGAIN;
		goto close_dir;
	}
	ret = read_marker(fd, &marker_uid, text, len);
	if (ret)
		goto close_dir;
	ret = leftover_parse(text, l);
	if (ret)
		goto close_dir;
	l->st = opened;
	l->marker_uid = marker_uid;
	l->bytes = workdir_tree_bytes(fd);
	ret = 0;
close_dir:
	close(fd);
	return ret;
}

int leftover_scan(const char *dir, bool any_ns,
		  void (*fn)(const struct leftover *l, void *arg), void *arg)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct dirent *e;
	DIR *d;

	if (fd < 0)
		return -errno;
	d = fdopendir(fd);
	if (!d) {
		int ret = -errno;

		close(fd);
		return ret;
	}
	while ((e = readdir(d))) {
		struct leftover l;
		char text[2048];

		if (strncmp(e->d_name, "clyde.", 6))
			continue;
		memset(&l, 0, sizeof(l));
		if (inspect(dirfd(d), e->d_name, &l, text, sizeof(text)))
			continue;
		if (snprintf(l.path, sizeof(l.path), "%s/%s", dir, e->d_name) >= (int)sizeof(l.path))
			continue;
		snprintf(l.name, sizeof(l.name), "%s", e->d_name);
		l.parent_fd = dirfd(d);
		judge(text, &l, any_ns);
		fn(&l, arg);
	}
	closedir(d);
	return 0;
}

static void describe(const struct leftover *l, char *out, size_t len)
{
	char size[32], when[32] = "?";
	time_t t = (time_t)l->started;
	struct tm tm;

	size_human(size, sizeof(size), l->bytes);
	if (l->started && localtime_r(&t, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
	snprintf(out, len, "%s (%s; clyde pid %ld on %s, started %s: %s)", l->path, size,
		 (long)l->pid, l->host, when, l->cmd);
}

/* The path, its size and whose it was: a path of up to 4095 bytes and the rest. */
#define DESCRIBE_LEN 5200

/* A user's name for messages: its login, else its number. */
static void user_name(uid_t uid, char *out, size_t len)
{
	struct passwd *pw = getpwuid(uid);

	if (pw)
		snprintf(out, len, "%s", pw->pw_name);
	else
		snprintf(out, len, "%u", (unsigned)uid);
}

static void warn_one(const struct leftover *l, void *arg)
{
	char what[DESCRIBE_LEN], who[64];
	uid_t owner = l->st.st_uid;

	if (!l->gone)
		return;
	describe(l, what, sizeof(what));
	user_name(owner, who, sizeof(who));
	if (owner == geteuid() && l->marker_uid == owner)
		fprintf((FILE *)arg, "clyde: note: a run that did not finish left %s behind (%s); "
			"clyde --cleanup removes it\n", what, l->why);
	else
		fprintf((FILE *)arg, "clyde: note: a run that did not finish left %s behind (%s); "
			"it belongs to %s: clyde --cleanup run by %s, or by root with "
			"--cleanup-user=%s, removes it\n", what, l->why, who, who, who);
}

void leftover_warn(const char *dir, FILE *out)
{
	leftover_scan(dir, false, warn_one, out);
}

struct cleanup_state {
	FILE *out;
	const struct cleanup_opts *opts;
	uid_t as_uid;		/* --cleanup-user's uid and gid */
	gid_t as_gid;
	unsigned removed;
	unsigned kept;
	unsigned failed;
};

/*
 * Remove one leftover, by descriptors from the directory scanned, only if
 * it is still the directory judged; say what went or what stayed. as: the
 * user this process became for it, or NULL. 0 or -errno.
 */
static int remove_leftover(const struct leftover *l, const char *as, FILE *out)
{
	char what[DESCRIBE_LEN];
	int ret;

	describe(l, what, sizeof(what));
	ret = workdir_remove_at(l->parent_fd, l->name, &l->st);
	if (ret) {
		fprintf(out, "clyde: cannot remove all of %s%s%s: %s\n", what, as ? " as " : "",
			as ? as : "", strerror(-ret));
		workdir_name_left_at(l->parent_fd, l->name, l->path, out, 10);
		return ret;
	}
	fprintf(out, "clyde: removed %s%s%s: %s\n", what, as ? " as " : "", as ? as : "", l->why);
	return 0;
}

/* An errno as a child's exit status (1-255), and back: -WEXITSTATUS. */
static int errno_status(int ret)
{
	return -ret > 0 && -ret < 256 ? -ret : EIO;
}

/*
 * Remove another user's leftover as that user: in a child that has given
 * up root for good before it touches the tree. 0 or -errno.
 */
static int remove_as_owner(const struct cleanup_state *cs, const struct leftover *l)
{
	const char *as = cs->opts->user;
	char err[256];
	int status, ret;
	pid_t pid;

	/* the child writes to the same streams: nothing buffered may be written twice */
	fflush(cs->out);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		ret = privs_become(cs->as_uid, cs->as_gid, err, sizeof(err));
		if (ret)
			fprintf(cs->out, "clyde: cannot remove %s as %s: %s\n", l->path, as, err);
		else
			ret = remove_leftover(l, as, cs->out);
		fflush(cs->out);
		_exit(ret ? errno_status(ret) : 0);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (!WIFEXITED(status))
		return -ECHILD;
	return -WEXITSTATUS(status);
}

static void clean_one(const struct leftover *l, void *arg)
{
	struct cleanup_state *cs = arg;
	char what[DESCRIBE_LEN], owner_name[64], marker_name[64];
	uid_t owner = l->st.st_uid;
	int ret;

	describe(l, what, sizeof(what));
	user_name(owner, owner_name, sizeof(owner_name));
	user_name(l->marker_uid, marker_name, sizeof(marker_name));
	if (!l->gone) {
		cs->kept++;
		fprintf(cs->out, "clyde: kept %s: %s\n", what, l->why);
		return;
	}
	if (l->marker_uid != owner) {
		cs->kept++;
		fprintf(cs->out, "clyde: kept %s: its directory belongs to %s, its marker to %s: "
			"no run of clyde writes that\n", what, owner_name, marker_name);
		return;
	}
	if (owner == geteuid()) {
		ret = remove_leftover(l, NULL, cs->out);
	} else if (cs->opts->user && owner == cs->as_uid) {
		ret = remove_as_owner(cs, l);
	} else {
		cs->kept++;
		fprintf(cs->out, "clyde: kept %s: %s, but it belongs to %s: clyde removes only its "
			"own user's trees (--cleanup-user=%s removes it as %s)\n", what, l->why,
			owner_name, owner_name, owner_name);
		return;
	}
	if (ret)
		cs->failed++;
	else
		cs->removed++;
}

int leftover_cleanup(const char *dir, const struct cleanup_opts *opts, FILE *out)
{
	struct cleanup_state cs = { .out = out, .opts = opts };
	char err[256];
	int ret;

	if (opts->user) {
		if (privs_resolve("--cleanup-user", opts->user, NULL, &cs.as_uid, &cs.as_gid, err,
				  sizeof(err))) {
			fprintf(out, "clyde: %s\n", err);
			return CLYDE_EXIT_USAGE;
		}
		if (geteuid() != 0 && cs.as_uid != geteuid()) {
			fprintf(out, "clyde: --cleanup-user=%s: only root can remove as another "
				"user\n", opts->user);
			return CLYDE_EXIT_USAGE;
		}
	}
	ret = leftover_scan(dir, opts->any_ns, clean_one, &cs);
	if (ret) {
		fprintf(out, "clyde: --cleanup %s: %s\n", dir, strerror(-ret));
		return CLYDE_EXIT_DIR;
	}
	fprintf(out, "clyde: --cleanup %s: %u removed, %u kept%s\n", dir, cs.removed, cs.kept,
		cs.failed ? ", some could not be removed" : "");
	return cs.failed ? CLYDE_EXIT_IO : CLYDE_EXIT_OK;
}

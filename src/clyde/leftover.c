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
#include "lib/strutil.h"
#include "lib/timing.h"
#include "sys/privs.h"
#include "sys/workdir.h"

/*
 * Every run looks at its -d directory for leftovers before it starts, and
 * whoever may write there may plant clyde.* trees of millions of entries:
 * what one look reads is bounded. A tree's size is counted over at most
 * LEFTOVER_COUNT_ENTRIES entries and LEFTOVER_COUNT_SECONDS in all the
 * trees of one look: from the page cache a stat takes 2 to 15 us (200000
 * entries took 0.5 s of system time, 3 s of wall time, on a loaded VM of 2
 * CPUs), so the entries bound a look to well under a second; from a cold
 * disk each entry may cost a seek, hence the time as well. A size only
 * helps a user decide what to remove: past the bound it is shown as "at
 * least". Before a run, reading the markers themselves stops after
 * LEFTOVER_SCAN_SECONDS (a million planted clyde.* directories), and the
 * run goes on; --cleanup, asked for, reads them all.
 */
#define LEFTOVER_COUNT_ENTRIES 50000
#define LEFTOVER_COUNT_SECONDS 1
#define LEFTOVER_SCAN_SECONDS 2

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
	char mine[48], theirs[STR_ESCAPED_MAX(sizeof(l->pidns))];

	if (!l->pidns[0])
		return false;
	if (leftover_pid_namespace(mine, sizeof(mine)))
		snprintf(mine, sizeof(mine), "unknown");
	else if (!strcmp(mine, l->pidns))
		return false;
	l->other_ns = true;
	l->gone = any_ns;
	str_escape(theirs, sizeof(theirs), l->pidns);
	if (any_ns)
		snprintf(l->why, sizeof(l->why), "written in pid namespace %s, not this one (%s): "
			 "taken as gone (--cleanup-any-ns)", theirs, mine);
	else
		snprintf(l->why, sizeof(l->why), "written in pid namespace %s, not this one (%s): "
			 "clyde cannot tell whether pid %ld still runs there (--cleanup-any-ns "
			 "removes it)", theirs, mine, (long)l->pid);
	return true;
}

/* Is the marker's process gone? Only this host, in its pid namespace, can tell. */
static void judge(const char *text, struct leftover *l, bool any_ns)
{
	char host[64], boot[64], mine[64], start[32], now[32];
	char theirs[STR_ESCAPED_MAX(sizeof(l->host))];
	bool zombie;

	leftover_host_name(host, sizeof(host));
	l->same_host = !strcmp(host, l->host);
	if (!l->same_host) {
		str_escape(theirs, sizeof(theirs), l->host);
		snprintf(l->why, sizeof(l->why), "left by host %s: only there can clyde tell "
			 "whether it still runs", theirs);
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
	/* the same file: an inode number alone repeats on another file system */
	if (fstat(mfd, &opened) || opened.st_ino != seen.st_ino || opened.st_dev != seen.st_dev ||
	    !S_ISREG(opened.st_mode)) {
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
 * (not a link) holding clyde's marker: l filled in but for the judgement
 * and the size, the marker's text in text. The directory's descriptor (the
 * caller closes it) or -errno.
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
	return fd;
close_dir:
	close(fd);
	return ret;
}

/*
 * Count l's bytes through its open directory fd within the look's budget.
 * A tree the effective user does not own is not walked: its owner could
 * make it as large, or as slow to read, as they liked.
 */
static void count_size(struct leftover *l, int fd, struct walk_budget *budget)
{
	uint64_t before = budget->entries;

	if (l->st.st_uid != geteuid())
		l->size = LEFTOVER_SIZE_NOT_OWNED;
	else if (budget->spent)
		l->size = LEFTOVER_SIZE_NO_TIME;
	else if (workdir_tree_bytes_within(fd, budget, &l->bytes))
		l->size = LEFTOVER_SIZE_WHOLE;
	else
		l->size = LEFTOVER_SIZE_CUT;
	l->counted = budget->entries - before;
}

int leftover_scan(const char *dir, bool any_ns, bool every,
		  void (*fn)(const struct leftover *l, void *arg), void *arg)
{
	uint64_t start = now_ns();
	struct walk_budget budget = {
		.entries_left = LEFTOVER_COUNT_ENTRIES,
		.deadline_ns = start + LEFTOVER_COUNT_SECONDS * 1000000000ull,
	};
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), ret = 0;
	struct dirent *e;
	DIR *d;

	if (fd < 0)
		return -errno;
	d = fdopendir(fd);
	if (!d) {
		ret = -errno;
		close(fd);
		return ret;
	}
	while ((e = readdir(d))) {
		struct leftover l;
		char text[2048];
		int tree_fd, n;

		if (strncmp(e->d_name, "clyde.", 6))
			continue;
		if (!every && now_ns() - start >= LEFTOVER_SCAN_SECONDS * 1000000000ull) {
			ret = -ETIMEDOUT;
			break;
		}
		memset(&l, 0, sizeof(l));
		tree_fd = inspect(dirfd(d), e->d_name, &l, text, sizeof(text));
		if (tree_fd < 0)
			continue;
		n = snprintf(l.path, sizeof(l.path), "%s/%s", dir, e->d_name);
		if (n < 0 || n >= (int)sizeof(l.path)) {
			close(tree_fd);
			continue;
		}
		snprintf(l.name, sizeof(l.name), "%s", e->d_name);
		l.parent_fd = dirfd(d);
		judge(text, &l, any_ns);
		/* before a run only the trees it names are counted */
		if (every || l.gone)
			count_size(&l, tree_fd, &budget);
		close(tree_fd);
		fn(&l, arg);
	}
	closedir(d);
	return ret;
}

/* What l holds, as far as it was counted (see LEFTOVER_COUNT_ENTRIES). */
static void describe_size(const struct leftover *l, char *out, size_t len)
{
	char size[32];

	size_human(size, sizeof(size), l->bytes);
	switch (l->size) {
	case LEFTOVER_SIZE_CUT:
		snprintf(out, len, "at least %s: too large to inspect, its first %" PRIu64
			 " entries counted, the rest not", size, l->counted);
		break;
	case LEFTOVER_SIZE_NOT_OWNED:
		snprintf(out, len, "size not counted: clyde does not walk another user's tree");
		break;
	case LEFTOVER_SIZE_NO_TIME:
		snprintf(out, len, "size not counted: the time for counting went to the trees "
			 "before it");
		break;
	default:
		snprintf(out, len, "%s", size);
		break;
	}
}

/*
 * The path, its size and whose it was, every name and field escaped
 * (str_escape): the directory's name and the marker's text are whatever
 * whoever made them wrote, a terminal's commands included.
 */
static void describe(const struct leftover *l, char *out, size_t len)
{
	char size[160], when[32] = "?", path[STR_ESCAPED_MAX(sizeof(l->path))];
	char host[STR_ESCAPED_MAX(sizeof(l->host))], cmd[STR_ESCAPED_MAX(sizeof(l->cmd))];
	time_t t = (time_t)l->started;
	struct tm tm;

	describe_size(l, size, sizeof(size));
	if (l->started && localtime_r(&t, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
	str_escape(path, sizeof(path), l->path);
	str_escape(host, sizeof(host), l->host);
	str_escape(cmd, sizeof(cmd), l->cmd);
	snprintf(out, len, "%s (%s; clyde pid %ld on %s, started %s: %s)", path, size,
		 (long)l->pid, host, when, cmd);
}

/* What describe writes at most: every field escaped whole, and the words around them. */
#define DESCRIBE_LEN (STR_ESCAPED_MAX(sizeof(((struct leftover *)0)->path)) + \
		      STR_ESCAPED_MAX(sizeof(((struct leftover *)0)->host)) + \
		      STR_ESCAPED_MAX(sizeof(((struct leftover *)0)->cmd)) + 320)

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
	char shown[STR_ESCAPED_MAX(WORKDIR_MAX)];

	if (leftover_scan(dir, false, false, warn_one, out) != -ETIMEDOUT)
		return;
	str_escape(shown, sizeof(shown), dir);
	fprintf(out, "clyde: note: stopped looking for what killed runs left in %s after %d s: "
		"too many clyde.* directories to read before every run; clyde --cleanup reads "
		"them all\n", shown, LEFTOVER_SCAN_SECONDS);
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
		if (ret) {
			char path[STR_ESCAPED_MAX(sizeof(l->path))];

			str_escape(path, sizeof(path), l->path);
			fprintf(cs->out, "clyde: cannot remove %s as %s: %s\n", path, as, err);
		}
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
	char err[256], shown[STR_ESCAPED_MAX(WORKDIR_MAX)];
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
	/* the name as a terminal shows it and never obeys, as leftover_warn does */
	str_escape(shown, sizeof(shown), dir);
	ret = leftover_scan(dir, opts->any_ns, true, clean_one, &cs);
	if (ret) {
		fprintf(out, "clyde: --cleanup %s: %s\n", shown, strerror(-ret));
		return CLYDE_EXIT_DIR;
	}
	fprintf(out, "clyde: --cleanup %s: %u removed, %u kept%s\n", shown, cs.removed, cs.kept,
		cs.failed ? ", some could not be removed" : "");
	return cs.failed ? CLYDE_EXIT_IO : CLYDE_EXIT_OK;
}

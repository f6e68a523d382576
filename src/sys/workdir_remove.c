// SPDX-License-Identifier: BSD-2-Clause
/*
 * Removing a private directory and everything under it, for every cleanup
 * path (a run's own, a calibration's, --cleanup's), by descriptors only.
 *
 * Root may run this over a tree another user can change while it runs, so
 * no path string below the root is ever resolved: each directory is
 * opened from its parent's descriptor with O_NOFOLLOW, checked to be the
 * entry just stat'ed (st_dev, st_ino), and its entries are stat'ed,
 * unlinked and opened relative to it. A subdirectory swapped for a symlink
 * mid-walk is then only a name in the tree: the link is unlinked, never
 * followed. A mount inside the tree is kept and named, never entered: a
 * directory on another file system (st_dev), or on another mount of the
 * same one (a bind mount keeps st_dev: sys/mount_id.h), told on the
 * descriptor just opened, before anything in it is touched; so is a
 * directory deeper than WORKDIR_DEPTH_MAX, which bounds the descriptors
 * held open at once.
 * The root's marker (LEFTOVER_MARKER) goes last, and only when all else
 * went: a tree that could not be removed stays one --cleanup can find.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/signals.h"
#include "lib/strutil.h"
#include "lib/timing.h"
#include "sys/leftover_mark.h"
#include "sys/mount_id.h"
#include "sys/workdir.h"

#define DIR_OPEN_FLAGS (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)

/*
 * Passes over one directory while a pass removed something: readdir may
 * skip entries while the directory shrinks, and a rename inside the tree
 * may move an entry behind the reader. Bounded, so that whoever keeps
 * adding entries cannot keep root here.
 */
#define WALK_PASSES_MAX 16

enum walk_op {
	WALK_REMOVE,	/* unlink everything, depth first */
	WALK_NAME,	/* name every entry (what a removal left) */
	WALK_MEASURE,	/* add up allocated bytes */
};

struct tree_walk {
	enum walk_op op;
	dev_t dev;		/* the root's file system */
	struct mount_id mnt;	/* and its mount: neither is ever left */
	int err;		/* the first error */
	FILE *out;		/* WALK_NAME: where, */
	unsigned max;		/* how many at most, */
	unsigned named;		/* and how many there were */
	uint64_t bytes;		/* WALK_MEASURE */
	bool paused;		/* the test pause came (once per removal) */
	bool keep_marker;	/* the root's marker: not removed (yet), not named */
	struct walk_budget *budget;	/* WALK_MEASURE: where to stop, or NULL */
	char shown[4096];	/* the entry's path, for messages only: never opened */
};

static void note_err(struct tree_walk *w, int err)
{
	if (!w->err)
		w->err = err;
}

/* Append /name to the path shown; returns the old length for shown_pop. */
static size_t shown_push(struct tree_walk *w, const char *name)
{
	size_t len = strlen(w->shown);

	snprintf(w->shown + len, sizeof(w->shown) - len, "/%s", name);
	return len;
}

static void shown_pop(struct tree_walk *w, size_t len)
{
	w->shown[len] = '\0';
}

static void name_left(struct tree_walk *w, const char *why)
{
	char shown[STR_ESCAPED_MAX(sizeof(w->shown))];

	if (w->op != WALK_NAME || w->named++ >= w->max)
		return;
	/* the names are the tree's, whoever made them: shown, never obeyed */
	str_escape(shown, sizeof(shown), w->shown);
	fprintf(w->out, "clyde:   left: %s%s\n", shown, why);
}

/* Whether a budgeted walk must stop before its next entry; counts the entry if not. */
static bool walk_spent(struct tree_walk *w)
{
	struct walk_budget *b = w->budget;

	if (!b)
		return false;
	if (!b->spent && !b->entries_left)
		b->spent = true;
	if (!b->spent && now_ns() >= b->deadline_ns)
		b->spent = b->out_of_time = true;
	if (b->spent)
		return true;
	b->entries_left--;
	b->entries++;
	return false;
}

/* Unlink one name in dirfd; true when it went. */
static bool unlink_name(struct tree_walk *w, int dirfd, const char *name, int flags)
{
	struct mount_id id;
	int err;

	if (!unlinkat(dirfd, name, flags))
		return true;
	if (errno == ENOENT)
		return false;
	/*
	 * The directory emptied was swapped for a symlink or a file meanwhile:
	 * remove that name (never what a link points to); its contents went
	 * through the descriptor, wherever the directory now is.
	 */
	if (flags == AT_REMOVEDIR && errno == ENOTDIR && !unlinkat(dirfd, name, 0))
		return true;
	err = -errno;
	/*
	 * A file bind-mounted (Linux): the kernel does not unlink a mount
	 * point, so it is asked only here, not of every file; a mount kept.
	 */
	if (!flags && err == -EBUSY && !mount_id_at(dirfd, name, &id) &&
	    mount_id_other(&w->mnt, &id))
		err = -EXDEV;
	note_err(w, err);
	return false;
}

static void walk_dir(struct tree_walk *w, int fd, unsigned depth);

/*
 * Open the directory name in parent_fd, never through a link; when expect
 * is given (what fstatat saw of the entry, or what a caller judged) it
 * must be that very directory (st_dev, st_ino, owner). The descriptor,
 * its stat in st, or -errno (-EAGAIN: it changed).
 */
static int open_dir(int parent_fd, const char *name, const struct stat *expect, struct stat *st)
{
	int fd = openat(parent_fd, name, DIR_OPEN_FLAGS), ret;

	if (fd < 0)
		return -errno;
	if (fstat(fd, st)) {
		ret = -errno;
		goto close_dir;
	}
	if (expect && (st->st_dev != expect->st_dev || st->st_ino != expect->st_ino ||
		       st->st_uid != expect->st_uid)) {
		ret = -EAGAIN;
		goto close_dir;
	}
	return fd;
close_dir:
	close(fd);
	return ret;
}

/*
 * Whether an entry must be kept for its mount: got is what asking its
 * mount identity (id) returned. Another mount than the root's is kept;
 * so is one whose mount could not be told. Noted and named, why saying
 * what was not done.
 */
static bool kept_mount(struct tree_walk *w, int got, const struct mount_id *id, const char *why)
{
	if (got) {
		note_err(w, got);
		name_left(w, " (its mount cannot be told: not touched)");
		return true;
	}
	if (!mount_id_other(&w->mnt, id))
		return false;
	note_err(w, -EXDEV);
	name_left(w, why);
	return true;
}

/* One entry of the directory dirfd, at depth (the root's entries: 1); true when removed. */
static bool walk_entry(struct tree_walk *w, int dirfd, const char *name, unsigned depth)
{
	struct stat st, opened;
	struct mount_id id;
	int fd;

	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW)) {
		if (errno != ENOENT)
			note_err(w, -errno);
		return false;
	}
	/* a mount point, a file bind-mounted too: another file system's */
	if (st.st_dev != w->dev) {
		note_err(w, -EXDEV);
		name_left(w, " (another file system: not entered)");
		return false;
	}
	w->bytes += (uint64_t)st.st_blocks * 512u;
	if (!S_ISDIR(st.st_mode)) {
		/* a file bind-mounted (Linux), which unlink_name() could not remove */
		if (w->op == WALK_NAME &&
		    kept_mount(w, mount_id_at(dirfd, name, &id), &id, " (a mount point: kept)"))
			return false;
		name_left(w, "");
		return w->op == WALK_REMOVE && unlink_name(w, dirfd, name, 0);
	}
	if (depth >= WORKDIR_DEPTH_MAX) {
		note_err(w, -ELOOP);
		name_left(w, " (too deep: not entered)");
		return false;
	}
	fd = open_dir(dirfd, name, &st, &opened);
	if (fd == -ENOENT)
		return false;
	if (fd < 0) {
		note_err(w, fd);
		name_left(w, fd == -EAGAIN ? " (changed while read: not entered)" : "");
		return false;
	}
	/*
	 * A mount of the same file system (a bind mount keeps st_dev): told on
	 * the descriptor opened, so a mount put there since fstatat is seen
	 * too, before anything in it is touched.
	 */
	if (kept_mount(w, mount_id_fd(fd, &id), &id, " (a mount point: not entered)")) {
		close(fd);
		return false;
	}
	name_left(w, "");
	if (w->op == WALK_REMOVE && !w->paused) {
		w->paused = true;
		test_pause_named("remove");
	}
	walk_dir(w, fd, depth + 1);
	return w->op == WALK_REMOVE && unlink_name(w, dirfd, name, AT_REMOVEDIR);
}

/* Every entry of the directory open at fd, which this closes. */
static void walk_dir(struct tree_walk *w, int fd, unsigned depth)
{
	DIR *d = fdopendir(fd);

	if (!d) {
		note_err(w, -errno);
		close(fd);
		return;
	}
	for (unsigned pass = 0; pass < WALK_PASSES_MAX; pass++) {
		unsigned removed = 0;
		struct dirent *e;

		errno = 0;
		while ((e = readdir(d))) {
			size_t len;

			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			/* the marker stays until all else went, and goes unnamed */
			if (depth == 1 && w->keep_marker && !strcmp(e->d_name, LEFTOVER_MARKER))
				continue;
			if (walk_spent(w))
				break;
			len = shown_push(w, e->d_name);
			removed += walk_entry(w, dirfd(d), e->d_name, depth);
			shown_pop(w, len);
			errno = 0;
		}
		if (errno)
			note_err(w, -errno);
		if (w->op != WALK_REMOVE || !removed)
			break;
		rewinddir(d);
	}
	closedir(d);
}

/*
 * The mount of the tree's root, open at fd, into mnt: 0; -EXDEV when the
 * root is a mount point itself (something mounted over the directory
 * named: its mount is not its parent's); or -errno.
 */
static int root_mount(int parent_fd, int fd, const struct stat *root, struct mount_id *mnt)
{
	struct mount_id parent;
	struct stat pst;
	int ret = mount_id_fd(fd, mnt);

	if (ret)
		return ret;
	if (fstat(parent_fd, &pst))
		return -errno;
	ret = mount_id_fd(parent_fd, &parent);
	if (ret)
		return ret;
	return pst.st_dev != root->st_dev || mount_id_other(&parent, mnt) ? -EXDEV : 0;
}

int workdir_remove_at(int parent_fd, const char *name, const struct stat *expect)
{
	struct tree_walk w = { .op = WALK_REMOVE, .keep_marker = true };
	struct stat root, now;
	int fd = open_dir(parent_fd, name, expect, &root), walk_fd, ret;

	if (fd < 0)
		return fd;
	w.dev = root.st_dev;
	ret = root_mount(parent_fd, fd, &root, &w.mnt);
	if (ret) {
		note_err(&w, ret);
		goto close_root;
	}
	walk_fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	if (walk_fd < 0) {
		note_err(&w, -errno);
		goto close_root;
	}
	walk_dir(&w, walk_fd, 1);
	if (w.err)
		goto close_root;
	if (unlinkat(fd, LEFTOVER_MARKER, 0) && errno != ENOENT)
		note_err(&w, -errno);
	/* the name must still be the directory emptied: rmdir takes only an empty one anyway */
	if (fstatat(parent_fd, name, &now, AT_SYMLINK_NOFOLLOW)) {
		note_err(&w, -errno);
	} else if (now.st_dev != root.st_dev || now.st_ino != root.st_ino) {
		note_err(&w, -EAGAIN);
	} else if (unlinkat(parent_fd, name, AT_REMOVEDIR) && errno != ENOENT) {
		note_err(&w, -errno);
	}
close_root:
	close(fd);
	return w.err;
}

unsigned workdir_name_left_at(int parent_fd, const char *name, const char *shown, FILE *out,
			      unsigned max)
{
	struct tree_walk w = { .op = WALK_NAME, .out = out, .max = max, .keep_marker = true };
	struct stat root;
	int fd = open_dir(parent_fd, name, NULL, &root), ret;

	if (fd < 0)
		return 0;
	w.dev = root.st_dev;
	snprintf(w.shown, sizeof(w.shown), "%s", shown);
	ret = root_mount(parent_fd, fd, &root, &w.mnt);
	if (ret) {
		close(fd);
		if (ret == -EXDEV)
			name_left(&w, " (a mount point: not entered)");
		return w.named;
	}
	walk_dir(&w, fd, 1);
	if (w.named > max)
		fprintf(out, "clyde:   and %u more\n", w.named - max);
	return w.named;
}

uint64_t workdir_tree_bytes(int dir_fd)
{
	uint64_t bytes;

	workdir_tree_bytes_within(dir_fd, NULL, &bytes);
	return bytes;
}

bool workdir_tree_bytes_within(int dir_fd, struct walk_budget *budget, uint64_t *bytes)
{
	struct tree_walk w = { .op = WALK_MEASURE, .budget = budget };
	struct stat root;
	int fd;

	*bytes = 0;
	if (fstat(dir_fd, &root) || mount_id_fd(dir_fd, &w.mnt))
		return true;
	fd = fcntl(dir_fd, F_DUPFD_CLOEXEC, 0);
	if (fd < 0)
		return true;
	/* a duplicate shares the offset: from the first entry, whatever a walk before left */
	lseek(fd, 0, SEEK_SET);
	w.dev = root.st_dev;
	w.bytes = (uint64_t)root.st_blocks * 512u;
	walk_dir(&w, fd, 1);
	*bytes = w.bytes;
	return !budget || !budget->spent;
}

/*
 * Split path into its parent, opened (the caller's own -d: links in it
 * are the caller's choice), and its last name, copied to name.
 * The parent's descriptor or -errno.
 */
static int open_parent(const char *path, char *name, size_t namelen)
{
	char parent[4096];
	size_t len = strlen(path);
	const char *slash;
	int fd;

	while (len > 1 && path[len - 1] == '/')
		len--;
	if (!len || len >= sizeof(parent))
		return -ENAMETOOLONG;
	memcpy(parent, path, len);
	parent[len] = '\0';
	slash = strrchr(parent, '/');
	if (snprintf(name, namelen, "%s", slash ? slash + 1 : parent) >= (int)namelen)
		return -ENAMETOOLONG;
	if (!*name || !strcmp(name, ".") || !strcmp(name, ".."))
		return -EINVAL;
	if (!slash)
		snprintf(parent, sizeof(parent), ".");
	else if (slash == parent)
		parent[1] = '\0';
	else
		parent[slash - parent] = '\0';
	fd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

int workdir_remove(const char *path)
{
	char name[256];
	int parent_fd, ret;

	if (!path || !*path)
		return 0;
	parent_fd = open_parent(path, name, sizeof(name));
	if (parent_fd < 0)
		return parent_fd;
	ret = workdir_remove_at(parent_fd, name, NULL);
	close(parent_fd);
	return ret;
}

unsigned workdir_name_left(const char *path, FILE *out, unsigned max)
{
	char name[256];
	int parent_fd;
	unsigned named;

	parent_fd = open_parent(path, name, sizeof(name));
	if (parent_fd < 0)
		return 0;
	named = workdir_name_left_at(parent_fd, name, path, out, max);
	close(parent_fd);
	return named;
}

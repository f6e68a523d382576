// SPDX-License-Identifier: BSD-2-Clause
/*
 * faultfs: a passthrough FUSE filesystem for the tests only. It makes the
 * operations it is told to fail (EIO, ENOSPC, ...), come up short or run
 * late, so that the tests can show what clyde does when the device errs:
 * this kernel has FUSE but no device-mapper (dm-error, dm-flakey).
 *
 *   faultfs [-d] [-v] --backing DIR [--control FILE] [--stats FILE]
 *           [--log FILE] [--rule RULE]... MOUNTPOINT
 *
 * It runs in the foreground, single-threaded (a delay holds up every
 * operation behind it), until SIGTERM, SIGINT, SIGHUP or umount. -d is
 * libfuse's debug output, -v one line on stderr per rule loaded and per
 * fault fired.
 *
 * A rule is a comma-separated list of key=value:
 *   op=OP       required: stat (getattr, which also answers every lookup),
 *               access, readlink, readdir, mkdir, rmdir, symlink, unlink,
 *               rename, link, chmod, chown, truncate, utimens, create, open,
 *               read, write, flush (close(2) sees it), fsync (fsync and
 *               fdatasync), fsyncdir, statfs, fallocate
 *   err=E       EIO (default), ENOSPC, EROFS, EDQUOT, EFBIG, EACCES, EPERM,
 *               ENOENT, ENOMEM, EAGAIN; short (read or write: transfer half
 *               the bytes asked, at least 1); delay (sleep delay_us, then do
 *               the operation)
 *   path=GLOB   fnmatch(3) against the path below the mount point, without
 *               the leading '/' ("" is the root), '*' matching '/' too;
 *               rename and link match either path; default every path.
 *               A file unlinked while open keeps the path it was opened as.
 *   off=S-E     read and write only: the request overlaps [S, E); S and E
 *               take K, M, G (binary); E may be left out (to the end)
 *   after=N     fire from the (N+1)th matching operation on (default 0)
 *   count=N     fire N times (default 1), 0: for ever
 *   delay_us=N  sleep N us before the operation (needed by err=delay; with
 *               an error, sleep and then fail)
 * Each rule counts the operations it matches, whether or not another rule
 * fired on them; the first rule (command line ones, then the control
 * file's, in order) that is due fires.
 *
 * The control file holds one rule a line ('#' starts a comment). faultfs
 * stats it before every operation and reads it again when it changed
 * (inode, size, mtime or ctime), replacing the rules it had from it, with
 * fresh counts; a missing file is no rules. Write it elsewhere and
 * rename(2) it into place, or faultfs may read it half written. Lines it
 * cannot parse are said on stderr and counted; the others still load.
 *
 * The stats file (written when mounted, after every fault fired, and at
 * exit, each time to FILE.tmp renamed over FILE):
 *   ops OP N               every operation kind, faulted ones included
 *   faults OP ERR N        the faults fired, where N > 0
 *   delay_us_total N       the delay_us of every rule fired
 *   control_loads N        times the control file was read
 *   control_errors N       its lines that were refused
 * The log (--log) has a line for every read and write, as it ends:
 *   OP OFF LEN START_NS END_NS RESULT PATH
 * with OP read or write, START_NS when faultfs took the request and END_NS
 * when it finished it (its delay included), both CLOCK_MONOTONIC, RESULT
 * the bytes moved or -errno: the tests hold clyde's time series to it (a
 * pause shows as a time in which faultfs finished nothing).
 * No such file may lie under the mount point: faultfs would wait on itself.
 *
 * Every file is opened with FUSE's direct_io, so no page cache above
 * faultfs hides a fault, and attributes and entries are never cached.
 * Only root (who mounts it) may use the mount.
 */
#include "config.h"

#define FUSE_USE_VERSION 31

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <fuse.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

enum op {
	OP_STAT, OP_ACCESS, OP_READLINK, OP_READDIR, OP_MKDIR, OP_RMDIR, OP_SYMLINK,
	OP_UNLINK, OP_RENAME, OP_LINK, OP_CHMOD, OP_CHOWN, OP_TRUNCATE, OP_UTIMENS,
	OP_CREATE, OP_OPEN, OP_READ, OP_WRITE, OP_FLUSH, OP_RELEASE, OP_FSYNC,
	OP_FSYNCDIR, OP_STATFS, OP_FALLOCATE, OP_COUNT
};

static const char *const op_names[OP_COUNT] = {
	"stat", "access", "readlink", "readdir", "mkdir", "rmdir", "symlink",
	"unlink", "rename", "link", "chmod", "chown", "truncate", "utimens",
	"create", "open", "read", "write", "flush", "release", "fsync",
	"fsyncdir", "statfs", "fallocate",
};

/* What a rule does: an errno to return, or one of these two. */
#define ERR_SHORT (-1)
#define ERR_DELAY (-2)

static const struct {
	const char *name;
	int err;
} errs[] = {
	{ "EIO", EIO }, { "ENOSPC", ENOSPC }, { "EROFS", EROFS }, { "EDQUOT", EDQUOT },
	{ "EFBIG", EFBIG }, { "EACCES", EACCES }, { "EPERM", EPERM }, { "ENOENT", ENOENT },
	{ "ENOMEM", ENOMEM }, { "EAGAIN", EAGAIN }, { "short", ERR_SHORT },
	{ "delay", ERR_DELAY },
};
#define N_ERRS (sizeof(errs) / sizeof(errs[0]))

struct rule {
	enum op op;
	unsigned int err;	/* index into errs[] */
	char *glob;		/* NULL: every path */
	bool has_off;
	uint64_t off_start, off_end;
	uint64_t after, count, delay_us;
	uint64_t seen, fired;
	char *text;		/* as given, for -v */
};

struct rules {
	struct rule *v;
	size_t n;
};

/* An open file: the path it was opened as outlives an unlink (hard_remove). */
struct ffile {
	int fd;
	char path[];
};

static int backing = -1;
static const char *control_path;
static const char *stats_path;
static FILE *io_log;
static bool verbose;

static struct rules cmd_rules, ctl_rules;
static struct stat ctl_st;
static bool ctl_present;

static uint64_t op_count[OP_COUNT];
static uint64_t fault_count[OP_COUNT][N_ERRS];
static uint64_t delay_us_total;
static uint64_t control_loads, control_errors;

/* The backing directory's name for a FUSE path ("/a/b" is "a/b"). */
static const char *rel(const char *path)
{
	return path[0] == '/' && path[1] ? path + 1 : ".";
}

/* For matching: the root is "" rather than ".". */
static const char *match_path(const char *path)
{
	if (!path)
		return "";
	return path[0] == '/' ? path + 1 : path;
}

static int parse_u64(const char *s, bool suffix, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -errno;
	if (suffix && *end) {
		unsigned int shift = 0;

		switch (*end) {
		case 'k':
		case 'K':
			shift = 10;
			break;
		case 'm':
		case 'M':
			shift = 20;
			break;
		case 'g':
		case 'G':
			shift = 30;
			break;
		default:
			return -EINVAL;
		}
		if (v > (UINT64_MAX >> shift))
			return -ERANGE;
		v <<= shift;
		end++;
	}
	if (*end)
		return -EINVAL;
	*out = v;
	return 0;
}

static void rule_free(struct rule *r)
{
	free(r->glob);
	free(r->text);
}

static void rules_clear(struct rules *rs)
{
	for (size_t i = 0; i < rs->n; i++)
		rule_free(&rs->v[i]);
	free(rs->v);
	rs->v = NULL;
	rs->n = 0;
}

/* One key=value of a rule; err says what is wrong with it. */
static int rule_key(struct rule *r, char *kv, bool *have_op, const char **err)
{
	char *val = strchr(kv, '=');
	size_t i;

	if (!val) {
		*err = "not key=value";
		return -EINVAL;
	}
	*val++ = '\0';
	if (!strcmp(kv, "op")) {
		for (i = 0; i < OP_COUNT && strcmp(val, op_names[i]); i++)
			;
		if (i == OP_COUNT) {
			*err = "unknown op";
			return -EINVAL;
		}
		r->op = (enum op)i;
		*have_op = true;
	} else if (!strcmp(kv, "err")) {
		for (i = 0; i < N_ERRS && strcmp(val, errs[i].name); i++)
			;
		if (i == N_ERRS) {
			*err = "unknown err";
			return -EINVAL;
		}
		r->err = (unsigned int)i;
	} else if (!strcmp(kv, "path")) {
		free(r->glob);
		r->glob = strdup(val);
		if (!r->glob)
			return -ENOMEM;
	} else if (!strcmp(kv, "off")) {
		char *dash = strchr(val, '-');

		*err = "off wants START-END";
		if (!dash)
			return -EINVAL;
		*dash = '\0';
		if (parse_u64(val, true, &r->off_start))
			return -EINVAL;
		r->off_end = UINT64_MAX;
		if (dash[1] && parse_u64(dash + 1, true, &r->off_end))
			return -EINVAL;
		if (r->off_end <= r->off_start) {
			*err = "off: END must be past START";
			return -EINVAL;
		}
		r->has_off = true;
	} else if (!strcmp(kv, "after")) {
		*err = "after wants a number";
		return parse_u64(val, false, &r->after);
	} else if (!strcmp(kv, "count")) {
		*err = "count wants a number";
		return parse_u64(val, false, &r->count);
	} else if (!strcmp(kv, "delay_us")) {
		*err = "delay_us wants a number";
		return parse_u64(val, false, &r->delay_us);
	} else {
		*err = "unknown key";
		return -EINVAL;
	}
	return 0;
}

/* Parse TEXT into R; on -EINVAL, *err says why. */
static int rule_parse(const char *text, struct rule *r, const char **err)
{
	char *copy, *kv, *save = NULL;
	bool have_op = false;
	int ret = 0;

	memset(r, 0, sizeof(*r));
	r->count = 1;
	r->text = strdup(text);
	copy = strdup(text);
	if (!r->text || !copy) {
		ret = -ENOMEM;
		goto out;
	}
	for (kv = strtok_r(copy, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
		ret = rule_key(r, kv, &have_op, err);
		if (ret)
			goto out;
	}
	ret = -EINVAL;
	if (!have_op)
		*err = "no op=";
	else if (r->op == OP_RELEASE)
		*err = "the kernel ignores what release returns";
	else if (errs[r->err].err == ERR_SHORT && r->op != OP_READ && r->op != OP_WRITE)
		*err = "err=short is for read and write";
	else if (r->has_off && r->op != OP_READ && r->op != OP_WRITE)
		*err = "off= is for read and write";
	else if (errs[r->err].err == ERR_DELAY && !r->delay_us)
		*err = "err=delay needs delay_us=";
	else
		ret = 0;
out:
	free(copy);
	if (ret == -ENOMEM)
		*err = strerror(ENOMEM);
	if (ret)
		rule_free(r);
	return ret;
}

static int rules_add(struct rules *rs, const struct rule *r)
{
	struct rule *v = realloc(rs->v, (rs->n + 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	rs->v = v;
	rs->v[rs->n++] = *r;
	if (verbose)
		fprintf(stderr, "faultfs: rule %s\n", r->text);
	return 0;
}

/* Whether R is about this operation; it counts those it is. */
static bool rule_matches(struct rule *r, enum op op, const char *p1, const char *p2,
			 uint64_t off, uint64_t len)
{
	if (r->op != op)
		return false;
	if (r->glob && fnmatch(r->glob, match_path(p1), 0) &&
	    (!p2 || fnmatch(r->glob, match_path(p2), 0)))
		return false;
	if (r->has_off && (off >= r->off_end || off + (len ? len : 1) <= r->off_start))
		return false;
	r->seen++;
	return true;
}

static bool rule_due(const struct rule *r)
{
	return r->seen > r->after && (!r->count || r->fired < r->count);
}

/*
 * Written to a temporary file renamed into place, so that a test never
 * reads half of it. Failing to write it is said, not fatal: the faults
 * still fire.
 */
static void stats_write(void)
{
	char tmp[PATH_MAX];
	FILE *f;
	int bad;

	if (!stats_path)
		return;
	if (snprintf(tmp, sizeof(tmp), "%s.tmp", stats_path) >= (int)sizeof(tmp)) {
		fprintf(stderr, "faultfs: %s: name too long\n", stats_path);
		return;
	}
	f = fopen(tmp, "w");
	if (!f) {
		fprintf(stderr, "faultfs: %s: %s\n", tmp, strerror(errno));
		return;
	}
	for (unsigned int i = 0; i < OP_COUNT; i++)
		fprintf(f, "ops %s %" PRIu64 "\n", op_names[i], op_count[i]);
	for (unsigned int i = 0; i < OP_COUNT; i++)
		for (unsigned int e = 0; e < N_ERRS; e++)
			if (fault_count[i][e])
				fprintf(f, "faults %s %s %" PRIu64 "\n", op_names[i], errs[e].name,
					fault_count[i][e]);
	fprintf(f, "delay_us_total %" PRIu64 "\n", delay_us_total);
	fprintf(f, "control_loads %" PRIu64 "\n", control_loads);
	fprintf(f, "control_errors %" PRIu64 "\n", control_errors);
	bad = ferror(f);
	if (fclose(f) || bad || rename(tmp, stats_path)) {
		fprintf(stderr, "faultfs: %s: %s\n", stats_path, strerror(errno ? errno : EIO));
		unlink(tmp);
	}
}

static void control_load(void)
{
	struct rules rs = { 0 };
	char *line = NULL;
	size_t cap = 0;
	unsigned int lineno = 0;
	FILE *f;

	rules_clear(&ctl_rules);
	f = fopen(control_path, "r");
	if (!f) {
		if (errno != ENOENT)
			fprintf(stderr, "faultfs: %s: %s\n", control_path, strerror(errno));
		return;
	}
	control_loads++;
	while (getline(&line, &cap, f) >= 0) {
		char *s = line, *e;
		const char *why = "";
		struct rule r;
		int ret;

		lineno++;
		e = strchr(s, '#');
		if (e)
			*e = '\0';
		while (*s == ' ' || *s == '\t')
			s++;
		e = s + strlen(s);
		while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' || e[-1] == '\r'))
			*--e = '\0';
		if (!*s)
			continue;
		ret = rule_parse(s, &r, &why);
		if (!ret) {
			ret = rules_add(&rs, &r);
			if (ret)
				rule_free(&r);
		}
		if (ret) {
			fprintf(stderr, "faultfs: %s:%u: %s: %s\n", control_path, lineno, s, why);
			control_errors++;
		}
	}
	free(line);
	fclose(f);
	ctl_rules = rs;
}

/* A cheap stat before every operation: read the control file when it changed. */
static void control_check(void)
{
	struct stat st;
	bool present;

	if (!control_path)
		return;
	present = !stat(control_path, &st);
	if (present == ctl_present &&
	    (!present || (st.st_ino == ctl_st.st_ino && st.st_dev == ctl_st.st_dev &&
			  st.st_size == ctl_st.st_size &&
			  st.st_mtim.tv_sec == ctl_st.st_mtim.tv_sec &&
			  st.st_mtim.tv_nsec == ctl_st.st_mtim.tv_nsec &&
			  st.st_ctim.tv_sec == ctl_st.st_ctim.tv_sec &&
			  st.st_ctim.tv_nsec == ctl_st.st_ctim.tv_nsec)))
		return;
	ctl_present = present;
	if (present)
		ctl_st = st;
	control_load();
}

static void sleep_us(uint64_t us)
{
	struct timespec ts = { .tv_sec = (time_t)(us / 1000000),
			       .tv_nsec = (long)(us % 1000000) * 1000 };

	/* a signal (SIGTERM) cuts it short: faultfs is going anyway */
	nanosleep(&ts, NULL);
}

/*
 * Every operation starts here: count it, and tell it what to do. Returns
 * 0 (go on), 1 (read or write only: transfer half) or -errno (fail so).
 * P2 is rename's and link's second path; OFF and LEN the read's or write's
 * range.
 */
static int fault(enum op op, const char *p1, const char *p2, uint64_t off, uint64_t len)
{
	struct rules *sets[2] = { &cmd_rules, &ctl_rules };
	struct rule *hit = NULL;
	int e;

	control_check();
	op_count[op]++;
	for (unsigned int s = 0; s < 2; s++)
		for (size_t i = 0; i < sets[s]->n; i++) {
			struct rule *r = &sets[s]->v[i];

			if (rule_matches(r, op, p1, p2, off, len) && !hit && rule_due(r))
				hit = r;
		}
	if (!hit)
		return 0;
	hit->fired++;
	fault_count[op][hit->err]++;
	delay_us_total += hit->delay_us;
	if (verbose)
		fprintf(stderr, "faultfs: %s %s%s%s: %s (%s)\n", op_names[op], match_path(p1),
			p2 ? " " : "", p2 ? match_path(p2) : "", errs[hit->err].name, hit->text);
	/* before the delay: a test waiting on the stats sees the fault at once */
	stats_write();
	if (hit->delay_us)
		sleep_us(hit->delay_us);
	e = errs[hit->err].err;
	if (e == ERR_SHORT)
		return 1;
	if (e == ERR_DELAY)
		return 0;
	return -e;
}

static struct ffile *ff_of(const struct fuse_file_info *fi)
{
	return (struct ffile *)(uintptr_t)fi->fh;
}

/*
 * The open file an attribute call came through, if any: the kernel also
 * names the handle of a directory (fchmod, futimens on one), which has
 * none here (there is no opendir).
 */
static struct ffile *ff_any(const struct fuse_file_info *fi)
{
	return fi ? ff_of(fi) : NULL;
}

/* The path an operation on an open file is about: unlinked ones have none. */
static const char *fpath(const char *path, const struct fuse_file_info *fi)
{
	const struct ffile *ff = ff_any(fi);

	return path ? path : ff ? ff->path : NULL;
}

static void *ffs_init(struct fuse_conn_info *conn, struct fuse_config *cfg)
{
	(void)conn;
	/* every question goes to faultfs, so every one can fail */
	cfg->entry_timeout = 0;
	cfg->attr_timeout = 0;
	cfg->negative_timeout = 0;
	cfg->direct_io = 1;
	cfg->use_ino = 1;
	/* unlink unlinks, as a disk would, rather than hide an open file */
	cfg->hard_remove = 1;
	return NULL;
}

static int ffs_getattr(const char *path, struct stat *st, struct fuse_file_info *fi)
{
	int ret = fault(OP_STAT, fpath(path, fi), NULL, 0, 0);

	if (ret)
		return ret;
	if (ff_any(fi))
		ret = fstat(ff_of(fi)->fd, st);
	else
		ret = fstatat(backing, rel(path), st, AT_SYMLINK_NOFOLLOW);
	return ret ? -errno : 0;
}

static int ffs_access(const char *path, int mask)
{
	int ret = fault(OP_ACCESS, path, NULL, 0, 0);

	if (ret)
		return ret;
	return faccessat(backing, rel(path), mask, 0) ? -errno : 0;
}

static int ffs_readlink(const char *path, char *buf, size_t size)
{
	int ret = fault(OP_READLINK, path, NULL, 0, 0);
	ssize_t n;

	if (ret)
		return ret;
	if (!size)
		return -EINVAL;
	n = readlinkat(backing, rel(path), buf, size - 1);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return 0;
}

/*
 * The whole directory in one call, every offset 0: libfuse keeps the
 * listing, so one readdir is one listing whatever its size.
 */
static int ffs_readdir(const char *path, void *buf, fuse_fill_dir_t fill, off_t off,
		       struct fuse_file_info *fi, enum fuse_readdir_flags flags)
{
	int ret = fault(OP_READDIR, path, NULL, 0, 0);
	struct dirent *de;
	DIR *d;
	int fd;

	(void)off;
	(void)fi;
	(void)flags;
	if (ret)
		return ret;
	fd = openat(backing, rel(path), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	d = fdopendir(fd);
	if (!d) {
		ret = -errno;
		close(fd);
		return ret;
	}
	errno = 0;
	while ((de = readdir(d))) {
		struct stat st = { .st_ino = de->d_ino, .st_mode = (mode_t)DTTOIF(de->d_type) };

		if (fill(buf, de->d_name, &st, 0, 0))
			break;
		errno = 0;
	}
	ret = -errno;
	closedir(d);
	return ret;
}

static int ffs_mkdir(const char *path, mode_t mode)
{
	int ret = fault(OP_MKDIR, path, NULL, 0, 0);

	if (ret)
		return ret;
	return mkdirat(backing, rel(path), mode) ? -errno : 0;
}

static int ffs_rmdir(const char *path)
{
	int ret = fault(OP_RMDIR, path, NULL, 0, 0);

	if (ret)
		return ret;
	return unlinkat(backing, rel(path), AT_REMOVEDIR) ? -errno : 0;
}

static int ffs_symlink(const char *target, const char *path)
{
	int ret = fault(OP_SYMLINK, path, NULL, 0, 0);

	if (ret)
		return ret;
	return symlinkat(target, backing, rel(path)) ? -errno : 0;
}

static int ffs_unlink(const char *path)
{
	int ret = fault(OP_UNLINK, path, NULL, 0, 0);

	if (ret)
		return ret;
	return unlinkat(backing, rel(path), 0) ? -errno : 0;
}

static int ffs_rename(const char *from, const char *to, unsigned int flags)
{
	int ret = fault(OP_RENAME, from, to, 0, 0);

	if (ret)
		return ret;
	if (flags)
		ret = renameat2(backing, rel(from), backing, rel(to), flags);
	else
		ret = renameat(backing, rel(from), backing, rel(to));
	return ret ? -errno : 0;
}

static int ffs_link(const char *from, const char *to)
{
	int ret = fault(OP_LINK, from, to, 0, 0);

	if (ret)
		return ret;
	return linkat(backing, rel(from), backing, rel(to), 0) ? -errno : 0;
}

static int ffs_chmod(const char *path, mode_t mode, struct fuse_file_info *fi)
{
	int ret = fault(OP_CHMOD, fpath(path, fi), NULL, 0, 0);

	if (ret)
		return ret;
	if (ff_any(fi))
		ret = fchmod(ff_of(fi)->fd, mode);
	else
		ret = fchmodat(backing, rel(path), mode, 0);
	return ret ? -errno : 0;
}

static int ffs_chown(const char *path, uid_t uid, gid_t gid, struct fuse_file_info *fi)
{
	int ret = fault(OP_CHOWN, fpath(path, fi), NULL, 0, 0);

	if (ret)
		return ret;
	if (ff_any(fi))
		ret = fchown(ff_of(fi)->fd, uid, gid);
	else
		ret = fchownat(backing, rel(path), uid, gid, AT_SYMLINK_NOFOLLOW);
	return ret ? -errno : 0;
}

static int ffs_truncate(const char *path, off_t size, struct fuse_file_info *fi)
{
	int ret = fault(OP_TRUNCATE, fpath(path, fi), NULL, 0, 0);
	int fd;

	if (ret)
		return ret;
	if (ff_any(fi))
		return ftruncate(ff_of(fi)->fd, size) ? -errno : 0;
	fd = openat(backing, rel(path), O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return -errno;
	ret = ftruncate(fd, size) ? -errno : 0;
	close(fd);
	return ret;
}

static int ffs_utimens(const char *path, const struct timespec tv[2], struct fuse_file_info *fi)
{
	int ret = fault(OP_UTIMENS, fpath(path, fi), NULL, 0, 0);

	if (ret)
		return ret;
	if (ff_any(fi))
		ret = futimens(ff_of(fi)->fd, tv);
	else
		ret = utimensat(backing, rel(path), tv, AT_SYMLINK_NOFOLLOW);
	return ret ? -errno : 0;
}

/*
 * Open the backing file for PATH. O_DIRECT is not passed on: libfuse's
 * buffers are not aligned for it, and FUSE's direct_io already keeps the
 * page cache above faultfs out of the way, which is what the tests need.
 */
static int ff_open(const char *path, int flags, mode_t mode, struct fuse_file_info *fi)
{
	size_t len = strlen(path) + 1;
	struct ffile *ff = malloc(sizeof(*ff) + len);

	if (!ff)
		return -ENOMEM;
	ff->fd = openat(backing, rel(path), (flags & ~O_DIRECT) | O_CLOEXEC, mode);
	if (ff->fd < 0) {
		int ret = -errno;

		free(ff);
		return ret;
	}
	memcpy(ff->path, path, len);
	fi->fh = (uint64_t)(uintptr_t)ff;
	fi->direct_io = 1;
	fi->keep_cache = 0;
	return 0;
}

static int ffs_create(const char *path, mode_t mode, struct fuse_file_info *fi)
{
	int ret = fault(OP_CREATE, path, NULL, 0, 0);

	if (ret)
		return ret;
	return ff_open(path, fi->flags | O_CREAT, mode, fi);
}

static int ffs_open(const char *path, struct fuse_file_info *fi)
{
	int ret = fault(OP_OPEN, path, NULL, 0, 0);

	if (ret)
		return ret;
	return ff_open(path, fi->flags, 0, fi);
}

/* Half the bytes asked, at least one. */
static size_t short_size(size_t size)
{
	return size > 1 ? size / 2 : size;
}

static uint64_t monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* One line of --log for a read or write taken at START_NS that returned RET. */
static int log_io(enum op op, const char *path, off_t off, size_t size, uint64_t start_ns,
		  int ret)
{
	if (io_log)
		fprintf(io_log, "%s %jd %zu %" PRIu64 " %" PRIu64 " %d %s\n", op_names[op],
			(intmax_t)off, size, start_ns, monotonic_ns(), ret, path ? path : "-");
	return ret;
}

static int ffs_read(const char *path, char *buf, size_t size, off_t off,
		    struct fuse_file_info *fi)
{
	uint64_t start_ns = monotonic_ns();
	const char *p = fpath(path, fi);
	int ret = fault(OP_READ, p, NULL, (uint64_t)off, size);
	ssize_t n;

	if (ret < 0)
		return log_io(OP_READ, p, off, size, start_ns, ret);
	if (ret == 1)
		size = short_size(size);
	n = pread(ff_of(fi)->fd, buf, size, off);
	return log_io(OP_READ, p, off, size, start_ns, n < 0 ? -errno : (int)n);
}

static int ffs_write(const char *path, const char *buf, size_t size, off_t off,
		     struct fuse_file_info *fi)
{
	uint64_t start_ns = monotonic_ns();
	const char *p = fpath(path, fi);
	int ret = fault(OP_WRITE, p, NULL, (uint64_t)off, size);
	ssize_t n;

	if (ret < 0)
		return log_io(OP_WRITE, p, off, size, start_ns, ret);
	if (ret == 1)
		size = short_size(size);
	n = pwrite(ff_of(fi)->fd, buf, size, off);
	return log_io(OP_WRITE, p, off, size, start_ns, n < 0 ? -errno : (int)n);
}

static int ffs_statfs(const char *path, struct statvfs *sv)
{
	int ret = fault(OP_STATFS, path, NULL, 0, 0);

	if (ret)
		return ret;
	return fstatvfs(backing, sv) ? -errno : 0;
}

/* Nothing to flush (writes went straight through): here so close(2) can fail. */
static int ffs_flush(const char *path, struct fuse_file_info *fi)
{
	return fault(OP_FLUSH, fpath(path, fi), NULL, 0, 0);
}

static int ffs_release(const char *path, struct fuse_file_info *fi)
{
	struct ffile *ff = ff_of(fi);

	/* no rule is on release (the kernel ignores its result): only counted */
	fault(OP_RELEASE, fpath(path, fi), NULL, 0, 0);
	close(ff->fd);
	free(ff);
	return 0;
}

static int ffs_fsync(const char *path, int datasync, struct fuse_file_info *fi)
{
	int ret = fault(OP_FSYNC, fpath(path, fi), NULL, 0, 0);
	int fd = ff_of(fi)->fd;

	if (ret)
		return ret;
	return (datasync ? fdatasync(fd) : fsync(fd)) ? -errno : 0;
}

static int ffs_fsyncdir(const char *path, int datasync, struct fuse_file_info *fi)
{
	int ret = fault(OP_FSYNCDIR, path, NULL, 0, 0);
	int fd;

	(void)fi;
	if (ret)
		return ret;
	fd = openat(backing, rel(path), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = (datasync ? fdatasync(fd) : fsync(fd)) ? -errno : 0;
	close(fd);
	return ret;
}

static int ffs_fallocate(const char *path, int mode, off_t off, off_t len,
			 struct fuse_file_info *fi)
{
	int ret = fault(OP_FALLOCATE, fpath(path, fi), NULL, (uint64_t)off, (uint64_t)len);

	if (ret)
		return ret;
	return fallocate(ff_of(fi)->fd, mode, off, len) ? -errno : 0;
}

static const struct fuse_operations ffs_ops = {
	.init = ffs_init,
	.getattr = ffs_getattr,
	.access = ffs_access,
	.readlink = ffs_readlink,
	.readdir = ffs_readdir,
	.mkdir = ffs_mkdir,
	.rmdir = ffs_rmdir,
	.symlink = ffs_symlink,
	.unlink = ffs_unlink,
	.rename = ffs_rename,
	.link = ffs_link,
	.chmod = ffs_chmod,
	.chown = ffs_chown,
	.truncate = ffs_truncate,
	.utimens = ffs_utimens,
	.create = ffs_create,
	.open = ffs_open,
	.read = ffs_read,
	.write = ffs_write,
	.statfs = ffs_statfs,
	.flush = ffs_flush,
	.release = ffs_release,
	.fsync = ffs_fsync,
	.fsyncdir = ffs_fsyncdir,
	.fallocate = ffs_fallocate,
};

static void usage(FILE *f)
{
	fprintf(f, "usage: faultfs [-d] [-v] --backing DIR [--control FILE] [--stats FILE]\n"
		   "               [--log FILE] [--rule RULE]... MOUNTPOINT\n"
		   "RULE: op=OP[,err=EIO|ENOSPC|EROFS|...|short|delay][,path=GLOB]"
		   "[,off=START-END][,after=N][,count=N][,delay_us=N]\n"
		   "(tests/tools/faultfs.c says more)\n");
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "backing", required_argument, NULL, 'b' },
		{ "control", required_argument, NULL, 'c' },
		{ "stats", required_argument, NULL, 's' },
		{ "log", required_argument, NULL, 'l' },
		{ "rule", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct fuse_args args = FUSE_ARGS_INIT(0, NULL);
	const char *backing_dir = NULL, *log_path = NULL, *mnt;
	struct fuse_session *se;
	struct fuse *fuse;
	bool debug = false;
	int c, ret = 1;

	while ((c = getopt_long(argc, argv, "dvh", longopts, NULL)) != -1) {
		struct rule r;
		const char *why = "";

		switch (c) {
		case 'd':
			debug = true;
			break;
		case 'v':
			verbose = true;
			break;
		case 'b':
			backing_dir = optarg;
			break;
		case 'c':
			control_path = optarg;
			break;
		case 's':
			stats_path = optarg;
			break;
		case 'l':
			log_path = optarg;
			break;
		case 'r':
			if (rule_parse(optarg, &r, &why) || rules_add(&cmd_rules, &r)) {
				fprintf(stderr, "faultfs: --rule %s: %s\n", optarg, why);
				return 2;
			}
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (!backing_dir || optind != argc - 1) {
		usage(stderr);
		return 2;
	}
	mnt = argv[optind];
	backing = open(backing_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (backing < 0) {
		fprintf(stderr, "faultfs: %s: %s\n", backing_dir, strerror(errno));
		return 1;
	}
	if (log_path) {
		/* a line at a time: what was logged survives a faultfs killed at umount */
		io_log = fopen(log_path, "we");
		if (!io_log || setvbuf(io_log, NULL, _IOLBF, 0)) {
			fprintf(stderr, "faultfs: %s: %s\n", log_path, strerror(errno));
			close(backing);
			return 1;
		}
	}
	/* the modes asked for are already masked by the caller's umask */
	umask(0);

	if (fuse_opt_add_arg(&args, argv[0]) ||
	    (debug && fuse_opt_add_arg(&args, "-d")) ||
	    fuse_opt_add_arg(&args, "-o") ||
	    fuse_opt_add_arg(&args, "fsname=faultfs,subtype=faultfs")) {
		fprintf(stderr, "faultfs: %s\n", strerror(ENOMEM));
		return 1;
	}
	fuse = fuse_new(&args, &ffs_ops, sizeof(ffs_ops), NULL);
	if (!fuse)
		goto out_args;
	if (fuse_mount(fuse, mnt))
		goto out_fuse;
	se = fuse_get_session(fuse);
	if (fuse_set_signal_handlers(se))
		goto out_unmount;
	control_check();
	/* the stats file's appearing tells a test the mount is there */
	stats_write();
	/* one thread: the counts need no lock, and a delay stalls what a disk's would */
	/* a signal's number when one ended it, which is a clean end too */
	ret = fuse_loop(fuse) < 0 ? 1 : 0;
	fuse_remove_signal_handlers(se);
out_unmount:
	fuse_unmount(fuse);
	stats_write();
out_fuse:
	fuse_destroy(fuse);
out_args:
	fuse_opt_free_args(&args);
	rules_clear(&cmd_rules);
	rules_clear(&ctl_rules);
	close(backing);
	if (io_log && fclose(io_log)) {
		fprintf(stderr, "faultfs: %s: %s\n", log_path, strerror(errno));
		ret = 1;
	}
	return ret;
}

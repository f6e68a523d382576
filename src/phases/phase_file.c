// SPDX-License-Identifier: BSD-2-Clause
/*
 * The small-file tests: create number*1024 files (or hard links, or
 * symlinks) in index order, stat them (reading their data when they have
 * any), delete them; first with sequential names in directory order, then
 * with random-looking names in a shuffled order. Create and delete end
 * with a sync that waits, inside their timing: syncfs, or where there is
 * none, fsync of what they changed.
 */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/rng.h"
#include "lib/signals.h"
#include "lib/timing.h"
#include "phases/bench.h"
#include "phases/pattern.h"
#include "phases/stonewall.h"
#include "sys/compat.h"

/*
 * As bonnie++: the index in ten hex digits and 0 to 12 random characters,
 * the random characters first in the random phases; then NUL.
 */
#define NAME_DIGITS	10
#define NAME_LEN	24
#define NAME_RANDOM_MAX	12

struct file_set {
	uint32_t count;
	uint32_t dirs;
	uint32_t per_dir;	/* sequential layout: files per directory */
	bool random;
	char (*names)[NAME_LEN];
	uint32_t *order;	/* random layout: stat and delete order */
	uint64_t *sizes;	/* --verify: each file's size as written */
	int *dirfds;
	char link_target[WORKPATH_MAX];
};

static const char name_chars[] =
	"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

static void file_set_free(struct file_set *fs)
{
	if (!fs)
		return;
	for (uint32_t d = 0; fs->dirfds && d < fs->dirs; d++)
		if (fs->dirfds[d] >= 0)
			close(fs->dirfds[d]);
	free(fs->dirfds);
	free(fs->names);
	free(fs->order);
	free(fs->sizes);
	free(fs);
}

static uint32_t dir_of(const struct file_set *fs, uint32_t i)
{
	return fs->random ? i % fs->dirs : i / fs->per_dir;
}

static void make_name(char *out, struct rng *r, uint32_t index, bool random)
{
	char extra[NAME_RANDOM_MAX + 1];
	unsigned len = (unsigned)rng_below(r, NAME_RANDOM_MAX + 1);

	for (unsigned i = 0; i < len; i++)
		extra[i] = name_chars[rng_below(r, sizeof(name_chars) - 1)];
	extra[len] = '\0';
	if (random)
		snprintf(out, NAME_LEN, "%s%010x", extra, index);
	else
		snprintf(out, NAME_LEN, "%010x%s", index, extra);
}

/* Names, directories and (random layout) the shuffled order; untimed. */
static int file_set_make(struct worker *w, bool random, struct file_set **out)
{
	const struct bench *b = w->b;
	const struct run_plan *p = b->plan;
	struct file_set *fs = calloc(1, sizeof(*fs));
	struct rng r;
	char path[WORKPATH_MAX + 16];
	int ret = 0;

	if (!fs)
		return -ENOMEM;
	fs->count = p->files * FILES_UNIT;
	/* a time box cut the sequential create: both layouts test as many files */
	if (random && w->files_made && w->files_made < fs->count)
		fs->count = w->files_made;
	fs->dirs = p->file_dirs;
	fs->per_dir = (fs->count + fs->dirs - 1) / fs->dirs;
	fs->random = random;
	fs->names = calloc(fs->count, NAME_LEN);
	fs->dirfds = malloc(fs->dirs * sizeof(*fs->dirfds));
	if (random)
		fs->order = malloc(fs->count * sizeof(*fs->order));
	if (p->verify)
		fs->sizes = calloc(fs->count, sizeof(*fs->sizes));
	if (!fs->names || !fs->dirfds || (random && !fs->order) || (p->verify && !fs->sizes)) {
		ret = -ENOMEM;
		goto fail;
	}
	rng_seed(&r, ((uint64_t)b->seed << 32) ^ ((uint64_t)random << 31) ^ w->index);
	for (uint32_t i = 0; i < fs->count; i++)
		make_name(fs->names[i], &r, i, random);
	if (random) {
		for (uint32_t i = 0; i < fs->count; i++)
			fs->order[i] = i;
		for (uint32_t i = fs->count - 1; i > 0; i--) {
			uint32_t j = (uint32_t)rng_below(&r, (uint64_t)i + 1), t = fs->order[i];

			fs->order[i] = fs->order[j];
			fs->order[j] = t;
		}
	}
	for (uint32_t d = 0; d < fs->dirs; d++)
		fs->dirfds[d] = -1;
	if (mkdir(w->files_dir, 0700) && errno != EEXIST) {
		ret = -errno;
		goto fail;
	}
	for (uint32_t d = 0; d < fs->dirs; d++) {
		if (fs->dirs == 1)
			snprintf(path, sizeof(path), "%s", w->files_dir);
		else
			snprintf(path, sizeof(path), "%s/%05u", w->files_dir, d);
		if (fs->dirs > 1 && mkdir(path, 0700) && errno != EEXIST) {
			ret = -errno;
			goto fail;
		}
		fs->dirfds[d] = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fs->dirfds[d] < 0) {
			ret = -errno;
			goto fail;
		}
	}
	snprintf(fs->link_target, sizeof(fs->link_target), "%s/link-target.%u",
		 b->workdir, w->index);
	*out = fs;
	return 0;

fail:
	file_set_free(fs);
	return ret;
}

/*
 * A create cut at its time box made the first made files: the set is
 * those, and the shuffled order keeps its order over them alone.
 */
static void file_set_cut(struct file_set *fs, uint32_t made)
{
	uint32_t k = 0;

	for (uint32_t j = 0; fs->order && j < fs->count; j++)
		if (fs->order[j] < made)
			fs->order[k++] = fs->order[j];
	fs->count = made;
}

/*
 * --verify: each file's data are a stream keyed by the run, its index and
 * its content version: the create pass that wrote it (1 sequential, 2
 * random), so that file i of one pass never passes for file i of the other.
 */
static uint64_t file_key(const struct bench *b, uint32_t index, bool random)
{
	uint64_t version = random ? 2 : 1;

	return b->verify_key ^ (((uint64_t)index + 1) * 0xff51afd7ed558ccdull) ^
	       (version * 0xc4ceb9fe1a85ec53ull);
}

/* Write size bytes in chunks; with key, the verify stream, else buf as it is. */
static int write_all(int fd, char *buf, uint64_t size, uint32_t chunk, const uint64_t *key)
{
	uint64_t off = 0;

	while (off < size) {
		size_t n = size - off < chunk ? (size_t)(size - off) : chunk;
		ssize_t done;

		if (key)
			verify_stream_fill(buf, n, off, *key);
		done = write(fd, buf, n);
		if (done < 0) {
			if (errno == EINTR && !clyde_stop_requested())
				continue;
			return -errno;
		}
		off += (uint64_t)done;
	}
	return 0;
}

/*
 * Read the size bytes that stat reported, in chunks: one read for a file
 * no larger than a chunk, as bonnie++ does. With key, check the verify
 * stream (-EILSEQ at *bad); a file shorter than its size is -EIO.
 */
static int read_sized(int fd, char *buf, uint64_t size, uint32_t chunk, const uint64_t *key,
		      uint64_t *bad)
{
	uint64_t off = 0;

	while (off < size) {
		size_t want = size - off < chunk ? (size_t)(size - off) : chunk;
		ssize_t n = read(fd, buf, want);

		if (n == 0)
			return -EIO;
		if (n < 0) {
			if (errno != EINTR || clyde_stop_requested())
				return -errno;
			continue;
		}
		if (key && verify_stream_check(buf, (size_t)n, off, *key, bad))
			return -EILSEQ;
		off += (uint64_t)n;
	}
	return 0;
}

/* fsync one file, opened read-only by name (relative to dirfd). 0 or -errno. */
static int fsync_at(int dirfd, const char *name)
{
	int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	int ret;

	if (fd < 0)
		return -errno;
	ret = fsync(fd) ? -errno : 0;
	close(fd);
	return ret;
}

/*
 * The sync that closes a create (created) or delete phase, inside its
 * timing: fs_sync where it waits (syncfs). Elsewhere sync(2) only starts
 * the writes (compat.h), so fsync what the phase changed, all at the end
 * as one sync would: after a create, each file (a link's target once, a
 * symbolic link cannot be opened), each directory, and the directory
 * holding them when there are several; after a delete, each directory.
 * 0 or -errno, with what (len bytes) naming the file that failed.
 */
static int sync_dirs(const struct worker *w, const struct file_set *fs, bool created,
		     char *what, size_t len)
{
	const char *dir = w->files_dir, *name = NULL;
	int ret = 0, parent;

	if (fs_sync_waits()) {
		ret = fs_sync(fs->dirfds[0]);
		goto out;
	}
	if (created && w->b->plan->file_max < 0) {
		dir = fs->link_target;
		ret = fsync_at(AT_FDCWD, fs->link_target);
	}
	for (uint32_t i = 0; created && w->b->plan->file_max >= 0 && i < fs->count && !ret; i++) {
		name = fs->names[i];
		ret = fsync_at(fs->dirfds[dir_of(fs, i)], name);
	}
	if (ret)
		goto out;
	name = NULL;
	dir = w->files_dir;
	for (uint32_t d = 0; d < fs->dirs && !ret; d++)
		ret = fsync(fs->dirfds[d]) ? -errno : 0;
	if (ret || !created || fs->dirs == 1)
		goto out;
	parent = open(w->files_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (parent < 0) {
		ret = -errno;
		goto out;
	}
	ret = fsync(parent) ? -errno : 0;
	close(parent);
out:
	snprintf(what, len, "%s%s%s", dir, name ? "/" : "", name ? name : "");
	return ret;
}

static int make_link_target(const struct file_set *fs)
{
	int fd = open(fs->link_target, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);

	if (fd < 0)
		return errno == EEXIST ? 0 : -errno;
	return close(fd) ? -errno : 0;
}

static int create_one(const struct bench *b, struct file_set *fs, uint32_t i,
		      struct rng *r, char *buf)
{
	const struct run_plan *p = b->plan;
	int dirfd = fs->dirfds[dir_of(fs, i)];
	int64_t max = p->file_max, min = p->file_min;
	uint64_t size, key;
	int fd, ret;

	if (max < 0) {
		ret = max == -1 ? linkat(AT_FDCWD, fs->link_target, dirfd, fs->names[i], 0)
				: symlinkat(fs->link_target, dirfd, fs->names[i]);
		if (ret)
			return -errno;
		/* -b: a link is an entry in the directory; make that durable. */
		return p->fsync_each && fsync(dirfd) ? -errno : 0;
	}
	fd = openat(dirfd, fs->names[i], O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	size = max > 0 ? (uint64_t)min + rng_below(r, (uint64_t)(max - min) + 1) : 0;
	key = file_key(b, i, fs->random);
	if (fs->sizes)
		fs->sizes[i] = size;
	ret = write_all(fd, buf, size, p->file_chunk, p->verify ? &key : NULL);
	/* -b: the file and its directory entry, as bonnie++ syncs both. */
	if (!ret && p->fsync_each && fsync(fd))
		ret = -errno;
	if (close(fd) && !ret)
		ret = -errno;
	if (!ret && p->fsync_each && fsync(dirfd))
		ret = -errno;
	return ret;
}

static int create_phase(struct worker *w, struct phase_sample *s, enum phase_id id, bool random)
{
	const struct bench *b = w->b;
	const struct run_plan *p = b->plan;
	struct file_set *fs = NULL;
	char what[WORKPATH_MAX + NAME_LEN + 8];
	char *buf = NULL;
	struct rng r;
	uint64_t t_sync;
	int ret;

	/* Names, directories and the buffer are made before the clock starts. */
	phase_file_cleanup(w);
	ret = file_set_make(w, random, &fs);
	if (ret)
		return sample_fail(s, id, ret, "prepare %s", w->files_dir);
	w->files = fs;
	if (p->file_max < 0 && (ret = make_link_target(fs)))
		return sample_fail(s, id, ret, "create %s", fs->link_target);
	buf = malloc(p->file_chunk);
	if (!buf)
		return sample_fail(s, id, -ENOMEM, "buffer");
	rng_seed(&r, ((uint64_t)b->seed << 32) ^ 0x5155ull ^ w->index);
	pattern_fill(buf, p->file_chunk, p->data, p->data_zero_pct, &r);
	sample_start(w, s);
	for (uint32_t i = 0; i < fs->count; i++) {
		uint64_t t0;

		/*
		 * A default run's time box, looked at on whole units of 1024 so
		 * the CSV's count of files stays true: the stat and delete phases
		 * take what was made.
		 */
		if (i % FILES_UNIT == 0 && stonewall_stop(w->b->stonewall, s->start_ns, i)) {
			file_set_cut(fs, i);
			break;
		}
		t0 = now_ns();
		ret = create_one(b, fs, i, &r, buf);
		if (ret) {
			sample_fail_at(s, id, ret, w->files_dir, fs->names[i], -1, "create %s/%s",
				       w->files_dir, fs->names[i]);
			goto out;
		}
		sample_latency(s, t0, now_ns(), 1);
		if (i == 0)
			test_pause_point(id);
		if (clyde_stop_requested()) {
			ret = sample_fail(s, id, -EINTR, "create");
			goto out;
		}
	}
	if (!random)
		w->files_made = fs->count;
	t_sync = now_ns();
	ret = sync_dirs(w, fs, true, what, sizeof(what));
	sample_stop(w, s);
	s->flush_ns = s->end_ns - t_sync;
	if (ret)
		sample_fail_at(s, id, ret, what, NULL, -1, "sync %s", what);
	s->amount = fs->count;
out:
	sample_stop(w, s);
	free(buf);
	return ret;
}

/* The index in a name: its first ten hex digits, or its last ten (random). */
static uint32_t name_index(const char *name, bool random)
{
	size_t len = strlen(name);
	const char *digits = random && len >= NAME_DIGITS ? name + len - NAME_DIGITS : name;
	uint32_t v = 0;

	for (int i = 0; i < NAME_DIGITS && isxdigit((unsigned char)digits[i]); i++)
		v = v * 16 + (uint32_t)(isdigit((unsigned char)digits[i]) ? digits[i] - '0'
						: (digits[i] | 0x20) - 'a' + 10);
	return v;
}

/*
 * --verify: is the file's size the size it was written with? A file
 * shortened, or grown, after its create is a mismatch (counted, named).
 */
static void check_size(struct worker *w, struct phase_sample *s, enum phase_id id,
		       const char *name, uint32_t index, const struct stat *st)
{
	const struct file_set *fs = w->files;
	char path[WORKPATH_MAX + NAME_LEN + 16];

	if (!fs->sizes || w->b->plan->file_max < 0 || index >= fs->count ||
	    (uint64_t)st->st_size == fs->sizes[index])
		return;
	snprintf(path, sizeof(path), "%s/%s", w->files_dir, name);
	verify_size_mismatch(s, id, path, (uint64_t)st->st_size, fs->sizes[index]);
}

/*
 * stat one entry; read it too when the files have data, checking its size
 * and data under --verify (a mismatch is counted, not an error).
 */
static int stat_one(struct worker *w, struct phase_sample *s, enum phase_id id, int dirfd,
		    const char *name, char *buf)
{
	const struct run_plan *p = w->b->plan;
	/* only --verify needs the index: a strlen and a parse per file */
	uint32_t index = p->verify ? name_index(name, w->files->random) : 0;
	uint64_t key, bad;
	struct stat st;
	int fd, ret;

	if (fstatat(dirfd, name, &st, 0))
		return -errno;
	check_size(w, s, id, name, index, &st);
	if (p->file_max <= 0)
		return 0;
	fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	key = file_key(w->b, index, w->files->random);
	ret = read_sized(fd, buf, (uint64_t)st.st_size, p->file_chunk, p->verify ? &key : NULL,
			 &bad);
	close(fd);
	if (ret == -EILSEQ) {
		char path[WORKPATH_MAX + NAME_LEN + 16];

		snprintf(path, sizeof(path), "%s/%s", w->files_dir, name);
		verify_mismatch(s, id, path, bad);
		ret = 0;
	}
	return ret;
}

static int delete_one(const struct bench *b, int dirfd, const char *name)
{
	if (unlinkat(dirfd, name, 0))
		return -errno;
	if (b->plan->fsync_each && fsync(dirfd))
		return -errno;
	return 0;
}

static bool is_dot(const char *name)
{
	return name[0] == '.' && (!name[1] || (name[1] == '.' && !name[2]));
}

/* Sequential stat or delete: each directory in readdir order. */
static int walk_dirs(struct worker *w, struct phase_sample *s, enum phase_id id, bool del,
		     char *buf, uint32_t *seen)
{
	const struct file_set *fs = w->files;
	int ret = 0;

	for (uint32_t d = 0; d < fs->dirs && !ret; d++) {
		int fd = dup(fs->dirfds[d]);
		struct dirent *de;
		DIR *dir;

		if (fd < 0)
			return sample_fail(s, id, -errno, "dup");
		dir = fdopendir(fd);
		if (!dir) {
			close(fd);
			return sample_fail(s, id, -errno, "opendir %s", w->files_dir);
		}
		rewinddir(dir);
		while ((de = readdir(dir))) {
			uint64_t t0;

			if (is_dot(de->d_name))
				continue;
			t0 = now_ns();
			ret = del ? delete_one(w->b, fs->dirfds[d], de->d_name)
				  : stat_one(w, s, id, fs->dirfds[d], de->d_name, buf);
			if (ret) {
				sample_fail_at(s, id, ret, w->files_dir, de->d_name, -1, "%s %s/%s",
					       del ? "unlink" : "stat", w->files_dir, de->d_name);
				break;
			}
			sample_latency(s, t0, now_ns(), 1);
			if (++*seen == 1)
				test_pause_point(id);
			if (clyde_stop_requested()) {
				ret = sample_fail(s, id, -EINTR, "walk");
				break;
			}
		}
		closedir(dir);
	}
	return ret;
}

/* Random stat or delete: the shuffled order, by name. */
static int walk_shuffled(struct worker *w, struct phase_sample *s, enum phase_id id, bool del,
			 char *buf, uint32_t *seen)
{
	const struct file_set *fs = w->files;

	for (uint32_t k = 0; k < fs->count; k++) {
		uint32_t i = fs->order[k];
		int dirfd = fs->dirfds[dir_of(fs, i)];
		uint64_t t0 = now_ns();
		int ret = del ? delete_one(w->b, dirfd, fs->names[i])
			      : stat_one(w, s, id, dirfd, fs->names[i], buf);

		if (ret)
			return sample_fail_at(s, id, ret, w->files_dir, fs->names[i], -1, "%s %s/%s",
					      del ? "unlink" : "stat", w->files_dir, fs->names[i]);
		sample_latency(s, t0, now_ns(), 1);
		if (++*seen == 1)
			test_pause_point(id);
		if (clyde_stop_requested())
			return sample_fail(s, id, -EINTR, "walk");
	}
	return 0;
}

/*
 * One walk over every file: stat (with its read) or delete. A pass that
 * does not meet every file is an error.
 */
static int visit_pass(struct worker *w, struct phase_sample *s, enum phase_id id, bool del,
		      char *buf, uint32_t *seen)
{
	const struct file_set *fs = w->files;
	uint32_t before = *seen;
	int ret;

	ret = fs->random ? walk_shuffled(w, s, id, del, buf, seen)
			 : walk_dirs(w, s, id, del, buf, seen);
	if (!ret && *seen - before != fs->count)
		return sample_fail_at(s, id, -EIO, w->files_dir, NULL, -1,
				      "%s found %u files, expected %u", w->files_dir,
				      *seen - before, fs->count);
	return ret;
}

static int visit_phase(struct worker *w, struct phase_sample *s, enum phase_id id, bool del)
{
	const struct file_set *fs = w->files;
	double min_s = del ? 0 : w->b->plan->stat_min_s;
	char what[WORKPATH_MAX + NAME_LEN + 8] = "";
	uint32_t seen = 0, passes = 0;
	uint64_t t_sync;
	char *buf;
	int ret;

	if (!fs)
		return sample_fail(s, id, -ENOENT, "no files were created");
	buf = malloc(w->b->plan->file_chunk);
	if (!buf)
		return sample_fail(s, id, -ENOMEM, "buffer");
	sample_start(w, s);
	/* without -n a stat phase lasts min_s: pass after pass over every file */
	do {
		ret = visit_pass(w, s, id, del, buf, &seen);
		passes++;
	} while (!ret && fs->count && (double)(now_ns() - s->start_ns) < min_s * 1e9);
	t_sync = now_ns();
	if (!ret && del)
		ret = sync_dirs(w, fs, false, what, sizeof(what));
	sample_stop(w, s);
	if (del)
		s->flush_ns = s->end_ns - t_sync;
	free(buf);
	if (ret && s->err)
		return ret;
	if (ret)
		return sample_fail_at(s, id, ret, what[0] ? what : w->files_dir, NULL, -1, "sync %s",
				      what[0] ? what : w->files_dir);
	s->passes = passes;
	s->amount = seen;
	return 0;
}

int phase_seq_create(struct worker *w, struct phase_sample *s)
{
	return create_phase(w, s, PH_SEQ_CREATE, false);
}

int phase_seq_stat(struct worker *w, struct phase_sample *s)
{
	return visit_phase(w, s, PH_SEQ_STAT, false);
}

int phase_seq_del(struct worker *w, struct phase_sample *s)
{
	return visit_phase(w, s, PH_SEQ_DEL, true);
}

int phase_ran_create(struct worker *w, struct phase_sample *s)
{
	return create_phase(w, s, PH_RAN_CREATE, true);
}

int phase_ran_stat(struct worker *w, struct phase_sample *s)
{
	return visit_phase(w, s, PH_RAN_STAT, false);
}

int phase_ran_del(struct worker *w, struct phase_sample *s)
{
	return visit_phase(w, s, PH_RAN_DEL, true);
}

void phase_file_cleanup(struct worker *w)
{
	file_set_free(w->files);
	w->files = NULL;
}

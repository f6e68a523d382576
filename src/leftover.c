// SPDX-License-Identifier: BSD-2-Clause
/*
 * Markers in the private directories and what a later run makes of them
 * (see leftover.h). A process is gone when this host's boot changed since
 * the marker was written, or when no process has its pid, or when the
 * process with its pid started at another moment (the pid was reused).
 * Where the system tells neither boot nor start (no /proc), the pid alone
 * decides.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "clyde.h"
#include "leftover.h"
#include "size.h"
#include "workdir.h"

static char command[512];

void leftover_set_command(int argc, char **argv)
{
	size_t len = 0;

	command[0] = '\0';
	for (int i = 0; i < argc && len + 2 < sizeof(command); i++) {
		int n = snprintf(command + len, sizeof(command) - len, "%s%s", i ? " " : "", argv[i]);

		if (n < 0)
			break;
		len += (size_t)n;
	}
	/* one line: a newline in an argument would end the field */
	for (char *c = command; *c; c++)
		if (*c == '\n')
			*c = ' ';
}

/* A whole small file as text; 0 or -errno. */
static int read_small(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return 0;
}

/* This boot's id (Linux); empty where the system has none to read. */
static void boot_id(char *out, size_t len)
{
	out[0] = '\0';
	if (read_small("/proc/sys/kernel/random/boot_id", out, len))
		out[0] = '\0';
	out[strcspn(out, "\n")] = '\0';
}

/*
 * When pid started, in clock ticks since boot (/proc/PID/stat field 22);
 * empty unknown. *dead: it is a zombie, killed but not yet reaped.
 */
static void process_start(pid_t pid, char *out, size_t len, bool *dead)
{
	char path[64], stat[1024], *p;

	out[0] = '\0';
	*dead = false;
	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	if (read_small(path, stat, sizeof(stat)))
		return;
	/* the command name may hold spaces and parentheses: count from the last ')' */
	p = strrchr(stat, ')');
	*dead = p && (p[2] == 'Z' || p[2] == 'X');
	for (int field = 2; p && field < 22; field++)
		p = strchr(p + 1, ' ');
	if (p)
		snprintf(out, len, "%.*s", (int)strcspn(p + 1, " \n"), p + 1);
}

static void host_name(char *out, size_t len)
{
	if (gethostname(out, len - 1) || !out[0])
		snprintf(out, len, "unknown");
	out[len - 1] = '\0';
}

int leftover_mark(const char *workdir)
{
	char path[4200], host[64], boot[64], start[32], text[1024];
	int fd, n, ret = 0;
	bool dead;

	host_name(host, sizeof(host));
	boot_id(boot, sizeof(boot));
	process_start(getpid(), start, sizeof(start), &dead);
	n = snprintf(text, sizeof(text), "clyde-marker 1\npid %ld\nhost %s\nboot %s\nstart %s\n"
		     "time %lld\ncmd %s\n", (long)getpid(), host, boot, start, (long long)time(NULL),
		     command);
	snprintf(path, sizeof(path), "%s/%s", workdir, LEFTOVER_MARKER);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	if (write(fd, text, (size_t)n) != n)
		ret = errno ? -errno : -EIO;
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

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
	return 0;
}

/* Is the marker's process gone? Only this host can tell. */
static void judge(const char *text, struct leftover *l)
{
	char host[64], boot[64], mine[64], start[32], now[32];
	bool zombie;

	host_name(host, sizeof(host));
	l->same_host = !strcmp(host, l->host);
	if (!l->same_host) {
		snprintf(l->why, sizeof(l->why), "left by host %s: only there can clyde tell "
			 "whether it still runs", l->host);
		return;
	}
	boot_id(mine, sizeof(mine));
	if (field(text, "boot", boot, sizeof(boot)) && boot[0] && mine[0] && strcmp(boot, mine)) {
		l->gone = true;
		snprintf(l->why, sizeof(l->why), "written before this host last booted");
		return;
	}
	if (kill(l->pid, 0) && errno == ESRCH) {
		l->gone = true;
		snprintf(l->why, sizeof(l->why), "no process %ld", (long)l->pid);
		return;
	}
	process_start(l->pid, now, sizeof(now), &zombie);
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

static uint64_t tree_bytes;

static int add_bytes(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)path;
	(void)flag;
	(void)ftw;
	tree_bytes += (uint64_t)st->st_blocks * 512u;
	return 0;
}

int leftover_scan(const char *dir, void (*fn)(const struct leftover *l, void *arg), void *arg)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return -errno;
	while ((e = readdir(d))) {
		struct leftover l;
		struct stat st;
		char path[4096], marker[4200], text[2048];

		if (strncmp(e->d_name, "clyde.", 6))
			continue;
		if (snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) >= (int)sizeof(path))
			continue;
		/* a real directory holding a regular marker file, nothing followed */
		if (lstat(path, &st) || !S_ISDIR(st.st_mode))
			continue;
		snprintf(marker, sizeof(marker), "%s/%s", path, LEFTOVER_MARKER);
		if (lstat(marker, &st) || !S_ISREG(st.st_mode) || read_small(marker, text, sizeof(text)))
			continue;
		if (leftover_parse(text, &l))
			continue;
		snprintf(l.path, sizeof(l.path), "%s", path);
		judge(text, &l);
		tree_bytes = 0;
		nftw(path, add_bytes, 16, FTW_PHYS | FTW_MOUNT);
		l.bytes = tree_bytes;
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

static void warn_one(const struct leftover *l, void *arg)
{
	char what[DESCRIBE_LEN];

	if (!l->gone)
		return;
	describe(l, what, sizeof(what));
	fprintf((FILE *)arg, "clyde: note: a run that did not finish left %s behind (%s); "
		"clyde --cleanup removes it\n", what, l->why);
}

void leftover_warn(const char *dir, FILE *out)
{
	leftover_scan(dir, warn_one, out);
}

struct cleanup_state {
	FILE *out;
	unsigned removed;
	unsigned kept;
	unsigned failed;
};

static void clean_one(const struct leftover *l, void *arg)
{
	struct cleanup_state *cs = arg;
	char what[DESCRIBE_LEN];
	int ret;

	describe(l, what, sizeof(what));
	if (!l->gone) {
		cs->kept++;
		fprintf(cs->out, "clyde: kept %s: %s\n", what, l->why);
		return;
	}
	ret = workdir_remove(l->path);
	if (ret) {
		cs->failed++;
		fprintf(cs->out, "clyde: cannot remove all of %s: %s\n", what, strerror(-ret));
		return;
	}
	cs->removed++;
	fprintf(cs->out, "clyde: removed %s: %s\n", what, l->why);
}

int leftover_cleanup(const char *dir, FILE *out)
{
	struct cleanup_state cs = { .out = out };
	int ret = leftover_scan(dir, clean_one, &cs);

	if (ret) {
		fprintf(out, "clyde: --cleanup %s: %s\n", dir, strerror(-ret));
		return CLYDE_EXIT_DIR;
	}
	fprintf(out, "clyde: --cleanup %s: %u removed, %u kept%s\n", dir, cs.removed, cs.kept,
		cs.failed ? ", some could not be removed" : "");
	return cs.failed ? CLYDE_EXIT_IO : CLYDE_EXIT_OK;
}

// SPDX-License-Identifier: BSD-2-Clause
/*
 * clyde-getc-putc's measurements: each method moves its bytes one at a
 * time through the same open file, from its start, timed as one loop
 * (as getc_putc does) with the process's CPU around it.
 *
 * The no-thread columns run in a helper process that this program
 * starts by exec'ing itself in its --helper mode (posix_spawn of
 * /proc/self/exe, or of argv[0] where there is no /proc): a fresh image
 * has never had a thread, whatever the parent has done, and a C library
 * that keeps stdio's locks on once a thread has existed (glibc sets
 * every stream's need-lock flag at the first pthread_create and never
 * clears it) cannot carry that state across exec. One program to
 * install, and no shell in between (getc_putc popens "argv[0]_helper").
 *
 * glibc skips a stream's lock while a process has one thread, so putc in
 * getc_putc's own process costs what putcNT costs; the locked cost
 * shows only once a second thread exists: the last four rows run with
 * an idle thread that blocks all signals and waits on a pipe.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "getc_putc/getc_putc.h"
#include "lib/signals.h"
#include "lib/timing.h"
#include "sys/compat.h"

extern char **environ;

/* Bytes between two looks at the stop flag: the loops stay one call per byte. */
#define GP_STOP_GRAIN	65536u
#define GP_EXTEND_BUF	(1u << 20)

static volatile unsigned char gp_sink;	/* what the reads read, so no loop is optimised away */

/* The byte written at offset i, as getc_putc writes: printable, cycling every 64. */
static inline unsigned char gp_byte(uint64_t i)
{
	return (unsigned char)(0x20 + (i & 0x3f));
}

static int io_failed(ssize_t got)
{
	if (got < 0)
		return errno == EINTR && !clyde_stop_requested() ? 0 : -errno;
	return got == 0 ? -ENODATA : -EIO;
}

static int write_bytes(int fd, FILE *fp, uint64_t n)
{
	(void)fp;
	for (uint64_t done = 0; done < n;) {
		uint64_t end = n - done > GP_STOP_GRAIN ? done + GP_STOP_GRAIN : n;

		while (done < end) {
			unsigned char c = gp_byte(done);
			ssize_t got = write(fd, &c, 1);
			int ret;

			if (got == 1) {
				done++;
				continue;
			}
			ret = io_failed(got);
			if (ret)
				return ret;
		}
		if (clyde_stop_requested())
			return -EINTR;
	}
	return 0;
}

static int read_bytes(int fd, FILE *fp, uint64_t n)
{
	unsigned char sum = 0;

	(void)fp;
	for (uint64_t done = 0; done < n;) {
		uint64_t end = n - done > GP_STOP_GRAIN ? done + GP_STOP_GRAIN : n;

		while (done < end) {
			unsigned char c;
			ssize_t got = read(fd, &c, 1);
			int ret;

			if (got == 1) {
				sum += c;
				done++;
				continue;
			}
			ret = io_failed(got);
			if (ret)
				return ret;
		}
		if (clyde_stop_requested())
			return -EINTR;
	}
	gp_sink = sum;
	return 0;
}

static int stream_failed(FILE *fp)
{
	return ferror(fp) ? (errno ? -errno : -EIO) : -ENODATA;
}

static int put_locked(int fd, FILE *fp, uint64_t n)
{
	(void)fd;
	for (uint64_t done = 0; done < n;) {
		uint64_t end = n - done > GP_STOP_GRAIN ? done + GP_STOP_GRAIN : n;

		for (; done < end; done++)
			if (putc(gp_byte(done), fp) == EOF)
				return stream_failed(fp);
		if (clyde_stop_requested())
			return -EINTR;
	}
	return 0;
}

static int put_unlocked(int fd, FILE *fp, uint64_t n)
{
	(void)fd;
	for (uint64_t done = 0; done < n;) {
		uint64_t end = n - done > GP_STOP_GRAIN ? done + GP_STOP_GRAIN : n;

		for (; done < end; done++)
			if (putc_unlocked(gp_byte(done), fp) == EOF)
				return stream_failed(fp);
		if (clyde_stop_requested())
			return -EINTR;
	}
	return 0;
}

static int get_locked(int fd, FILE *fp, uint64_t n)
{
	unsigned char sum = 0;

	(void)fd;
	for (uint64_t done = 0; done < n;) {
		uint64_t end = n - done > GP_STOP_GRAIN ? done + GP_STOP_GRAIN : n;

		for (; done < end; done++) {
			int c = getc(fp);

			if (c == EOF)
				return stream_failed(fp);
			sum += (unsigned char)c;
		}
		if (clyde_stop_requested())
			return -EINTR;
	}
	gp_sink = sum;
	return 0;
}

static int get_unlocked(int fd, FILE *fp, uint64_t n)
{
	unsigned char sum = 0;

	(void)fd;
	for (uint64_t done = 0; done < n;) {
		uint64_t end = n - done > GP_STOP_GRAIN ? done + GP_STOP_GRAIN : n;

		for (; done < end; done++) {
			int c = getc_unlocked(fp);

			if (c == EOF)
				return stream_failed(fp);
			sum += (unsigned char)c;
		}
		if (clyde_stop_requested())
			return -EINTR;
	}
	gp_sink = sum;
	return 0;
}

typedef int (*gp_loop_fn)(int fd, FILE *fp, uint64_t n);

/* [how][writes] */
static const gp_loop_fn gp_loops[3][2] = {
	[GP_SYSCALL] = { read_bytes, write_bytes },
	[GP_STDIO] = { get_locked, put_locked },
	[GP_UNLOCKED] = { get_unlocked, put_unlocked },
};

static const char *const where_words[] = {
	[GP_MAIN] = "",
	[GP_HELPER] = " in a process without threads",
	[GP_THREADED] = " with an idle thread",
};

/* Rewinds (the stream's buffer flushed, untimed) and runs method id over its bytes. */
static int measure(struct gp_measure *m, enum gp_id id, int fd, FILE *fp, uint64_t size_bytes,
		   bool quiet, char *err, size_t errlen)
{
	const struct gp_method *g = &gp_methods[id];
	struct cpu_sample c0, c1;
	uint64_t t0, n = size_bytes / g->fraction;
	int ret;

	if (fp ? fseek(fp, 0, SEEK_SET) != 0 : lseek(fd, 0, SEEK_SET) != 0) {
		ret = -errno;
		snprintf(err, errlen, "%s: cannot seek to the start: %s", g->column, strerror(-ret));
		return ret;
	}
	if (!quiet)
		fprintf(stderr, "%s: %s%s...", g->column, g->call, where_words[g->where]);
	fflush(NULL);
	cpu_sample_take(&c0);
	t0 = now_ns();
	ret = gp_loops[g->how][g->writes](fd, fp, n);
	m->elapsed_ns = now_ns() - t0;
	cpu_sample_take(&c1);
	if (ret) {
		if (!quiet)
			fputc('\n', stderr);
		snprintf(err, errlen, "%s: %s: %s", g->column, g->call,
			 ret == -ENODATA ? "the file ended early" : strerror(-ret));
		return ret;
	}
	if (!quiet)
		fputs("done\n", stderr);
	m->ran = true;
	m->bytes = n;
	m->cpu_user_s = c1.user - c0.user;
	m->cpu_sys_s = c1.sys - c0.sys;
	return 0;
}

int gp_extend(int fd, uint64_t bytes)
{
	unsigned char *buf = malloc(GP_EXTEND_BUF);
	uint64_t done = 0;
	int ret = 0;

	if (!buf)
		return -ENOMEM;
	for (uint32_t i = 0; i < GP_EXTEND_BUF; i++)
		buf[i] = gp_byte(i);
	while (done < bytes && !ret) {
		size_t want = bytes - done < GP_EXTEND_BUF ? (size_t)(bytes - done) : GP_EXTEND_BUF;
		ssize_t got = pwrite(fd, buf, want, (off_t)done);

		if (got > 0)
			done += (uint64_t)got;
		else if (got == 0)
			ret = -ENOSPC;
		else if (errno != EINTR)
			ret = -errno;
		if (clyde_stop_requested())
			ret = -EINTR;
	}
	if (!ret && fsync(fd))
		ret = -errno;
	free(buf);
	return ret;
}

/* ---- the helper process ---- */

/* In the helper: "FD:BYTES" from --helper. */
static int parse_spec(const char *spec, int *fd, uint64_t *bytes)
{
	char *end;
	unsigned long long v;
	long f;

	errno = 0;
	f = strtol(spec, &end, 10);
	if (errno || end == spec || *end != ':' || f < 0 || f > 1 << 20)
		return -EINVAL;
	spec = end + 1;
	v = strtoull(spec, &end, 10);
	if (errno || end == spec || *end || !v)
		return -EINVAL;
	*fd = (int)f;
	*bytes = v;
	return 0;
}

int gp_helper_main(const char *spec)
{
	struct gp_measure m[2] = { { 0 } };
	const enum gp_id ids[2] = { GP_PUTC_NT, GP_GETC_NT };
	char err[256];
	uint64_t bytes;
	FILE *fp;
	int fd, ret;

	if (parse_spec(spec, &fd, &bytes)) {
		fprintf(stderr, "clyde-getc-putc: --helper %s: not FD:BYTES (clyde-getc-putc "
			"starts its helper itself)\n", spec);
		return GP_EXIT_USAGE;
	}
	fp = fdopen(fd, "r+");
	if (!fp) {
		fprintf(stderr, "clyde-getc-putc: helper: descriptor %d: %s\n", fd, strerror(errno));
		return GP_EXIT_USAGE;
	}
	for (int i = 0; i < 2; i++) {
		ret = measure(&m[i], ids[i], fd, fp, bytes, true, err, sizeof(err));
		if (ret) {
			fprintf(stderr, "clyde-getc-putc: helper: %s\n", err);
			fclose(fp);
			return ret == -EINTR ? GP_EXIT_SIGNAL : GP_EXIT_IO;
		}
	}
	/* the last bytes put are flushed before the parent goes on */
	if (fflush(fp)) {
		fprintf(stderr, "clyde-getc-putc: helper: flush: %s\n", strerror(errno));
		fclose(fp);
		return GP_EXIT_IO;
	}
	for (int i = 0; i < 2; i++)
		printf("%s %" PRIu64 " %" PRIu64 " %.6f %.6f\n", gp_methods[ids[i]].column, m[i].bytes,
		       m[i].elapsed_ns, m[i].cpu_user_s, m[i].cpu_sys_s);
	fclose(fp);
	return fflush(stdout) ? GP_EXIT_IO : GP_EXIT_OK;
}

/* One line of the helper's: "putcNT BYTES NS USER SYS" into r's row of that name. */
static int helper_line(struct gp_result *r, const char *line)
{
	char name[16];
	unsigned long long bytes, ns;
	double user, sys;

	if (sscanf(line, "%15s %llu %llu %lf %lf", name, &bytes, &ns, &user, &sys) != 5)
		return -EINVAL;
	for (int id = GP_PUTC_NT; id <= GP_GETC_NT; id++) {
		if (strcmp(name, gp_methods[id].column))
			continue;
		r->m[id] = (struct gp_measure){ .ran = true, .bytes = bytes, .elapsed_ns = ns,
						.cpu_user_s = user, .cpu_sys_s = sys };
		return 0;
	}
	return -EINVAL;
}

/* Starts ourselves as the helper, stdout to pipe_w: /proc/self/exe, else argv0. */
static int spawn_helper(pid_t *pid, int fd, int pipe_w, uint64_t bytes, const char *argv0,
			const char **how)
{
	posix_spawn_file_actions_t fa;
	char spec[64];
	char *argv[] = { (char *)"clyde-getc-putc", (char *)"--helper", spec, NULL };
	int ret;

	snprintf(spec, sizeof(spec), "%d:%" PRIu64, fd, bytes);
	ret = posix_spawn_file_actions_init(&fa);
	if (ret)
		return -ret;
	ret = posix_spawn_file_actions_adddup2(&fa, pipe_w, STDOUT_FILENO);
	if (ret)
		goto out_actions;
	*how = "posix_spawn of /proc/self/exe --helper";
	ret = posix_spawn(pid, "/proc/self/exe", &fa, NULL, argv, environ);
	if (ret == ENOENT || ret == EACCES) {
		*how = "posix_spawnp of argv[0] --helper";
		ret = posix_spawnp(pid, argv0, &fa, NULL, argv, environ);
	}
out_actions:
	posix_spawn_file_actions_destroy(&fa);
	return -ret;
}

static int run_helper(struct gp_result *r, int fd, const char *argv0, bool quiet, char *err,
		      size_t errlen)
{
	int p[2], status, ret;
	char line[256];
	unsigned lines = 0;
	pid_t pid;
	FILE *in;

	if (pipe(p)) {
		ret = -errno;
		snprintf(err, errlen, "helper: pipe: %s", strerror(-ret));
		return ret;
	}
	fcntl(p[0], F_SETFD, FD_CLOEXEC);
	fcntl(p[1], F_SETFD, FD_CLOEXEC);
	if (!quiet)
		fprintf(stderr, "putcNT getcNT: putc(c, fp), getc(fp) in a process without threads...");
	fflush(NULL);
	ret = spawn_helper(&pid, fd, p[1], r->size_kib << 10, argv0, &r->helper);
	close(p[1]);
	if (ret) {
		close(p[0]);
		snprintf(err, errlen, "cannot start the helper (%s): %s", argv0, strerror(-ret));
		return ret;
	}
	in = fdopen(p[0], "r");
	if (!in) {
		ret = -errno;
		close(p[0]);
	}
	while (in && fgets(line, sizeof(line), in))
		if (!helper_line(r, line))
			lines++;
	if (in)
		fclose(in);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			status = -1;
			break;
		}
	if (!quiet)
		fputs(lines == 2 ? "done\n" : "\n", stderr);
	if (clyde_stop_requested())
		return -EINTR;
	if (ret)
		snprintf(err, errlen, "reading the helper's results: %s", strerror(-ret));
	else if (status == -1)
		snprintf(err, errlen, "waiting for the helper process: %s", strerror(errno));
	else if (WIFSIGNALED(status))
		snprintf(err, errlen, "the helper process was killed by signal %d", WTERMSIG(status));
	else if (WEXITSTATUS(status))
		snprintf(err, errlen, "the helper process failed with exit status %d",
			 WEXITSTATUS(status));
	else if (lines != 2)
		snprintf(err, errlen, "the helper process gave %u of its 2 results", lines);
	else
		return 0;
	return ret ? ret : -EIO;
}

/* ---- the idle thread ---- */

static void *idle_thread(void *arg)
{
	int fd = *(int *)arg;
	char c;

	/* until the write end closes */
	while (read(fd, &c, 1) < 0 && errno == EINTR)
		;
	return NULL;
}

struct idle {
	pthread_t thread;
	int pipe[2];
};

static int idle_start(struct idle *t)
{
	sigset_t all, old;
	int ret;

	if (pipe(t->pipe))
		return -errno;
	/* signals go to the measuring thread, which looks at the stop flag */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	ret = -pthread_create(&t->thread, NULL, idle_thread, &t->pipe[0]);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (ret) {
		close(t->pipe[0]);
		close(t->pipe[1]);
	}
	return ret;
}

static void idle_stop(struct idle *t)
{
	close(t->pipe[1]);
	pthread_join(t->thread, NULL);
	close(t->pipe[0]);
}

int gp_measure_run(struct gp_result *r, int fd, const char *argv0, bool quiet, char *err,
		   size_t errlen)
{
	const uint64_t bytes = r->size_kib << 10;
	struct idle idle;
	FILE *fp = NULL;
	int sfd, ret;

	for (int id = GP_WRITE; id <= GP_READ; id++) {
		ret = measure(&r->m[id], id, fd, NULL, bytes, quiet, err, errlen);
		/* what write(2) left goes to the file before it is read back (untimed) */
		if (!ret && id == GP_WRITE && fsync(fd))
			ret = -errno;
		if (ret)
			return ret;
	}
	ret = run_helper(r, fd, argv0, quiet, err, errlen);
	if (ret)
		return ret;
	/* a stream of its own descriptor, sharing the file's offset */
	sfd = dup(fd);
	if (sfd < 0 || !(fp = fdopen(sfd, "r+"))) {
		ret = -errno;
		if (sfd >= 0)
			close(sfd);
		snprintf(err, errlen, "cannot open a stream on the file: %s", strerror(-ret));
		return ret;
	}
	for (int id = GP_PUTC; id <= GP_GETC_U && !ret; id++)
		ret = measure(&r->m[id], id, fd, fp, bytes, quiet, err, errlen);
	if (ret)
		goto out_stream;
	ret = idle_start(&idle);
	if (ret) {
		snprintf(err, errlen, "cannot start the idle thread: %s", strerror(-ret));
		goto out_stream;
	}
	for (int id = GP_PUTC_T; id < GP_COUNT && !ret; id++)
		ret = measure(&r->m[id], id, fd, fp, bytes, quiet, err, errlen);
	idle_stop(&idle);
out_stream:
	if (fclose(fp) && !ret) {
		ret = -errno;
		snprintf(err, errlen, "closing the stream: %s", strerror(-ret));
	}
	return ret;
}

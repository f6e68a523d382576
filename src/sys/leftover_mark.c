// SPDX-License-Identifier: BSD-2-Clause
/*
 * The marker a run writes into each private directory it makes (see
 * leftover_mark.h). Apart from the reader (leftover.c) so that workdir.c,
 * which writes it, and the remover, which keeps it for last, need nothing
 * of the reader, which needs them.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "sys/leftover_mark.h"

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
void leftover_boot_id(char *out, size_t len)
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
void leftover_process_start(pid_t pid, char *out, size_t len, bool *dead)
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

void leftover_host_name(char *out, size_t len)
{
	if (gethostname(out, len - 1) || !out[0])
		snprintf(out, len, "unknown");
	out[len - 1] = '\0';
}

/*
 * This process's pid namespace as "DEV:INO" of /proc/self/ns/pid (Linux);
 * -errno where the system has no such file: then nobody can tell.
 */
int leftover_pid_namespace(char *out, size_t len)
{
	struct stat st;

	if (stat("/proc/self/ns/pid", &st))
		return -errno;
	snprintf(out, len, "%ju:%ju", (uintmax_t)st.st_dev, (uintmax_t)st.st_ino);
	return 0;
}

int leftover_mark(const char *workdir)
{
	char path[4200], host[64], boot[64], start[32], ns[48], pidns[64] = "", text[1024];
	int fd, n, ret = 0;
	bool dead;

	leftover_host_name(host, sizeof(host));
	leftover_boot_id(boot, sizeof(boot));
	leftover_process_start(getpid(), start, sizeof(start), &dead);
	/* older clyde ignores the field it does not know */
	if (!leftover_pid_namespace(ns, sizeof(ns)))
		snprintf(pidns, sizeof(pidns), "pidns %s\n", ns);
	n = snprintf(text, sizeof(text), "clyde-marker 1\npid %ld\nhost %s\nboot %s\nstart %s\n"
		     "%stime %lld\ncmd %s\n", (long)getpid(), host, boot, start, pidns,
		     (long long)time(NULL), command);
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

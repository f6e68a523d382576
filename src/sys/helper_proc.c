// SPDX-License-Identifier: BSD-2-Clause
/* Starting a helper process of clyde's own, the part every OS shares (see helper_proc.h). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sys/helper_proc.h"

extern char **environ;

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

/* The actions: each fd to its place, /dev/null on 0, 1 and 2. */
static int spawn_actions(posix_spawn_file_actions_t *fa, const int *fds, unsigned nfds)
{
	int ret;

	for (unsigned i = 0; i < nfds; i++) {
		ret = posix_spawn_file_actions_adddup2(fa, fds[i], HELPER_FIRST_FD + (int)i);
		if (ret)
			return ret;
	}
	ret = posix_spawn_file_actions_addopen(fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
	if (!ret)
		ret = posix_spawn_file_actions_addopen(fa, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
	if (!ret)
		ret = posix_spawn_file_actions_adddup2(fa, STDOUT_FILENO, STDERR_FILENO);
	return ret;
}

int helper_spawn(pid_t *pid, const char *run_as, char *const argv[], const int *fds,
		 unsigned nfds)
{
	posix_spawn_file_actions_t fa;
	char self[PATH_MAX];
	int moved[8], ret;
	unsigned i;

	if (nfds > sizeof(moved) / sizeof(moved[0]))
		return -EINVAL;
	/*
	 * Each descriptor first above the places the helper's take, so no
	 * dup2 lands on another's source, nor on itself (which would leave
	 * its close-on-exec set).
	 */
	for (i = 0; i < nfds; i++) {
		moved[i] = fcntl(fds[i], F_DUPFD_CLOEXEC, HELPER_FIRST_FD + (int)nfds);
		if (moved[i] < 0) {
			ret = errno;
			goto out_moved;
		}
	}
	ret = posix_spawn_file_actions_init(&fa);
	if (ret)
		goto out_moved;
	ret = spawn_actions(&fa, moved, nfds);
	if (ret)
		goto out_actions;
	ret = ENOENT;
	if (!helper_self_path(self, sizeof(self)))
		ret = posix_spawn(pid, self, &fa, NULL, argv, environ);
	if ((ret == ENOENT || ret == EACCES || ret == ENOEXEC) && run_as && run_as[0])
		ret = posix_spawnp(pid, run_as, &fa, NULL, argv, environ);
out_actions:
	posix_spawn_file_actions_destroy(&fa);
out_moved:
	while (i--)
		close(moved[i]);
	return -ret;
}

/*
 * Every descriptor from first up closed by one call where the system has
 * one: closefrom (glibc 2.34, the BSDs), else Linux's close_range (5.9)
 * by its number, which older C libraries do not wrap. 0, or -errno
 * (-ENOSYS: none here, or the kernel lacks it).
 */
#if defined(HAVE_CLOSEFROM)
static int close_all_from(int first)
{
	closefrom(first);
	return 0;
}
#elif defined(SYS_close_range)
static int close_all_from(int first)
{
	return syscall(SYS_close_range, (unsigned int)first, ~0U, 0) ? -errno : 0;
}
#else
static int close_all_from(int first)
{
	(void)first;
	return -ENOSYS;
}
#endif

void helper_close_inherited(int first)
{
	long max;

	if (!close_all_from(first))
		return;
	/* one by one, up to the limit on descriptors (none told: a generous one) */
	max = sysconf(_SC_OPEN_MAX);
	if (max < 0 || max > INT_MAX)
		max = 65536;
	for (int fd = first; fd < max; fd++)
		close(fd);
}

/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_HELPER_PROC_H
#define CLYDE_HELPER_PROC_H

#include <stddef.h>
#include <sys/types.h>

/*
 * A helper process of clyde's own: clyde started again by posix_spawn
 * with an argument that names the helper, never forked. A fresh image
 * shares no page with the parent (a fork from a threaded process marks
 * every page copy-on-write, and under MPI over RDMA a forked child may
 * touch registered memory), and posix_spawn starts it without copying
 * the parent's page tables. Per OS (helper_proc_linux.c,
 * helper_proc_bsd.c): where the program is found again, the memory both
 * share, and how the helper dies with its parent.
 */

/* The descriptor the first of helper_spawn's fds becomes in the helper; the next, +1. */
#define HELPER_FIRST_FD 3

/*
 * A shared memory object of bytes, zeroed, not in any file system and
 * already unlinked, close-on-exec: Linux's memfd_create, elsewhere
 * shm_open under a name removed at once. Its descriptor, or -errno.
 */
int helper_shared_fd(const char *name, size_t bytes);

/*
 * The program that is running, as a path posix_spawn can start: Linux's
 * /proc/self/exe, the BSDs' KERN_PROC_PATHNAME. 0, or -errno (then the
 * caller falls back to the name it was run as).
 */
int helper_self_path(char *buf, size_t len);

/*
 * In the helper, first: its name for ps and pgrep (Linux names a process
 * by the file it exec'd, "exe" for /proc/self/exe), and death with its
 * parent (Linux: PR_SET_PDEATHSIG). Where the OS has neither it does
 * nothing: the name is the program's, and the helper tells its parent's
 * end by the end of file on its control socket, which it always watches.
 */
void helper_settle(const char *name);

/*
 * Start ourselves as a helper: argv (argv[0] a name for ps), the
 * descriptors fds[0..nfds) as HELPER_FIRST_FD onwards, /dev/null as
 * stdin, stdout and stderr, every other descriptor left to the helper to
 * close (helper_close_inherited). The program: helper_self_path's, else
 * run_as (the parent's argv[0]) through PATH. 0 or -errno.
 */
int helper_spawn(pid_t *pid, const char *run_as, char *const argv[], const int *fds,
		 unsigned nfds);

/* In the helper: close every descriptor from first on (what a spawn leaves open). */
void helper_close_inherited(int first);

#endif

// SPDX-License-Identifier: BSD-2-Clause
/*
 * no_uring ERRNO COMMAND...: run COMMAND with io_uring_setup(2) failing
 * with ERRNO (EPERM or ENOSYS) through a seccomp filter on this process
 * only, as a locked-down container or kernel.io_uring_disabled would.
 */
#include "config.h"

#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef __NR_io_uring_setup
#define __NR_io_uring_setup 425
#endif

int main(int argc, char **argv)
{
	unsigned err;

	if (argc < 3) {
		fprintf(stderr, "usage: no_uring EPERM|ENOSYS command...\n");
		return 2;
	}
	err = !strcmp(argv[1], "ENOSYS") ? ENOSYS : EPERM;
	struct sock_filter filter[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_io_uring_setup, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (err & SECCOMP_RET_DATA)),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = {
		.len = sizeof(filter) / sizeof(filter[0]),
		.filter = filter,
	};

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog)) {
		perror("no_uring: seccomp");
		return 77;
	}
	execvp(argv[2], argv + 2);
	perror("no_uring: exec");
	return 127;
}

// SPDX-License-Identifier: BSD-2-Clause
/*
 * Synchronising several clyde processes (-p / -y s) with a SysV semaphore
 * set used as a reusable barrier. Three semaphores rotate: phase k counts
 * arrivals down to zero on sem k%3, and each arriving process refills sem
 * (k-2)%3, which nobody can still be waiting on once phase k-1 is passed.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/sem.h>
#include <sys/types.h>

#include "lib/signals.h"
#include "sys/semsync.h"

#define SEMSYNC_KEY	((key_t)0x434c5944)	/* "CLYD" */
#define SEMSYNC_COUNT	3

union semun_arg {
	int val;
	struct semid_ds *buf;
	unsigned short *array;
};

int semsync_create(int procs, char *err, size_t errlen)
{
	union semun_arg arg;
	/* Any user may join: runs with -u use the set that root made. */
	int id = semget(SEMSYNC_KEY, SEMSYNC_COUNT, IPC_CREAT | 0666);

	if (id < 0) {
		snprintf(err, errlen, "-p: semget: %s", strerror(errno));
		return -errno;
	}
	arg.val = procs;
	for (int i = 0; i < SEMSYNC_COUNT; i++) {
		if (semctl(id, i, SETVAL, arg)) {
			snprintf(err, errlen, "-p: semctl SETVAL: %s", strerror(errno));
			return -errno;
		}
	}
	return 0;
}

int semsync_remove(char *err, size_t errlen)
{
	int id = semget(SEMSYNC_KEY, SEMSYNC_COUNT, 0);

	if (id < 0 || semctl(id, 0, IPC_RMID)) {
		snprintf(err, errlen, "-p -1: no semaphore to remove: %s", strerror(errno));
		return -errno;
	}
	return 0;
}

static int sem_step(int id, unsigned short num, short op)
{
	struct sembuf sb = { .sem_num = num, .sem_op = op, .sem_flg = 0 };

	while (semop(id, &sb, 1)) {
		if (errno != EINTR)
			return -errno;
		if (clyde_stop_requested())
			return -EINTR;
	}
	return 0;
}

int semsync_check(char *err, size_t errlen)
{
	if (semget(SEMSYNC_KEY, SEMSYNC_COUNT, 0) >= 0)
		return 0;
	snprintf(err, errlen, "-y s: no semaphore (create it with clyde -p N): %s",
		 strerror(errno));
	return -errno;
}

int semsync_wait(unsigned phase_index, char *err, size_t errlen)
{
	int id = semget(SEMSYNC_KEY, SEMSYNC_COUNT, 0);
	unsigned short cur = (unsigned short)(phase_index % SEMSYNC_COUNT);
	int ret;

	if (id < 0) {
		snprintf(err, errlen, "-y s: no semaphore (create it with clyde -p N): %s",
			 strerror(errno));
		return -errno;
	}
	if (phase_index >= 2) {
		ret = sem_step(id, (unsigned short)((phase_index - 2) % SEMSYNC_COUNT), 1);
		if (ret)
			goto fail;
	}
	ret = sem_step(id, cur, -1);
	if (!ret)
		ret = sem_step(id, cur, 0);
	if (!ret)
		return 0;
fail:
	if (ret != -EINTR)
		snprintf(err, errlen, "-y s: semop: %s", strerror(-ret));
	return ret;
}

int prompt_wait(const char *phase, char *err, size_t errlen)
{
	int c;

	fprintf(stderr, "clyde: press Enter to start %s: ", phase);
	fflush(stderr);
	while ((c = getchar()) != '\n') {
		if (c == EOF) {
			if (clyde_stop_requested())
				return -EINTR;
			snprintf(err, errlen, "-y p: end of input while waiting to start %s", phase);
			return -EPIPE;
		}
	}
	return 0;
}

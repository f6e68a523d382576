// SPDX-License-Identifier: BSD-2-Clause
/*
 * The library's part of the aio engine's set-up (aio_host.h): glibc's
 * aio_init(3) where aio.h declares it, nothing elsewhere.
 */
#include "config.h"

#include <aio.h>
#include <errno.h>
#include <pthread.h>
#include <string.h>

#include "engines/aio_host.h"

#if defined(HAVE_DECL_AIO_INIT) && HAVE_DECL_AIO_INIT
/*
 * glibc makes a pool thread only when a request finds none idle, up to
 * aio_threads (20 unless told), and fixes the pool at the first request
 * in the process: so one generous bound for every engine of the run
 * (seekers x depth x workers), not each engine's depth. An idle thread
 * stays a second (aio_idle_time), then exits.
 */
#define AIO_HOST_THREADS	1024u

static pthread_once_t aio_host_once = PTHREAD_ONCE_INIT;

static void aio_host_pool(void)
{
	struct aioinit ai;

	memset(&ai, 0, sizeof(ai));
	ai.aio_threads = (int)AIO_HOST_THREADS;
	ai.aio_num = (int)AIO_HOST_THREADS;
	ai.aio_idle_time = 1;
	aio_init(&ai);
}

int aio_host_init(void)
{
	return pthread_once(&aio_host_once, aio_host_pool) ? -EAGAIN : 0;
}

unsigned aio_host_threads(void)
{
	return AIO_HOST_THREADS;
}
#else
int aio_host_init(void)
{
	return 0;
}

unsigned aio_host_threads(void)
{
	return 0;
}
#endif

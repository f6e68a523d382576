/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_AIO_HOST_H
#define CLYDE_AIO_HOST_H

/*
 * What each system's POSIX AIO is underneath, read in its sources, for the
 * aio engine (engine_aio.c): whether it is asynchronous in the kernel
 * (--engine=auto may choose it only then), what the engine's description
 * says (no commas: it ends up in a CSV field), and whether each queue
 * slot needs a descriptor of its own.
 *
 * - FreeBSD (sys/kern/vfs_aio.c): the kernel's own AIO: disks by bio
 *   (aio_qbio), regular files on local mounts by the kernel's aiod
 *   daemons (aio_queue_file); files elsewhere (NFS) are refused with
 *   EOPNOTSUPP unless vfs.aio.enable_unsafe. Completions by kqueue.
 * - NetBSD (sys/kern/sys_aio.c): aio_procinit makes one aio worker lwp
 *   per process, which takes the process's queue first in, first out:
 *   depth 1 underneath.
 * - DragonFly (lib/librt/aio.c): the kernel's aio calls return ENOSYS
 *   (sys/kern/vfs_aio.c); librt does each request at once, synchronously,
 *   in aio_read itself, and its aio_suspend returns at once.
 * - glibc (sysdeps/pthread/aio_misc.c; rt/aio_misc.c is the stub for
 *   systems without threads): a pool of threads doing blocking pread and
 *   pwrite, requests on one descriptor in order on one thread: clyde
 *   gives each slot a dup(2) of the file and the pool threads enough for
 *   the depth (aio_init), so that the pool runs the depth asked for.
 */
#include <stdbool.h>

#if defined(__FreeBSD__)
#define AIO_HOST_IN_KERNEL	true
#define AIO_HOST_DUP_PER_SLOT	false
#define AIO_HOST_NOTE		"kernel AIO"
#elif defined(__NetBSD__)
#define AIO_HOST_IN_KERNEL	false
#define AIO_HOST_DUP_PER_SLOT	false
#define AIO_HOST_NOTE		"serial underneath: one aio worker per process (NetBSD)"
#elif defined(__DragonFly__)
#define AIO_HOST_IN_KERNEL	false
#define AIO_HOST_DUP_PER_SLOT	false
#define AIO_HOST_NOTE		"synchronous underneath: librt does each in aio_read (DragonFly)"
#elif defined(__GLIBC__)
#define AIO_HOST_IN_KERNEL	false
#define AIO_HOST_DUP_PER_SLOT	true
#define AIO_HOST_NOTE		"blocking I/O in glibc's threads underneath; a dup(2) per slot"
#else
#define AIO_HOST_IN_KERNEL	false
#define AIO_HOST_DUP_PER_SLOT	false
#define AIO_HOST_NOTE		"not known to be asynchronous here"
#endif

/*
 * Before the first request: let the library run depth requests at once
 * where it has a say (glibc's aio_init: its pool is fixed by the first
 * request, so one bound for every engine of the run). 0 or -errno.
 */
int aio_host_init(void);
/* The pool's threads at most, where aio_host_init sets it; 0 elsewhere. */
unsigned aio_host_threads(void);

#endif

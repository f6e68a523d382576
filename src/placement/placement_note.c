// SPDX-License-Identifier: BSD-2-Clause
/*
 * What every OS's placement layer shares: the note that says what the
 * kernel did with a request. Below the OS layers, which call it
 * (placement_buffer.c asks them, not this file).
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "placement/placement.h"

void place_note_add(char *note, size_t len, const char *fmt, ...)
{
	size_t used = strnlen(note, len);
	va_list ap;

	if (used + 1 >= len)
		return;
	if (used) {
		snprintf(note + used, len - used, "; ");
		used = strnlen(note, len);
	}
	va_start(ap, fmt);
	vsnprintf(note + used, len - used, fmt, ap);
	va_end(ap);
}

int place_fail(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static const char *errno_name(int err)
{
	switch (err) {
	case EPERM: return "EPERM";
	case ESRCH: return "ESRCH";
	case EFAULT: return "EFAULT";
	case EINVAL: return "EINVAL";
	case ENOMEM: return "ENOMEM";
	case EDEADLK: return "EDEADLK";
	case ENOSYS: return "ENOSYS";
	case EXDEV: return "EXDEV";
	case ENOTSUP: return "ENOTSUP";
	default: return NULL;
	}
}

void place_note_refused(char *note, size_t len, const char *what, int err)
{
	const char *name = errno_name(err);

	if (name)
		place_note_add(note, len, "%srefused: %s (%s)", what, strerror(err), name);
	else
		place_note_add(note, len, "%srefused: %s (errno %d)", what, strerror(err), err);
}

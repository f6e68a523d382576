/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_LEFTOVER_MARK_H
#define CLYDE_LEFTOVER_MARK_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/*
 * Every private directory carries a marker (LEFTOVER_MARKER: pid, host,
 * boot, process start, pid namespace, time, command line), so that a later
 * run can tell a directory whose clyde is gone from one in use (leftover.h
 * reads the markers). The writer and the facts it records live here, below
 * both workdir.c, which writes a marker into each directory it makes, and
 * leftover.c, which reads them and removes with the remover.
 */
#define LEFTOVER_MARKER ".clyde-run"

/* The command line the markers name (main sets it once). */
void leftover_set_command(int argc, char **argv);

/* Write the marker into a private directory just made. 0 or -errno. */
int leftover_mark(const char *workdir);

/* This host's name, "unknown" when it has none. */
void leftover_host_name(char *out, size_t len);

/* This boot's id (Linux); empty where the system has none to read. */
void leftover_boot_id(char *out, size_t len);

/*
 * When pid started, in clock ticks since boot (/proc/PID/stat field 22);
 * empty unknown. *dead: it is a zombie, killed but not yet reaped.
 */
void leftover_process_start(pid_t pid, char *out, size_t len, bool *dead);

/*
 * This process's pid namespace as "DEV:INO" of /proc/self/ns/pid (Linux);
 * -errno where the system has no such file: then nobody can tell.
 */
int leftover_pid_namespace(char *out, size_t len);

#endif

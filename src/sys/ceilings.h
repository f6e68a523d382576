/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_CEILINGS_H
#define CLYDE_CEILINGS_H

/*
 * --ceilings: what this machine allows at best, measured before the run:
 * one 1-byte write(2) to /dev/null (the floor under every per-char byte)
 * and memory copy bandwidth (the roof over cached block I/O).
 */
struct ceilings {
	double syscall_ns;	/* 0 when not measured */
	double copy_bytes_per_s;
};

int ceilings_measure(struct ceilings *c);

#endif

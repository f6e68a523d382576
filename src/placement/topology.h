/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_TOPOLOGY_H
#define CLYDE_TOPOLOGY_H

#include <stdint.h>

struct place_topology;

/* What the context line and the size defaults need: CPUs and memory. */
struct place_machine {
	unsigned cpus;		/* logical CPUs of the model (hwloc, sysfs or sysconf) */
	uint64_t ram_bytes;
};

void place_machine_get(struct place_machine *t, const struct place_topology *m);

#endif

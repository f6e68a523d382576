/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_TOPOLOGY_H
#define CLYDE_TOPOLOGY_H

#include <stdint.h>

struct topo_model;

/* What the context line and the size defaults need: CPUs and memory. */
struct topology {
	unsigned cpus;		/* logical CPUs of the model (hwloc, sysfs or sysconf) */
	uint64_t ram_bytes;
};

void topology_get(struct topology *t, const struct topo_model *m);

#endif

// SPDX-License-Identifier: BSD-2-Clause
/*
 * What a single process does for the cluster's calls, shared by
 * cluster_none.c and by cluster_mpi.c when not under mpirun.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cluster/cluster.h"

const char *local_host(void)
{
	static char host[64];

	if (!host[0]) {
		if (gethostname(host, sizeof(host) - 1) || !host[0])
			snprintf(host, sizeof(host), "unknown");
		host[sizeof(host) - 1] = '\0';
	}
	return host;
}

void local_meet(int status, const char *msg, struct cluster_failure *f)
{
	memset(f, 0, sizeof(*f));
	f->rank = status ? 0 : -1;
	f->err = status;
	snprintf(f->host, sizeof(f->host), "%s", status ? local_host() : "");
	snprintf(f->msg, sizeof(f->msg), "%s", status && msg ? msg : "");
}

// SPDX-License-Identifier: BSD-2-Clause
/*
 * --profile=layers without the BPF part: this build has no libbpf, no
 * clang with the BPF target or no bpftool (configure's --with-bpf), or
 * the system is not Linux. The run goes on; the split says why it is absent.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>

#include "profile/layers.h"

int layers_probe_open(struct layers_probe **out, const char *const *dev_names, unsigned ndev,
		      uint64_t fs_dev, char *why, size_t whylen)
{
	(void)dev_names;
	(void)ndev;
	(void)fs_dev;
	*out = NULL;
	snprintf(why, whylen, "not built: %s", CLYDE_BPF_MISSING);
	return -ENOTSUP;
}

void layers_probe_close(struct layers_probe *lp)
{
	(void)lp;
}

bool layers_probe_request_queue(const struct layers_probe *lp)
{
	(void)lp;
	return false;
}

const char *layers_probe_devs(const struct layers_probe *lp)
{
	(void)lp;
	return "";
}

void layers_probe_begin(struct layers_probe *lp)
{
	(void)lp;
}

void layers_probe_end(struct layers_probe *lp, struct layers_raw *raw)
{
	(void)lp;
	raw->valid = false;
}

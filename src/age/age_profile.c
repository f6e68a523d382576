// SPDX-License-Identifier: BSD-2-Clause
/*
 * --age's argument and its profiles: a built-in row (age_profiles.c) or a
 * file of buckets, checked whole before anything is written.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "age/age.h"
#include "lib/size.h"

static void profile_from_row(const struct age_profile_row *row, struct age_profile *out)
{
	memset(out, 0, sizeof(*out));
	snprintf(out->name, sizeof(out->name), "%s", row->name);
	out->nsize = row->nsize;
	memcpy(out->size, row->size, row->nsize * sizeof(row->size[0]));
	out->ndepth = row->ndepth;
	memcpy(out->depth, row->depth, row->ndepth * sizeof(row->depth[0]));
}

static int parse_weight(const char *text, uint32_t *out)
{
	int64_t v;

	if (!text || int_parse(text, &v) || v < 0 || v > 1000000)
		return -EINVAL;
	*out = (uint32_t)v;
	return 0;
}

/* One line of a profile file, its words already split; 0 or -EINVAL with why. */
static int profile_line(struct age_profile *p, char **word, unsigned n, const char **why)
{
	uint64_t low, high, depth;
	uint32_t weight;

	if (!strcmp(word[0], "size")) {
		if (n != 4 || size_parse(word[1], 1, &low) || size_parse(word[2], 1, &high) ||
		    parse_weight(word[3], &weight)) {
			*why = "want 'size LOW HIGH WEIGHT' (sizes with k, m or g; a weight "
			       "from 0 to 1000000)";
			return -EINVAL;
		}
		if (low > high) {
			*why = "LOW is above HIGH";
			return -EINVAL;
		}
		if (p->nsize >= AGE_BUCKETS_MAX) {
			*why = "too many size buckets (at most 32)";
			return -EINVAL;
		}
		p->size[p->nsize++] = (struct age_bucket){ low, high, weight };
		return 0;
	}
	if (!strcmp(word[0], "depth")) {
		if (n != 3 || size_parse(word[1], 1, &depth) || depth > AGE_DEPTH_MAX ||
		    parse_weight(word[2], &weight)) {
			*why = "want 'depth D WEIGHT' (D from 0 to 8)";
			return -EINVAL;
		}
		if (p->ndepth > AGE_DEPTH_MAX) {
			*why = "too many depth rows";
			return -EINVAL;
		}
		p->depth[p->ndepth++] = (struct age_depth_row){ (unsigned)depth, weight };
		return 0;
	}
	*why = "unknown keyword (size or depth)";
	return -EINVAL;
}

static int profile_load(const char *path, struct age_profile *p, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char line[512], *word[8], *save;
	const char *why = NULL;
	unsigned lineno = 0, n;
	uint64_t total;
	int ret = 0;

	if (!f) {
		ret = -errno;
		snprintf(err, errlen, "--age: profile %s: %s", path, strerror(-ret));
		return ret == -ENOENT ? -EINVAL : ret;
	}
	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", path);
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		line[strcspn(line, "#")] = '\0';
		n = 0;
		for (char *w = strtok_r(line, " \t\r\n", &save); w && n < 8;
		     w = strtok_r(NULL, " \t\r\n", &save))
			word[n++] = w;
		if (!n)
			continue;
		ret = profile_line(p, word, n, &why);
		if (ret) {
			snprintf(err, errlen, "--age: %s:%u: %s", path, lineno, why);
			goto close_file;
		}
	}
	total = 0;
	for (unsigned i = 0; i < p->nsize; i++)
		total += p->size[i].weight;
	if (!total) {
		snprintf(err, errlen, "--age: %s:%u: no size bucket with a weight above 0",
			 path, lineno);
		ret = -EINVAL;
		goto close_file;
	}
	total = 0;
	for (unsigned i = 0; i < p->ndepth; i++)
		total += p->depth[i].weight;
	if (p->ndepth && !total) {
		snprintf(err, errlen, "--age: %s:%u: the depth rows' weights are all 0",
			 path, lineno);
		ret = -EINVAL;
		goto close_file;
	}
	if (!p->ndepth)
		p->depth[p->ndepth++] = (struct age_depth_row){ 1, 1 };
close_file:
	fclose(f);
	return ret;
}

int age_profile_get(const char *name, struct age_profile *out, char *err, size_t errlen)
{
	if (strchr(name, '/'))
		return profile_load(name, out, err, errlen);
	for (unsigned i = 0; i < age_profile_count; i++) {
		if (!strcmp(age_profile_rows[i].name, name)) {
			profile_from_row(&age_profile_rows[i], out);
			return 0;
		}
	}
	snprintf(err, errlen, "--age: unknown profile '%s' (built in: agrawal, media; a file "
		 "of buckets is named by a path with a '/')", name);
	return -EINVAL;
}

int age_spec_parse(const char *arg, struct age_spec *spec, char *err, size_t errlen)
{
	char full[64], churn[64];
	const char *c1 = strchr(arg, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
	const char *profile = c2 ? c2 + 1 : "agrawal";
	size_t n1 = c1 ? (size_t)(c1 - arg) : strlen(arg);
	char *end;

	if (n1 >= sizeof(full) || (c1 && (size_t)((c2 ? c2 : c1 + strlen(c1)) - c1 - 1) >= sizeof(churn)))
		goto bad;
	memcpy(full, arg, n1);
	full[n1] = '\0';
	if (n1 && full[n1 - 1] == '%')
		full[n1 - 1] = '\0';
	errno = 0;
	spec->full_pct = strtod(full, &end);
	if (!full[0] || *end || errno || !(spec->full_pct > 0)) {
		snprintf(err, errlen, "--age: FULL '%s' must be a percentage above 0 and at most "
			 "%g", full, AGE_FULL_MAX);
		return -EINVAL;
	}
	if (spec->full_pct > AGE_FULL_MAX) {
		snprintf(err, errlen, "--age: FULL %g%% is above %g%%: the phases and the file "
			 "system's own allocations need room", spec->full_pct, AGE_FULL_MAX);
		return -EINVAL;
	}
	spec->churn = 2;
	if (c1) {
		size_t n2 = (size_t)((c2 ? c2 : c1 + 1 + strlen(c1 + 1)) - (c1 + 1));

		memcpy(churn, c1 + 1, n2);
		churn[n2] = '\0';
		errno = 0;
		spec->churn = strtod(churn, &end);
		if (!churn[0] || *end || errno || spec->churn < 0 || spec->churn > 100) {
			snprintf(err, errlen, "--age: CHURN '%s' must be a number from 0 to 100 "
				 "(capacities written after the fill)", churn);
			return -EINVAL;
		}
	}
	if (!*profile) {
		snprintf(err, errlen, "--age: the PROFILE after the second ':' is empty");
		return -EINVAL;
	}
	snprintf(spec->profile_name, sizeof(spec->profile_name), "%s", profile);
	spec->on = true;
	return age_profile_get(profile, &spec->profile, err, errlen);
bad:
	snprintf(err, errlen, "--age: '%s' is not FULL[%%][:CHURN[:PROFILE]]", arg);
	return -EINVAL;
}

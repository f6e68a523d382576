// SPDX-License-Identifier: BSD-2-Clause
/*
 * libFuzzer target for clyde's command line. The input is split into
 * words at every NUL or newline (at most MAX_WORDS, after "clyde"), each
 * word its own allocation, and parsed by options_defaults + options_parse
 * three times: twice from fresh copies, the first freed before the
 * second runs (a parser that keeps state or a pointer from the last call,
 * as getopt does inside "-qf", then reads freed memory or parses
 * differently), and once more with an 8-byte message buffer. The three
 * must agree; a successful parse must leave every field within the limits
 * options.c and option_sizes.c enforce, and every string pointing into
 * the argument vector or at its default. A violation is reported and
 * aborts. Built and run by .ci/fuzz-report (clang
 * -fsanitize=fuzzer,address,undefined), not by make.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clyde/options.h"
#include "engines/engine.h"
#include "placement/placement.h"
#include "tree/tree.h"

#define MAX_WORDS	64
#define SMALL_ERR	8

struct args {
	int argc;
	char *argv[MAX_WORDS + 2];	/* getopt may permute these */
	char *word[MAX_WORDS + 1];	/* the same words, in input order */
};

static void args_free(struct args *a)
{
	for (int i = 0; i < a->argc; i++)
		free(a->word[i]);
	a->argc = 0;
}

static char *word_dup(const uint8_t *p, size_t n)
{
	char *w = malloc(n + 1);

	if (!w)
		return NULL;
	memcpy(w, p, n);
	w[n] = '\0';
	return w;
}

static int args_add(struct args *a, const uint8_t *p, size_t n)
{
	char *w;

	if (a->argc > MAX_WORDS)
		return 0;
	w = word_dup(p, n);
	if (!w)
		return -ENOMEM;
	a->word[a->argc] = w;
	a->argv[a->argc++] = w;
	a->argv[a->argc] = NULL;
	return 0;
}

/* "clyde", then a word per NUL or newline; a final separator ends the last word. */
static int args_split(struct args *a, const uint8_t *data, size_t size)
{
	size_t start = 0;

	a->argc = 0;
	if (args_add(a, (const uint8_t *)"clyde", 5))
		return -ENOMEM;
	for (size_t i = 0; i < size; i++) {
		if (data[i] != '\0' && data[i] != '\n')
			continue;
		if (args_add(a, data + start, i - start))
			goto nomem;
		start = i + 1;
	}
	if (start < size && args_add(a, data + start, size - start))
		goto nomem;
	return 0;
nomem:
	args_free(a);
	return -ENOMEM;
}

static void violated(const char *what, const struct args *a)
{
	fprintf(stderr, "fuzz_options: %s; argv:", what);
	for (int i = 0; i < a->argc; i++)
		fprintf(stderr, " '%s'", a->word[i]);
	fputc('\n', stderr);
	abort();
}

#define INV(cond) do {					\
	if (!(cond))					\
		violated("invariant " #cond, a);	\
} while (0)

static bool is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

/* NULL, the default's own pointer, or somewhere inside one of the words. */
static bool owned(const char *p, const char *dflt, const struct args *a)
{
	if (!p || p == dflt)
		return true;
	for (int i = 0; i < a->argc; i++) {
		const char *w = a->word[i];

		if (p >= w && p <= w + strlen(w))
			return true;
	}
	return false;
}

/* What a successful parse guarantees (src/clyde/options.c, option_sizes.c, options.h). */
static void check_options(const struct clyde_options *o, const struct args *a)
{
	struct clyde_options d;
	const struct engine_ops *eng;
	const struct tree_shape *shape;
	struct place_mask mask;
	double scale;
	char err[256];

	options_defaults(&d);
	INV(o->dir && *o->dir && owned(o->dir, d.dir, a));
	INV(o->size_bytes <= MAX_SIZE_MIB << 20 && (o->size_given || !o->size_bytes));
	INV(is_pow2(o->chunk) && o->chunk >= MIN_CHUNK && o->chunk <= MAX_CHUNK);
	INV(o->seeks >= 1 && o->seeks <= MAX_SEEKS);
	INV(o->seekers >= 1 && o->seekers <= MAX_SEEKERS);
	INV(o->files <= MAX_FILES);
	INV(o->file_max >= -2 && o->file_max <= MAX_FILE_SIZE);
	INV(o->file_min >= 0 && (o->file_max < 0 ? !o->file_min : o->file_min <= o->file_max));
	INV(o->file_dirs >= 1 && o->file_dirs <= MAX_FILE_DIRS);
	INV(is_pow2(o->file_chunk) && o->file_chunk >= MIN_CHUNK && o->file_chunk <= MAX_CHUNK);
	INV(!o->name || (*o->name && strlen(o->name) <= MAX_NAME_LEN &&
			 !strpbrk(o->name, ",\n\r")));
	INV(owned(o->name, NULL, a));
	INV(o->ram_bytes <= MAX_SIZE_MIB << 20 && (o->ram_given || !o->ram_bytes));
	INV(o->repeats >= 1 && o->repeats <= MAX_REPEATS && (o->repeats_given || o->repeats == 1));
	INV(!o->user || (*o->user && owned(o->user, NULL, a)));
	INV(owned(o->group, NULL, a));
	INV(o->perchar_bytes >= MIN_PERCHAR_BYTES && o->perchar_bytes <= MAX_PERCHAR_BYTES);
	INV(o->seed_given || !o->seed);
	INV(!(o->seed_given && o->seed_file) && owned(o->seed_file, NULL, a));
	INV(o->concurrency >= 1 && o->concurrency <= MAX_CONCURRENCY);
	INV(o->sem_procs_given ? o->sem_procs == -1 ||
	    (o->sem_procs >= 1 && o->sem_procs <= MAX_SEM_PROCS) : !o->sem_procs);
	INV((unsigned)o->sync <= SYNC_PROMPT && (!o->sem_procs_given || o->sync == SYNC_NONE));
	INV((unsigned)o->cache <= CACHE_SYSTEM);
	INV((unsigned)o->perchar <= PERCHAR_STDIO);
	INV(o->engine && owned(o->engine, d.engine, a));
	eng = engine_find(o->engine);
	INV(eng || !strcmp(o->engine, "auto"));
	INV(o->iodepth >= 1 && o->iodepth <= MAX_IODEPTH && (o->iodepth_given || o->iodepth == 1));
	INV(!eng || (eng->flags & ENGINE_F_QUEUED) || o->iodepth == 1);
	INV(o->seek_updates <= 100);
	INV(!o->json || (*o->json && owned(o->json, NULL, a)));
	INV((unsigned)o->data <= DATA_COMPRESSIBLE && o->data_zero_pct <= 100);
	INV(!o->profile_dev || (*o->profile_dev && o->profile && owned(o->profile_dev, NULL, a)));
	INV((unsigned)o->place.bind <= BIND_NUMA);
	INV(!o->place.cpus || (!place_mask_parse(o->place.cpus, &mask) && owned(o->place.cpus, NULL, a)));
	INV(o->place.numa_node == PLACE_NUMA_NODE_NONE || o->place.numa_node == PLACE_NUMA_NODE_DEVICE ||
	    (o->place.numa_node >= 0 && o->place.numa_node < PLACE_MAX_NODES));
	INV((unsigned)o->place.mem <= MEM_BIND);
	INV(o->place.mem != MEM_BIND || (o->place.mem_node >= 0 && o->place.mem_node < PLACE_MAX_NODES));
	INV(!o->tree || (!tree_parse_spec(o->tree, &shape, &scale, err, sizeof(err)) &&
			 shape == o->tree_shape && scale == o->tree_scale &&
			 owned(o->tree, NULL, a)));
	INV(!o->tree == !o->tree_shape);
	INV(o->tree || (!o->tree_list && o->tree_seed == DEFAULT_TREE_SEED));
	INV(o->stonewall_s == 0 ||
	    (o->stonewall_s >= MIN_STONEWALL_S && o->stonewall_s <= MAX_STONEWALL_S));
	INV(o->read_other == 0 || (o->read_other >= 1 && o->read_other <= MAX_READ_OTHER));
}

static bool str_same(const char *x, const char *y)
{
	return x == y || (x && y && !strcmp(x, y));
}

/* The first field in which two parses differ, or NULL. */
static const char *differs(const struct clyde_options *x, const struct clyde_options *y)
{
#define SAME(f)		do { if (x->f != y->f) return #f; } while (0)
#define SAME_STR(f)	do { if (!str_same(x->f, y->f)) return #f; } while (0)
	SAME_STR(dir);
	SAME(size_given);
	SAME(size_bytes);
	SAME(chunk);
	SAME(seeks);
	SAME(seeks_given);
	SAME(seekers);
	SAME(files);
	SAME(files_given);
	SAME(file_max);
	SAME(file_min);
	SAME(file_dirs);
	SAME(file_chunk);
	SAME_STR(name);
	SAME(ram_given);
	SAME(ram_bytes);
	SAME(repeats);
	SAME(repeats_given);
	SAME_STR(user);
	SAME_STR(group);
	SAME(quiet);
	SAME(skip_perchar);
	SAME(perchar_bytes);
	SAME(fsync_each);
	SAME(direct);
	SAME(seed_given);
	SAME(seed);
	SAME_STR(seed_file);
	SAME(concurrency);
	SAME(sem_procs_given);
	SAME(sem_procs);
	SAME(sync);
	SAME(cache);
	SAME(perchar);
	SAME(exact);
	SAME_STR(engine);
	SAME(iodepth);
	SAME(iodepth_given);
	SAME(seek_updates);
	SAME_STR(json);
	SAME(latency_table);
	SAME(cpu_table);
	SAME(data);
	SAME(data_zero_pct);
	SAME(verify);
	SAME(ceilings);
	SAME(profile);
	SAME_STR(profile_dev);
	SAME(place.bind);
	SAME_STR(place.cpus);
	SAME(place.numa_node);
	SAME(place.mem);
	SAME(place.mem_node);
	SAME_STR(tree);
	SAME(tree_shape);
	SAME(tree_scale);
	SAME(tree_seed);
	SAME(tree_list);
	SAME(stonewall_s);
	SAME(read_other);
	SAME(warmup);
	SAME(plan_only);
	SAME(help);
	SAME(version);
	return NULL;
#undef SAME
#undef SAME_STR
}

struct outcome {
	int r;
	char err[512];
	struct clyde_options o;
	char *strings;		/* detach()'s copies of o's strings */
};

/* Point o's strings at copies of their own, so the words can be freed. */
static int detach(struct outcome *out)
{
	struct clyde_options *o = &out->o;
	const char **field[] = {
		&o->dir, &o->name, &o->user, &o->group, &o->seed_file, &o->engine,
		&o->json, &o->profile_dev, &o->place.cpus, &o->tree,
	};
	size_t n = sizeof(field) / sizeof(field[0]), total = 1;
	char *p;

	for (size_t i = 0; i < n; i++)
		total += *field[i] ? strlen(*field[i]) + 1 : 0;
	p = out->strings = malloc(total);
	if (!p)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		size_t len;

		if (!*field[i])
			continue;
		len = strlen(*field[i]) + 1;
		memcpy(p, *field[i], len);
		*field[i] = p;
		p += len;
	}
	return 0;
}

static void parse(struct args *a, struct outcome *out, char *err, size_t errlen)
{
	options_defaults(&out->o);
	err[0] = '\0';
	out->r = options_parse(&out->o, a->argc, a->argv, err, errlen);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct outcome first, second, third;
	struct args one, two, *a = &two;
	const char *field;
	char *small;

	if (args_split(&one, data, size))
		return 0;
	parse(&one, &first, first.err, sizeof(first.err));
	if (!first.r)
		check_options(&first.o, &one);
	if (detach(&first)) {
		args_free(&one);
		return 0;
	}
	args_free(&one);	/* the second parse must not need the first's words */

	if (args_split(&two, data, size)) {
		free(first.strings);
		return 0;
	}
	parse(&two, &second, second.err, sizeof(second.err));
	if (second.r != 0 && second.r != -EINVAL)
		violated("options_parse returned neither 0 nor -EINVAL", a);
	if (second.r && !second.err[0])
		violated("options_parse failed without a message", a);
	if (!second.r)
		check_options(&second.o, &two);
	if (first.r != second.r || strcmp(first.err, second.err))
		violated("a second parse of the same words answered differently", a);
	field = differs(&first.o, &second.o);
	if (field) {
		fprintf(stderr, "fuzz_options: field %s\n", field);
		violated("a second parse of the same words set a field differently", a);
	}

	free(first.strings);

	/* The third into a buffer of SMALL_ERR bytes: truncated, terminated, the same. */
	args_free(&two);
	if (args_split(&two, data, size))
		return 0;
	small = malloc(SMALL_ERR);
	if (small) {
		parse(&two, &third, small, SMALL_ERR);
		if (third.r != second.r)
			violated("a parse with a small message buffer answered differently", a);
		if (third.r && (strlen(small) >= SMALL_ERR ||
				strncmp(small, second.err, SMALL_ERR - 1)))
			violated("the message in a small buffer is not the message's start", a);
		free(small);
	}
	args_free(&two);
	return 0;
}

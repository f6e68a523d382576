/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_PROFILE_STACKS_LAYERS_H
#define CLYDE_PROFILE_STACKS_LAYERS_H

#include <stddef.h>
#include <stdint.h>

#include "profile/profile.h"
#include "profile/stacks.h"

/*
 * --profile=stacks read: each sample of a phase's stack_set given to one
 * layer (system-call entry, VFS, page cache, the filesystem, ...) by a
 * table a user can read and extend (data/layers, clyde(1) LAYERS), and
 * the phase summed up by layer and by function. Pure functions of a set
 * and a table; the unit tests feed them crafted sets.
 */

#define LAYER_NAME_LEN		32
/* A table bigger than this is no table (the shipped one is about 6 KiB). */
#define LAYER_TABLE_MAX_BYTES	(1 << 20)
#define STACK_MAX_LAYERS	48	/* the table's layers and the built-in ones */
#define STACK_TOP_FUNCS		10
/* The folded stacks a summary keeps; the rest merged into STACK_REMAINDER. */
#define STACK_FOLDED_MAX	2000
#define STACK_REMAINDER		"[other stacks]"

/* The layers no table row names: where a sample went when no frame said. */
#define LAYER_OTHER_PROCS	"other-processes"
#define LAYER_UNKNOWN		"unknown"
/* A row of this name passes its frames to their caller (memcpy, copy_to_iter ...). */
#define LAYER_GENERIC		"-"

/* One pattern of a row: '*' stands for any run of characters. */
struct layer_pattern {
	char *glob;
	unsigned layer;		/* index in the table's names; LAYER_PASS for "-" */
	bool kernel;		/* matches kernel frames ("_[k]"), else user frames */
};

#define LAYER_PASS	UINT32_MAX

struct layer_table {
	struct layer_pattern *pat;	/* in the file's order: the first match wins */
	size_t npat, cap;
	unsigned nlayers;		/* the table's own, then the two built-in ones */
	char name[STACK_MAX_LAYERS][LAYER_NAME_LEN];
};

struct stack_layer {
	char name[LAYER_NAME_LEN];
	uint64_t samples;
	double share;		/* of the phase's sampled CPU (idle apart): they add up to 1 */
	double cpu_s;		/* samples x period_s */
};

struct stack_func {
	char *name;		/* the frame as folded ("vfs_write_[k]") */
	uint64_t self;		/* samples it was the sampled function of */
	uint64_t total;		/* samples it was on the stack of, once a stack */
};

/* The tasks stack_summary names of the CPU no snapshot counted. */
#define STACK_UNSEEN_MAX	5
#define STACK_FUNC_LEN		96

/*
 * CPU in tasks clyde's snapshots did not count (stack_entry.unseen: they
 * exited, or came and went, during the phase), by task: its name (a
 * kworker's without its number, by the workqueue it names where it does)
 * and the function most of its samples were in, with that stack's layer.
 */
struct stack_unseen {
	char task[PROF_COMM_LEN];
	char func[STACK_FUNC_LEN];	/* as folded ("btrfs_work_helper_[k]") */
	char layer[LAYER_NAME_LEN];
	uint64_t samples;
	double cpu_s;
};

struct stack_folded {
	char *folded;
	uint64_t count;
	char layer[LAYER_NAME_LEN];	/* "" for the remainder: many layers */
};

/*
 * One phase's stacks summed up: one block with its folded stacks and
 * names, freed with free() (the phase's prof_phase owns it).
 */
struct stack_summary {
	double period_s;
	uint64_t samples;	/* the counts' sum: the layers' sum */
	uint64_t idle;
	uint64_t other;		/* other processes' samples, apart */
	uint64_t lost;
	double drain_cpu_s;	/* the folds during the phase, in clyde's CPU (stacks.h) */
	uint64_t drain_wakeups;
	unsigned nlayers;	/* only layers with samples, in the table's order */
	struct stack_layer layer[STACK_MAX_LAYERS];
	unsigned nself, ntotal;
	struct stack_func top_self[STACK_TOP_FUNCS];
	struct stack_func top_total[STACK_TOP_FUNCS];
	size_t nfolded;		/* by count, then text; a remainder last where capped */
	struct stack_folded *folded;
	uint64_t folded_merged;	/* distinct stacks merged into the remainder */
	/* tasks no snapshot counted: all their samples, the largest tasks named */
	uint64_t unseen_samples;
	unsigned nunseen;
	struct stack_unseen unseen[STACK_UNSEEN_MAX];
};

/*
 * Read a layer table from text (file names the source in messages).
 * 0, or -EINVAL with "FILE:LINE: what" in err, or -ENOMEM.
 */
int layer_table_parse(struct layer_table *t, const char *text, const char *file, char *err,
		      size_t errlen);
/*
 * The same from a file: a regular file (no FIFO or device, which could
 * block or never end) of LAYER_TABLE_MAX_BYTES at most; -errno with the
 * file named where it cannot be read, -EINVAL where it is no such file.
 */
int layer_table_load(struct layer_table *t, const char *path, char *err, size_t errlen);
/* The table clyde uses: $CLYDE_LAYERS where set, else the installed one. */
const char *layer_table_path(void);
void layer_table_free(struct layer_table *t);

/* A folded stack's layer (its index in t->name), its task's group said. */
unsigned layer_of_stack(const struct layer_table *t, const char *folded, enum prof_group group);

/* The summary of a set into *out (one block: free() it); 0 or -ENOMEM, *out NULL. */
int stacks_summarize(const struct stack_set *set, const struct layer_table *t,
		     struct stack_summary **out);

/*
 * At a phase's end: the summary of its set into pp->stacks, in place of
 * any before (run_result_release frees it). 0 or -ENOMEM.
 */
int prof_stacks_finish(struct prof_phase *pp, const struct stack_set *set,
		       const struct layer_table *t);

#endif

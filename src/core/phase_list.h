/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_PHASE_LIST_H
#define CLYDE_PHASE_LIST_H

/*
 * Every phase, one row each: bonnie++'s twelve, then clyde's own tree
 * phases; a new phase goes after the last row. An id is a phase's number
 * for good: a stored run's identity in clyde-report's history is made of
 * them (read_json.c), so no row moves and none goes in between. This list
 * is the only place a phase is named: each user expands it with its own
 * PHASE(...)
 *
 *   enum phase_id (core/clyde.h)          takes the ids,
 *   the registry (core/phase_registry.c)  the rest but the functions,
 *   the phase ops (phases/phase_ops.c)    the function and cleanup per id,
 *   phases/bench.h                        their declarations,
 *
 * so core, which clyde-report links, never references a phase function,
 * and a new phase is one file in src/phases/ and one row here. (C11 has no
 * constructors to gather rows from the files themselves; an X-macro keeps
 * the one list in one place without them.)
 *
 * PHASE(id, kind, slot, short_name, name, csv_name, row_name, progress,
 *       unit, family, flags, box_s, cost, fn, cleanup):
 * kind what the phase is (KIND_*, core/phase.h): bonnie++'s, clyde's own
 * or --tree's, and so where every output puts it; slot its fixed place
 * in bonnie++'s CSV and table (SLOT_*; SLOT_NONE for all but bonnie++'s
 * twelve); short_name its cell's head within its kind's table (bonnie++'s
 * column, the tree table's row); name in messages; csv_name in bonnie++'s
 * CSV and the JSON; row_name in clyde's extra tables; progress as bonnie++
 * prints it; flags PF_* (core/phase.h); box_s the default run's time box
 * (0: none; core/plan.h), set only when clyde chose the family's amount;
 * cost the plan's model of its time (COST_*, core/phase.h); fn runs it on
 * one worker; cleanup frees the family's per-worker state after the last
 * run (phase_no_cleanup: none).
 */
#define PHASE_LIST(PHASE) \
	PHASE(PH_PUTC, KIND_BONNIE, SLOT_PUTC, "Per Chr", \
	      "per-char write", "putc", "Per-char write", "Writing a byte at a time", \
	      UNIT_KIB, FAMILY_PERCHAR, PF_IO_FILE | PF_DATA_WRITE | PF_STONEWALL, \
	      BOX_PERCHAR_S, COST_PERCHAR_WRITE, phase_putc, phase_no_cleanup) \
	PHASE(PH_PUT_BLOCK, KIND_BONNIE, SLOT_PUT_BLOCK, "Block", \
	      "block write", "put_block", "Block write", "Writing intelligently", \
	      UNIT_KIB, FAMILY_BLOCK, \
	      PF_IO_FILE | PF_DATA_WRITE | PF_STONEWALL | PF_CUT_SETS_AMOUNT | PF_STEADY | \
	      PF_LAYS_OUT_FILE, \
	      BOX_WRITE_S, COST_BLOCK_WRITE, phase_put_block, phase_no_cleanup) \
	PHASE(PH_REWRITE, KIND_BONNIE, SLOT_REWRITE, "Rewrite", \
	      "rewrite", "rewrite", "Rewrite", "Rewriting", \
	      UNIT_KIB, FAMILY_BLOCK, \
	      PF_READS_FILE | PF_IO_FILE | PF_DATA_READ | PF_DATA_WRITE | PF_STONEWALL | \
	      PF_STEADY, \
	      BOX_REWRITE_S, COST_REWRITE, phase_rewrite, phase_no_cleanup) \
	PHASE(PH_GETC, KIND_BONNIE, SLOT_GETC, "Per Chr", \
	      "per-char read", "getc", "Per-char read", "Reading a byte at a time", \
	      UNIT_KIB, FAMILY_PERCHAR, \
	      PF_READS_FILE | PF_IO_FILE | PF_DATA_READ | PF_STONEWALL | PF_READS_OTHER_RANK, \
	      BOX_PERCHAR_S, COST_PERCHAR_READ, phase_getc, phase_no_cleanup) \
	PHASE(PH_GET_BLOCK, KIND_BONNIE, SLOT_GET_BLOCK, "Block", \
	      "block read", "get_block", "Block read", "Reading intelligently", \
	      UNIT_KIB, FAMILY_BLOCK, \
	      PF_READS_FILE | PF_IO_FILE | PF_DATA_READ | PF_STONEWALL | PF_READS_OTHER_RANK | \
	      PF_STEADY, \
	      BOX_READ_S, COST_BLOCK_READ, phase_get_block, phase_no_cleanup) \
	PHASE(PH_SEEKS, KIND_BONNIE, SLOT_SEEKS, "Seeks", \
	      "random seeks", "seeks", "Random seeks", "Random seeks", \
	      UNIT_SEEK, FAMILY_SEEK, PF_READS_FILE | PF_IO_FILE | PF_STEADY, \
	      0, COST_SEEKS, phase_seeks, phase_no_cleanup) \
	PHASE(PH_SEQ_CREATE, KIND_BONNIE, SLOT_SEQ_CREATE, "Create", \
	      "sequential create", "seq_create", "Seq create", \
	      "Create files in sequential order", UNIT_FILE, FAMILY_FILE, PF_CUT_SETS_AMOUNT, \
	      BOX_CREATE_S, COST_CREATE, phase_seq_create, phase_file_cleanup) \
	PHASE(PH_SEQ_STAT, KIND_BONNIE, SLOT_SEQ_STAT, "Read", \
	      "sequential stat", "seq_stat", "Seq stat/read", \
	      "Stat files in sequential order", UNIT_FILE, FAMILY_FILE, 0, \
	      0, COST_STAT, phase_seq_stat, phase_file_cleanup) \
	PHASE(PH_SEQ_DEL, KIND_BONNIE, SLOT_SEQ_DEL, "Delete", \
	      "sequential delete", "seq_del", "Seq delete", \
	      "Delete files in sequential order", UNIT_FILE, FAMILY_FILE, 0, \
	      0, COST_DELETE, phase_seq_del, phase_file_cleanup) \
	PHASE(PH_RAN_CREATE, KIND_BONNIE, SLOT_RAN_CREATE, "Create", \
	      "random create", "ran_create", "Random create", \
	      "Create files in random order", UNIT_FILE, FAMILY_FILE, 0, \
	      BOX_CREATE_S, COST_RANDOM_CREATE, phase_ran_create, phase_file_cleanup) \
	PHASE(PH_RAN_STAT, KIND_BONNIE, SLOT_RAN_STAT, "Read", \
	      "random stat", "ran_stat", "Random stat/read", \
	      "Stat files in random order", UNIT_FILE, FAMILY_FILE, 0, \
	      0, COST_STAT, phase_ran_stat, phase_file_cleanup) \
	PHASE(PH_RAN_DEL, KIND_BONNIE, SLOT_RAN_DEL, "Delete", \
	      "random delete", "ran_del", "Random delete", \
	      "Delete files in random order", UNIT_FILE, FAMILY_FILE, 0, \
	      0, COST_DELETE, phase_ran_del, phase_file_cleanup) \
	PHASE(PH_TREE_EXTRACT, KIND_TREE, SLOT_NONE, "Extract", \
	      "tree extract", "tree_extract", "Tree extract", \
	      "Extracting the tree", UNIT_FILE, FAMILY_TREE, PF_TREE_DATA | PF_DATA_WRITE, \
	      0, COST_NONE, phase_tree_extract, phase_tree_cleanup) \
	PHASE(PH_TREE_COPY, KIND_TREE, SLOT_NONE, "Copy", \
	      "tree copy", "tree_copy", "Tree copy", \
	      "Copying the tree", UNIT_FILE, FAMILY_TREE, \
	      PF_READS_TREE | PF_TREE_DATA | PF_DATA_READ | PF_DATA_WRITE, \
	      0, COST_NONE, phase_tree_copy, phase_tree_cleanup) \
	PHASE(PH_TREE_WALK, KIND_TREE, SLOT_NONE, "Walk", \
	      "tree walk", "tree_walk", "Tree walk", \
	      "Walking the tree", UNIT_FILE, FAMILY_TREE, 0, \
	      0, COST_NONE, phase_tree_walk, phase_tree_cleanup) \
	PHASE(PH_TREE_READ, KIND_TREE, SLOT_NONE, "Read", \
	      "tree read", "tree_read", "Tree read", \
	      "Reading the tree", UNIT_FILE, FAMILY_TREE, \
	      PF_READS_TREE | PF_TREE_DATA | PF_DATA_READ, \
	      0, COST_NONE, phase_tree_read, phase_tree_cleanup) \
	PHASE(PH_TREE_DELETE, KIND_TREE, SLOT_NONE, "Delete", \
	      "tree delete", "tree_delete", "Tree delete", \
	      "Deleting the trees", UNIT_FILE, FAMILY_TREE, 0, \
	      0, COST_NONE, phase_tree_delete, phase_tree_cleanup)

#endif

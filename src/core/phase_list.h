/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_PHASE_LIST_H
#define CLYDE_PHASE_LIST_H

/*
 * Every phase, one row each, in bonnie++'s order (the CSV, the table and
 * the JSON follow it), then clyde's own tree phases. This list is the only
 * place a phase is named: each user expands it with its own PHASE(...)
 *
 *   enum phase_id (core/clyde.h)          takes the ids,
 *   the registry (core/phase_registry.c)  the names, unit, family, flags
 *                                         and time box, not the functions,
 *   the phase ops (phases/phase_ops.c)    the function and cleanup per id,
 *   phases/bench.h                        their declarations,
 *
 * so core, which clyde-report links, never references a phase function,
 * and a new phase is one file in src/phases/ and one row here. (C11 has no
 * constructors to gather rows from the files themselves; an X-macro keeps
 * the one list in one place without them.)
 *
 * PHASE(id, name, csv_name, row_name, progress, unit, family, flags, box_s,
 *       cost, fn, cleanup): name in messages; csv_name in bonnie++'s CSV
 * and the JSON; row_name in clyde's extra tables; progress as bonnie++
 * prints it; flags PF_* (core/phase.h); box_s the default run's time box
 * (0: none; core/plan.h), set only when clyde chose the family's amount;
 * cost the plan's model of its time (COST_*, core/phase.h); fn runs it on
 * one worker; cleanup frees the family's per-worker state after the last
 * run (phase_no_cleanup: none).
 */
#define PHASE_LIST(PHASE) \
	PHASE(PH_PUTC, "per-char write", "putc", "Per-char write", "Writing a byte at a time", \
	      UNIT_KIB, FAMILY_PERCHAR, PF_IO_FILE | PF_DATA_WRITE | PF_STONEWALL, \
	      BOX_PERCHAR_S, COST_PERCHAR_WRITE, phase_putc, phase_no_cleanup) \
	PHASE(PH_PUT_BLOCK, "block write", "put_block", "Block write", "Writing intelligently", \
	      UNIT_KIB, FAMILY_BLOCK, \
	      PF_IO_FILE | PF_DATA_WRITE | PF_STONEWALL | PF_CUT_SETS_AMOUNT | PF_STEADY, \
	      BOX_WRITE_S, COST_BLOCK_WRITE, phase_put_block, phase_no_cleanup) \
	PHASE(PH_REWRITE, "rewrite", "rewrite", "Rewrite", "Rewriting", \
	      UNIT_KIB, FAMILY_BLOCK, \
	      PF_READS_FILE | PF_IO_FILE | PF_DATA_READ | PF_DATA_WRITE | PF_STONEWALL | \
	      PF_STEADY, \
	      BOX_REWRITE_S, COST_REWRITE, phase_rewrite, phase_no_cleanup) \
	PHASE(PH_GETC, "per-char read", "getc", "Per-char read", "Reading a byte at a time", \
	      UNIT_KIB, FAMILY_PERCHAR, \
	      PF_READS_FILE | PF_IO_FILE | PF_DATA_READ | PF_STONEWALL | PF_READS_OTHER_RANK, \
	      BOX_PERCHAR_S, COST_PERCHAR_READ, phase_getc, phase_no_cleanup) \
	PHASE(PH_GET_BLOCK, "block read", "get_block", "Block read", "Reading intelligently", \
	      UNIT_KIB, FAMILY_BLOCK, \
	      PF_READS_FILE | PF_IO_FILE | PF_DATA_READ | PF_STONEWALL | PF_READS_OTHER_RANK | \
	      PF_STEADY, \
	      BOX_READ_S, COST_BLOCK_READ, phase_get_block, phase_no_cleanup) \
	PHASE(PH_SEEKS, "random seeks", "seeks", "Random seeks", "Random seeks", \
	      UNIT_SEEK, FAMILY_SEEK, PF_READS_FILE | PF_IO_FILE | PF_STEADY, \
	      0, COST_SEEKS, phase_seeks, phase_no_cleanup) \
	PHASE(PH_SEQ_CREATE, "sequential create", "seq_create", "Seq create", \
	      "Create files in sequential order", UNIT_FILE, FAMILY_FILE, PF_CUT_SETS_AMOUNT, \
	      BOX_CREATE_S, COST_CREATE, phase_seq_create, phase_file_cleanup) \
	PHASE(PH_SEQ_STAT, "sequential stat", "seq_stat", "Seq stat/read", \
	      "Stat files in sequential order", UNIT_FILE, FAMILY_FILE, 0, \
	      0, COST_STAT, phase_seq_stat, phase_file_cleanup) \
	PHASE(PH_SEQ_DEL, "sequential delete", "seq_del", "Seq delete", \
	      "Delete files in sequential order", UNIT_FILE, FAMILY_FILE, 0, \
	      0, COST_DELETE, phase_seq_del, phase_file_cleanup) \
	PHASE(PH_RAN_CREATE, "random create", "ran_create", "Random create", \
	      "Create files in random order", UNIT_FILE, FAMILY_FILE, 0, \
	      BOX_CREATE_S, COST_RANDOM_CREATE, phase_ran_create, phase_file_cleanup) \
	PHASE(PH_RAN_STAT, "random stat", "ran_stat", "Random stat/read", \
	      "Stat files in random order", UNIT_FILE, FAMILY_FILE, 0, \
	      0, COST_STAT, phase_ran_stat, phase_file_cleanup) \
	PHASE(PH_RAN_DEL, "random delete", "ran_del", "Random delete", \
	      "Delete files in random order", UNIT_FILE, FAMILY_FILE, 0, \
	      0, COST_DELETE, phase_ran_del, phase_file_cleanup) \
	PHASE(PH_TREE_EXTRACT, "tree extract", "tree_extract", "Tree extract", \
	      "Extracting the tree", UNIT_FILE, FAMILY_TREE, PF_TREE_DATA | PF_DATA_WRITE, \
	      0, COST_NONE, phase_tree_extract, phase_tree_cleanup) \
	PHASE(PH_TREE_COPY, "tree copy", "tree_copy", "Tree copy", \
	      "Copying the tree", UNIT_FILE, FAMILY_TREE, \
	      PF_READS_TREE | PF_TREE_DATA | PF_DATA_READ | PF_DATA_WRITE, \
	      0, COST_NONE, phase_tree_copy, phase_tree_cleanup) \
	PHASE(PH_TREE_WALK, "tree walk", "tree_walk", "Tree walk", \
	      "Walking the tree", UNIT_FILE, FAMILY_TREE, 0, \
	      0, COST_NONE, phase_tree_walk, phase_tree_cleanup) \
	PHASE(PH_TREE_READ, "tree read", "tree_read", "Tree read", \
	      "Reading the tree", UNIT_FILE, FAMILY_TREE, \
	      PF_READS_TREE | PF_TREE_DATA | PF_DATA_READ, \
	      0, COST_NONE, phase_tree_read, phase_tree_cleanup) \
	PHASE(PH_TREE_DELETE, "tree delete", "tree_delete", "Tree delete", \
	      "Deleting the trees", UNIT_FILE, FAMILY_TREE, 0, \
	      0, COST_NONE, phase_tree_delete, phase_tree_cleanup)

#endif

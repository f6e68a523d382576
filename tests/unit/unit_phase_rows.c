// SPDX-License-Identifier: BSD-2-Clause
/*
 * The phase rows (core/phase_list.h) say what each phase is, and the
 * outputs trust them: bonnie++'s twelve slots are each held by one row,
 * whose CSV name is the one bonnie++'s header gives that slot's fields;
 * no other row has a slot; and a phase's id, which a stored run's
 * identity in clyde-report's history is made of, stays what it was.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/phase.h"
#include "formats/format.h"
#include "unit.h"

#define HEADER_FIELDS 50

/*
 * Every phase of clyde 2026-12 by CSV name, at its id: a run's history
 * identity ("|id:rate", read_json.c) took these numbers, so a row added
 * anywhere but after the last would store every such run again.
 */
static const char *const stored_ids[] = {
	"putc", "put_block", "rewrite", "getc", "get_block", "seeks", "seq_create", "seq_stat",
	"seq_del", "ran_create", "ran_stat", "ran_del", "tree_extract", "tree_copy", "tree_walk",
	"tree_read", "tree_delete",
};

/* bonnie++'s header line, as clyde writes it, split at its commas into at most max fields. */
static unsigned header_fields(char *buf, size_t len, char *field[], unsigned max)
{
	FILE *f = fmemopen(buf, len, "w");
	unsigned n = 0;

	if (!f)
		return 0;
	format_csv_header(f);
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	for (char *p = buf; p && n < max; n++) {
		field[n] = p;
		p = strchr(p, ',');
		if (p)
			*p++ = '\0';
	}
	return n;
}

static void check_slots(void)
{
	char buf[2048] = "", *field[HEADER_FIELDS + 1], want[64];
	unsigned nf = header_fields(buf, sizeof(buf), field, HEADER_FIELDS + 1);
	unsigned held[SLOT_COUNT] = { 0 };

	CHECK(nf == HEADER_FIELDS, "bonnie++'s header: %u fields", nf);
	for (int i = 0; i < PH_COUNT; i++) {
		const struct phase_def *d = phase_get((enum phase_id)i);

		CHECK(d->id == (enum phase_id)i, "row %d says id %d", i, d->id);
		CHECK(d->short_name && d->short_name[0], "%s: a short name", d->csv_name);
		if (d->kind != KIND_BONNIE) {
			CHECK(d->slot == SLOT_NONE, "%s: not bonnie++'s, in slot %d", d->csv_name,
			      d->slot);
			continue;
		}
		CHECK(d->slot >= 0 && d->slot < SLOT_COUNT, "%s: slot %d", d->csv_name, d->slot);
		if (d->slot < 0 || d->slot >= SLOT_COUNT)
			continue;
		held[d->slot]++;
	}
	for (int s = 0; s < SLOT_COUNT; s++) {
		enum phase_id id = phase_in_slot((enum csv_slot)s);
		int rate = s < SLOT_FIRST_FILE ? 9 + 2 * s : 26 + 2 * (s - SLOT_FIRST_FILE);
		const char *name;

		CHECK(held[s] == 1, "slot %d held by %u rows", s, held[s]);
		CHECK(id < PH_COUNT, "slot %d: no phase", s);
		if (id >= PH_COUNT || nf != HEADER_FIELDS)
			continue;
		name = phase_csv_name(id);
		CHECK_STR(field[rate], name);
		snprintf(want, sizeof(want), "%s_cpu", name);
		CHECK_STR(field[rate + 1], want);
		snprintf(want, sizeof(want), "%s_latency", name);
		CHECK_STR(field[38 + s], want);
	}
	CHECK(phase_in_slot(SLOT_NONE) == PH_COUNT && phase_in_slot(SLOT_COUNT) == PH_COUNT,
	      "no phase outside the slots");
}

static void check_ids(void)
{
	size_t n = sizeof(stored_ids) / sizeof(stored_ids[0]);

	CHECK(PH_COUNT >= n, "%d phases, %zu stored", PH_COUNT, n);
	for (size_t i = 0; i < n && i < PH_COUNT; i++)
		CHECK_STR(phase_csv_name((enum phase_id)i), stored_ids[i]);
}

int main(void)
{
	check_slots();
	check_ids();
	return unit_verdict("unit_phase_rows");
}

// SPDX-License-Identifier: BSD-2-Clause
/*
 * The node of the buffer a worker's thread filled last: noted by the
 * pipeline, asked of the OS layer (place_page_node), read and forgotten
 * by the runner. Apart from placement_note.c, which the OS layers call,
 * so that no two files call each other.
 */
#include "config.h"

#include "placement/placement.h"

static _Thread_local int buffer_node = -1;

void place_note_buffer(const void *addr)
{
	buffer_node = place_page_node(addr);
}

int place_take_buffer_node(void)
{
	int node = buffer_node;

	buffer_node = -1;
	return node;
}

// SPDX-License-Identifier: BSD-2-Clause
/*
 * The ring of completed requests the synchronous engines (psync, null)
 * hand back from their reap: its own file, below the engine table that
 * lists those engines, so that no circle of calls runs through engine.c.
 */
#include "config.h"

#include <errno.h>

#include "engines/engine.h"

int done_queue_push(struct done_queue *q, struct io_req *r)
{
	if (q->count == q->cap)
		return -EBUSY;
	q->slot[(q->head + q->count++) % q->cap] = r;
	return 0;
}

unsigned done_queue_pop(struct done_queue *q, struct io_req **done, unsigned max)
{
	unsigned n = 0;

	while (n < max && q->count) {
		done[n++] = q->slot[q->head];
		q->head = (q->head + 1) % q->cap;
		q->count--;
	}
	return n;
}

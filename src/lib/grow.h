/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_GROW_H
#define CLYDE_GROW_H

#include <stddef.h>

/*
 * Growable arrays: arrayp is the address of the array's pointer (&s->v),
 * *cap the elements it has room for, size one element's bytes.
 *
 * array_room: room for one element after the n in use, the room doubled
 * (first where there is none yet) when it is full. array_reserve: room
 * for n. Both return 0, or -ENOMEM, or -EOVERFLOW where the bytes would
 * not fit a size_t; on an error the array and *cap are as they were.
 */
int array_room(void *arrayp, size_t *cap, size_t n, size_t size, size_t first);
int array_reserve(void *arrayp, size_t *cap, size_t n, size_t size);

#endif

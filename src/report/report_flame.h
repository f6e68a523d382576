/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_REPORT_FLAME_H
#define CLYDE_REPORT_FLAME_H

/*
 * Flame graphs of a phase's folded stacks (--profile=stacks): one run's,
 * and the difference between two runs' of the same phase. Pure functions
 * of the stacks given: the same stacks in any order draw the same bytes.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* One folded stack: frames from the outermost caller, joined by ';', and its samples. */
struct flame_stack {
	const char *folded;
	uint64_t count;
};

/*
 * A frame that names a function (a kernel one, or a user one with its
 * symbol): not one that names only its library or "[unknown]"
 * ("[libc.so.6]", "[unknown]_[k]"). clyde's stack_frame_named, the same rule.
 */
static inline bool flame_frame_named(const char *frame)
{
	return frame[0] != '[';
}

/* A function whose share of the samples moved most between two sets. */
struct flame_mover {
	char name[128];
	double share_a;		/* of set a's samples, those it was sampled in (its self share) */
	double share_b;
};

/* Width of the drawings, in SVG user units (pixels at 100%). */
#define FLAME_W		1200

/*
 * One set's flame graph as an <svg> element: a frame's width is its
 * samples, callers below callees, callees in name order; its name is
 * clipped text (a page's find finds it), its <title> the name, samples
 * and share. 0 or -ENOMEM.
 */
int report_flame_svg(FILE *out, const char *title, const struct flame_stack *v, size_t n);

/*
 * b drawn as above and coloured by how each frame's share of the samples
 * moved from a to b: red grew, blue shrank, the strongest the most
 * moved; the <title> gives both shares. What only a has is not drawn:
 * the heading says how much of a that was. 0 or -ENOMEM.
 */
int report_flame_diff_svg(FILE *out, const char *title, const struct flame_stack *a, size_t na,
			  const struct flame_stack *b, size_t nb);

/* qsort's order of movers: the largest move first, then by name. */
int report_flame_mover_cmp(const void *x, const void *y);

/*
 * The functions whose self share (the samples that hit the function
 * itself, the last frame of their stack) moved most from a to b, largest
 * move first, at most max: how many filled, or -ENOMEM. Self, not total:
 * a total share moves most in the generic callers of whatever grew
 * (a worker thread's frames), not in what grew. A stack of the task
 * alone (no frame read) counts in the shares and names no function.
 */
int report_flame_movers(const struct flame_stack *a, size_t na, const struct flame_stack *b,
			size_t nb, struct flame_mover *out, size_t max);

#endif

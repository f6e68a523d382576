// SPDX-License-Identifier: BSD-2-Clause
/*
 * What a phase asks of the plan while it runs: whether --steady holds it
 * until it settles, and the seconds it stops at. Here, beside the plan's
 * struct, so that the phases read them from below (clyde/plan.c builds
 * the plan).
 */
#include "config.h"

#include "core/phase.h"
#include "core/plan.h"

bool plan_steady(const struct run_plan *p, enum phase_id id)
{
	return p->steady.on && (phase_get(id)->flags & PF_STEADY);
}

double plan_phase_limit(const struct run_plan *p, enum phase_id id)
{
	double box = p->phase_box_s[id];
	bool walled = p->stonewall_s > 0 && (phase_get(id)->flags & PF_STONEWALL);

	if (plan_steady(p, id))
		return 0;

	if (walled && (box <= 0 || p->stonewall_s < box))
		return p->stonewall_s;
	return box;
}

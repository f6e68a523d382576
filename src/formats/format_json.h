/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_FORMAT_JSON_H
#define CLYDE_FORMAT_JSON_H

/*
 * What format_json.c asks of format_json_phase.c (never the other way:
 * what both use is lib/json_writer's).
 */

#include "core/clyde.h"
#include "core/result.h"
#include "lib/json_writer.h"

/* One phase's object, keyed by its CSV name. */
void json_phase(struct json_writer *w, const struct run_result *r, enum phase_id id);

/* --profile=layers: a phase's "layers" object in its profile (format_layers.c); none when off. */
void json_profile_layers(struct json_writer *w, const struct prof_layers *l);

#endif

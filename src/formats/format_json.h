/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_FORMAT_JSON_H
#define CLYDE_FORMAT_JSON_H

/* The JSON document's two files' shared parts: format_json.c, format_json_phase.c. */

#include <stdbool.h>

#include "core/clyde.h"
#include "core/result.h"
#include "lib/json_writer.h"

/* A number, or null where the figure is unknown. */
void json_known_or_null(struct json_writer *w, const char *key, bool known, double v);
/* A number, or null where the figure is unknown (negative). */
void json_known(struct json_writer *w, const char *key, double v);

/* One phase's object, keyed by its CSV name. */
void json_phase(struct json_writer *w, const struct run_result *r, enum phase_id id);

#endif

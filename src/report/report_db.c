// SPDX-License-Identifier: BSD-2-Clause
/*
 * clyde-report's results history in SQLite (libsqlite3): the schema and
 * its migrations, the checks of a database before use, one transaction
 * per --add, and the selections --compare and --history read. The
 * schema is documented in clyde-report(1); a change to it bumps
 * REPORT_DB_SCHEMA and adds a step to migrations[].
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/phase.h"
#include "lib/strutil.h"
#include "report/report_db.h"

struct report_db {
	sqlite3 *h;
	const char *path;
	long long schema;	/* as read (a reader does not migrate) */
};

bool report_db_built(const char **how)
{
	*how = NULL;
	return true;
}

/* Schema 1: the runs, their figures and their labels. */
static const char schema_1[] =
	"CREATE TABLE runs ("
	" id INTEGER PRIMARY KEY,"
	" identity TEXT NOT NULL UNIQUE,"
	" added_at TEXT NOT NULL,"
	" source TEXT NOT NULL, line INTEGER NOT NULL,"
	" format TEXT NOT NULL, tool_version TEXT,"
	" name TEXT NOT NULL, config TEXT NOT NULL, seed TEXT, concurrency INTEGER,"
	" host TEXT, os TEXT, kernel TEXT, arch TEXT, cpu_model TEXT, cpus INTEGER, ram_bytes INTEGER,"
	" fs_type TEXT, fs_source TEXT, mountpoint TEXT, fs_options TEXT, device TEXT,"
	" clyde_version TEXT, engine TEXT);"
	"CREATE TABLE results ("
	" run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	" phase TEXT NOT NULL, measure TEXT NOT NULL, value REAL NOT NULL,"
	" PRIMARY KEY (run_id, phase, measure)) WITHOUT ROWID;"
	"CREATE TABLE labels ("
	" run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	" key TEXT NOT NULL, value TEXT NOT NULL,"
	" PRIMARY KEY (run_id, key)) WITHOUT ROWID;"
	"CREATE INDEX labels_key_value ON labels(key, value);";

/* 1 -> 2: the cache method and residency per run, the time series and the position sweeps. */
static const char migrate_2[] =
	"ALTER TABLE runs ADD COLUMN cache_mode TEXT;"
	"ALTER TABLE runs ADD COLUMN cache_outcome TEXT;"
	"ALTER TABLE runs ADD COLUMN resident_worst_pct REAL;"
	"CREATE TABLE series ("
	" run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	" phase TEXT NOT NULL, row INTEGER NOT NULL,"
	" t_start_s REAL NOT NULL, t_end_s REAL NOT NULL, work REAL, ops REAL, rate REAL, lat_p99_s REAL,"
	" dirty_kib REAL, writeback_kib REAL,"
	" PRIMARY KEY (run_id, phase, row)) WITHOUT ROWID;"
	"CREATE TABLE sweeps ("
	" id INTEGER PRIMARY KEY, identity TEXT NOT NULL UNIQUE, added_at TEXT NOT NULL,"
	" source TEXT NOT NULL, label TEXT NOT NULL, origin TEXT NOT NULL);"
	"CREATE TABLE sweep_points ("
	" sweep_id INTEGER NOT NULL REFERENCES sweeps(id) ON DELETE CASCADE,"
	" point INTEGER NOT NULL, offset_gib REAL NOT NULL, mib_s REAL, seconds REAL,"
	" PRIMARY KEY (sweep_id, point)) WITHOUT ROWID;";

/*
 * 2 -> 3: a run is known by its seed, start and host where it says when
 * it began (clyde-result/10), and by its line (and which of its input's
 * runs with that line it was) where it does not. The rows before kept
 * their line as identity, and keep it: a file added again finds them.
 */
static const char migrate_3[] =
	"ALTER TABLE runs ADD COLUMN line_identity TEXT;"
	"ALTER TABLE runs ADD COLUMN started_at TEXT;"
	"UPDATE runs SET line_identity = identity;"
	"CREATE INDEX runs_line_identity ON runs(line_identity);";

/*
 * 3 -> 4: the filesystem's own options (clyde-result/11's super_options),
 * which fs_options, the mount's, does not hold. The rows before did not
 * record them: NULL.
 */
static const char migrate_4[] =
	"ALTER TABLE runs ADD COLUMN fs_super_options TEXT;";

/*
 * 4 -> 5: the filesystem's age ("fresh", "aged:FULL:CHURN[:PROFILE]") and
 * fill (whole percent) per run (clyde-result/14, issue 44; an --add's
 * --label age= or fill= wins over the document's). The rows before did
 * not record them: NULL, as a run of a document before /14 is.
 */
static const char migrate_5[] =
	"ALTER TABLE runs ADD COLUMN age TEXT;"
	"ALTER TABLE runs ADD COLUMN fill TEXT;";

/*
 * 5 -> 6: each run's capacity under a latency bound (clyde-result/15,
 * issue 45), one row per phase that has one: --latency-target's search
 * (percentile, target_s, unbounded_rate, met, rate, concurrency; NULL
 * without one) and --open-loop's outcome (arrivals, mode, inflight,
 * knee, saturated; NULL without one), and the open-loop steps. The rows
 * before had none measured: no rows.
 */
static const char migrate_6[] =
	"CREATE TABLE capacity ("
	" run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	" phase TEXT NOT NULL,"
	" percentile REAL, target_s REAL, unbounded_rate REAL, met INTEGER, rate REAL,"
	" concurrency INTEGER,"
	" arrivals TEXT, mode TEXT, inflight INTEGER, knee REAL, saturated INTEGER,"
	" PRIMARY KEY (run_id, phase)) WITHOUT ROWID;"
	"CREATE TABLE capacity_steps ("
	" run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	" phase TEXT NOT NULL, step INTEGER NOT NULL,"
	" offered REAL NOT NULL, achieved REAL NOT NULL, seconds REAL, scheduled INTEGER,"
	" completed INTEGER, sent_late INTEGER, unsent INTEGER, errors INTEGER,"
	" p50_s REAL, p99_s REAL, p999_s REAL, max_s REAL,"
	" PRIMARY KEY (run_id, phase, step)) WITHOUT ROWID;";

/* migrations[v]: the SQL that takes schema v to v + 1 (migrations[0] makes schema 1). */
static const char *const migrations[REPORT_DB_SCHEMA] = {
	schema_1, migrate_2, migrate_3, migrate_4, migrate_5, migrate_6,
};

/*
 * The columns of runs a selection may name besides labels, the other
 * names of some, the schema that added the column (in an older database
 * read as it is, such a key is a label alone), and whether --by groups
 * by the column where a run has no label of its name (the values a
 * reader gives every run it can: --by age groups the runs added without
 * --label age=).
 */
static const struct sel_field {
	const char *key;
	const char *column;
	long long since;
	bool by;
} sel_fields[] = {
	{ "name", "name", 1, false }, { "config", "config", 1, false },
	{ "format", "format", 1, false }, { "tool_version", "tool_version", 1, false },
	{ "seed", "seed", 1, false }, { "host", "host", 1, false }, { "os", "os", 1, false },
	{ "kernel", "kernel", 1, false }, { "arch", "arch", 1, false },
	{ "cpu_model", "cpu_model", 1, false }, { "fs_type", "fs_type", 1, false },
	{ "fs", "fs_type", 1, false }, { "type", "fs_type", 1, false },
	{ "fs_source", "fs_source", 1, false }, { "mountpoint", "mountpoint", 1, false },
	{ "fs_options", "fs_options", 1, false }, { "options", "fs_options", 1, false },
	{ "fs_super_options", "fs_super_options", 4, false }, { "device", "device", 1, false },
	{ "clyde_version", "clyde_version", 1, false }, { "engine", "engine", 1, false },
	{ "cache_mode", "cache_mode", 2, false }, { "source", "source", 1, false },
	{ "age", "age", 5, true }, { "fill", "fill", 5, true },
};

__attribute__((format(printf, 3, 4)))
static int db_fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -EIO;
}

static int exec_fail(struct report_db *db, int rc, const char *what, char *err, size_t errlen)
{
	db_fail(err, errlen, "%s: %s: %s", db->path, what, sqlite3_errmsg(db->h));
	return rc == SQLITE_NOMEM ? -ENOMEM : rc == SQLITE_FULL ? -ENOSPC :
	       rc == SQLITE_READONLY ? -EROFS : -EIO;
}

static int exec(struct report_db *db, const char *sql, const char *what, char *err, size_t errlen)
{
	int rc = sqlite3_exec(db->h, sql, NULL, NULL, NULL);

	return rc == SQLITE_OK ? 0 : exec_fail(db, rc, what, err, errlen);
}

/* The integer a one-row, one-column query gives. */
static int query_int(struct report_db *db, const char *sql, long long *out, char *err, size_t errlen)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(db->h, sql, -1, &st, NULL);

	if (rc != SQLITE_OK)
		return exec_fail(db, rc, sql, err, errlen);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*out = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : exec_fail(db, rc, sql, err, errlen);
}

/* PRAGMA integrity_check: its first row is "ok" or the first problem. */
static int check_integrity(struct report_db *db, char *err, size_t errlen)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(db->h, "PRAGMA integrity_check", -1, &st, NULL);
	int ret = 0;

	if (rc != SQLITE_OK)
		return exec_fail(db, rc, "integrity_check", err, errlen);
	rc = sqlite3_step(st);
	if (rc != SQLITE_ROW)
		ret = exec_fail(db, rc, "integrity_check", err, errlen);
	else if (strcmp((const char *)sqlite3_column_text(st, 0), "ok"))
		ret = db_fail(err, errlen, "%s: damaged (integrity_check: %s)", db->path,
			      (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return ret;
}

/*
 * Inside the transaction: whose the database is and which schema; a new
 * one is made, an older one migrated (write), a newer one refused.
 */
static int check_schema(struct report_db *db, bool write, char *err, size_t errlen)
{
	long long app, version, tables;
	char sql[64];
	int ret;

	ret = query_int(db, "PRAGMA application_id", &app, err, errlen);
	if (!ret)
		ret = query_int(db, "PRAGMA user_version", &version, err, errlen);
	if (!ret)
		ret = query_int(db, "SELECT count(*) FROM sqlite_master", &tables, err, errlen);
	if (ret)
		return ret;
	if (app != REPORT_DB_APP_ID && (app || tables))
		return db_fail(err, errlen, "%s: not a clyde history (application_id %lld, tables %lld)",
			       db->path, app, tables);
	if (version > REPORT_DB_SCHEMA)
		return db_fail(err, errlen, "%s: schema %lld is newer than this clyde-report's (%d)",
			       db->path, version, REPORT_DB_SCHEMA);
	/* 0 is a new file's (no table yet); migrations[] is indexed by it: nothing else below 1 */
	if (version < 0 || (version == 0 && tables))
		return db_fail(err, errlen, "%s: schema %lld is not one of clyde-report's (1 to %d)",
			       db->path, version, REPORT_DB_SCHEMA);
	if (!app && !write)
		return db_fail(err, errlen, "%s: empty: no clyde history in it yet", db->path);
	ret = check_integrity(db, err, errlen);
	db->schema = version;
	if (ret || version == REPORT_DB_SCHEMA || !write)
		return ret;
	for (long long v = version; v < REPORT_DB_SCHEMA; v++) {
		ret = exec(db, migrations[v], v ? "migrating the schema" : "making the schema", err, errlen);
		if (ret)
			return ret;
	}
	db->schema = REPORT_DB_SCHEMA;
	snprintf(sql, sizeof(sql), "PRAGMA application_id = %d; PRAGMA user_version = %d",
		 REPORT_DB_APP_ID, REPORT_DB_SCHEMA);
	return exec(db, sql, "setting the schema version", err, errlen);
}

int report_db_open(struct report_db **out, const char *path, bool write, char *err, size_t errlen)
{
	int flags = write ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE : SQLITE_OPEN_READONLY;
	struct report_db *db = calloc(1, sizeof(*db));
	int rc, ret;

	if (!db)
		return -ENOMEM;
	db->path = path;
	rc = sqlite3_open_v2(path, &db->h, flags, NULL);
	if (rc != SQLITE_OK) {
		ret = db->h ? exec_fail(db, rc, "cannot open", err, errlen) :
			db_fail(err, errlen, "%s: cannot open: out of memory", path);
		goto close;
	}
	if (write && sqlite3_db_readonly(db->h, "main") == 1) {
		ret = db_fail(err, errlen, "%s: read-only (no write permission, or a read-only file system): nothing added",
			      path);
		goto close;
	}
	sqlite3_busy_timeout(db->h, REPORT_DB_BUSY_MS);
	ret = exec(db, "PRAGMA foreign_keys = ON", "foreign_keys", err, errlen);
	if (ret)
		goto close;
	/* IMMEDIATE: a writer takes the lock before reading the schema, so that two never race to make it */
	ret = exec(db, write ? "BEGIN IMMEDIATE" : "BEGIN", "beginning a transaction", err, errlen);
	if (ret)
		goto close;
	ret = check_schema(db, write, err, errlen);
	if (ret)
		goto rollback;
	if (!write) {
		ret = exec(db, "COMMIT", "reading", err, errlen);
		if (ret)
			goto rollback;
	}
	*out = db;
	return 0;
rollback:
	sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
close:
	sqlite3_close(db->h);
	free(db);
	return ret;
}

void report_db_close(struct report_db *db)
{
	if (!db)
		return;
	/* a transaction still open (an add that failed, or none ran) is undone */
	if (!sqlite3_get_autocommit(db->h))
		sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
	sqlite3_close(db->h);
	free(db);
}

static void bind_text(sqlite3_stmt *st, int i, const char *s)
{
	if (s && s[0])
		sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

static void bind_real(sqlite3_stmt *st, int i, double v)
{
	if (isnan(v))
		sqlite3_bind_null(st, i);
	else
		sqlite3_bind_double(st, i, v);
}

/* The prepared statements of an add. */
struct add_stmts {
	sqlite3_stmt *run, *find, *result, *label, *series, *sweep, *point, *upgrade;
	sqlite3_stmt *capacity, *cap_step;
};

static const char *const add_sql[] = {
	"INSERT INTO runs (identity, added_at, source, line, format, tool_version, name,"
	" config, seed, concurrency, host, os, kernel, arch, cpu_model, cpus, ram_bytes, fs_type,"
	" fs_source, mountpoint, fs_options, device, clyde_version, engine, cache_mode,"
	" cache_outcome, resident_worst_pct, line_identity, started_at, fs_super_options, age, fill)"
	" VALUES (?1, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'),"
	" ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20,"
	" ?21, ?22, ?23, ?24, ?25, ?26, ?27, ?28, ?29, ?30, ?31)",
	/*
	 * The run already there: a row of its identity or, failing that, of
	 * its line that does not say when it ran (?3 NULL: this run does not
	 * say either, and any row of its line is it)
	 */
	"SELECT id, identity = ?1 FROM runs WHERE identity = ?1"
	" OR (line_identity = ?2 AND (?3 IS NULL OR started_at IS NULL))"
	" ORDER BY identity = ?1 DESC LIMIT 1",
	"INSERT INTO results (run_id, phase, measure, value) VALUES (?1, ?2, ?3, ?4)",
	"INSERT OR IGNORE INTO labels (run_id, key, value) VALUES (?1, ?2, ?3)",
	"INSERT INTO series (run_id, phase, row, t_start_s, t_end_s, work, ops, rate, lat_p99_s,"
	" dirty_kib, writeback_kib) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
	"INSERT OR IGNORE INTO sweeps (identity, added_at, source, label, origin)"
	" VALUES (?1, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'), ?2, ?3, ?4)",
	"INSERT INTO sweep_points (sweep_id, point, offset_gib, mib_s, seconds) VALUES (?1, ?2, ?3, ?4, ?5)",
	/* a row known by its line alone is this run, which says when and where it ran */
	"UPDATE runs SET identity = ?1, started_at = ?2, host = coalesce(host, ?3) WHERE id = ?4",
	"INSERT INTO capacity (run_id, phase, percentile, target_s, unbounded_rate, met, rate,"
	" concurrency, arrivals, mode, inflight, knee, saturated)"
	" VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
	"INSERT INTO capacity_steps (run_id, phase, step, offered, achieved, seconds, scheduled,"
	" completed, sent_late, unsent, errors, p50_s, p99_s, p999_s, max_s)"
	" VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)",
};

static const char *const measure_names[RM_ALL] = {
	[RM_RATE] = "rate", [RM_CPU] = "cpu", [RM_LATENCY] = "latency_us",
	[RM_MIBS] = "mib_per_s", [RM_DEAD] = "dead_s",
};

static int step_done(struct report_db *db, sqlite3_stmt *st, const char *what, char *err, size_t errlen)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return rc == SQLITE_DONE ? 0 : exec_fail(db, rc, what, err, errlen);
}

static int add_labels(struct report_db *db, struct add_stmts *q, long long id, char *const *labels,
		      unsigned nlabels, char *err, size_t errlen)
{
	int ret = 0;

	for (unsigned i = 0; i < nlabels && !ret; i++) {
		const char *eq = strchr(labels[i], '=');

		sqlite3_bind_int64(q->label, 1, id);
		sqlite3_bind_text(q->label, 2, labels[i], (int)(eq - labels[i]), SQLITE_TRANSIENT);
		sqlite3_bind_text(q->label, 3, eq + 1, -1, SQLITE_TRANSIENT);
		ret = step_done(db, q->label, "adding a label", err, errlen);
	}
	return ret;
}

/* A boolean column: 0 or 1, NULL where the part that measures it did not run. */
static void bind_flag(sqlite3_stmt *st, int i, bool known, bool v)
{
	if (known)
		sqlite3_bind_int(st, i, v);
	else
		sqlite3_bind_null(st, i);
}

/* A phase's capacity (clyde-result/15): its row, and its open-loop steps. */
static int add_capacity(struct report_db *db, struct add_stmts *q, long long id, enum phase_id ph,
			const struct report_capacity *c, char *err, size_t errlen)
{
	sqlite3_stmt *st = q->capacity;
	bool se = c->has_search, ol = c->has_open_loop;
	int ret;

	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_text(st, 2, phase_csv_name(ph), -1, SQLITE_STATIC);
	bind_real(st, 3, se ? c->percentile : NAN);
	bind_real(st, 4, se ? c->target_s : NAN);
	bind_real(st, 5, se ? c->unbounded_rate : NAN);
	bind_flag(st, 6, se, c->met);
	bind_real(st, 7, se ? c->rate : NAN);
	bind_real(st, 8, se ? c->concurrency : NAN);
	bind_text(st, 9, ol ? c->arrivals : NULL);
	bind_text(st, 10, ol ? c->mode : NULL);
	bind_real(st, 11, ol ? c->inflight : NAN);
	bind_real(st, 12, ol ? c->knee : NAN);
	bind_flag(st, 13, ol, c->saturated);
	ret = step_done(db, st, "adding a capacity", err, errlen);
	for (size_t k = 0; ol && k < c->nsteps && !ret; k++) {
		const struct report_cap_step *t = &c->step[k];

		st = q->cap_step;
		sqlite3_bind_int64(st, 1, id);
		sqlite3_bind_text(st, 2, phase_csv_name(ph), -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 3, (long long)k);
		bind_real(st, 4, t->offered);
		bind_real(st, 5, t->achieved);
		bind_real(st, 6, t->seconds);
		bind_real(st, 7, t->scheduled);
		bind_real(st, 8, t->completed);
		bind_real(st, 9, t->sent_late);
		bind_real(st, 10, t->unsent);
		bind_real(st, 11, t->errors);
		bind_real(st, 12, t->p50_s);
		bind_real(st, 13, t->p99_s);
		bind_real(st, 14, t->p999_s);
		bind_real(st, 15, t->max_s);
		ret = step_done(db, st, "adding an open-loop step", err, errlen);
	}
	return ret;
}

static int add_figures(struct report_db *db, struct add_stmts *q, long long id,
		       const struct report_run *r, char *err, size_t errlen)
{
	int ret = 0;

	for (int ph = 0; ph < PH_COUNT && !ret; ph++) {
		const struct report_series *se = r->series[ph];

		for (int m = 0; m < RM_ALL && !ret; m++) {
			if (!r->has[ph][m] || r->hidden[ph])
				continue;
			sqlite3_bind_int64(q->result, 1, id);
			sqlite3_bind_text(q->result, 2, phase_csv_name((enum phase_id)ph), -1, SQLITE_STATIC);
			sqlite3_bind_text(q->result, 3, measure_names[m], -1, SQLITE_STATIC);
			sqlite3_bind_double(q->result, 4, r->v[ph][m]);
			ret = step_done(db, q->result, "adding a figure", err, errlen);
		}
		for (size_t k = 0; se && k < se->n && !ret; k++) {
			const struct report_sample *s = &se->row[k];

			sqlite3_bind_int64(q->series, 1, id);
			sqlite3_bind_text(q->series, 2, phase_csv_name((enum phase_id)ph), -1, SQLITE_STATIC);
			sqlite3_bind_int64(q->series, 3, (long long)k);
			bind_real(q->series, 4, s->t_start);
			bind_real(q->series, 5, s->t_end);
			bind_real(q->series, 6, s->work);
			bind_real(q->series, 7, s->ops);
			bind_real(q->series, 8, s->rate);
			bind_real(q->series, 9, s->p99);
			bind_real(q->series, 10, s->dirty);
			bind_real(q->series, 11, s->writeback);
			ret = step_done(db, q->series, "adding a time series", err, errlen);
		}
		if (!ret && r->capacity[ph])
			ret = add_capacity(db, q, id, (enum phase_id)ph, r->capacity[ph], err, errlen);
	}
	return ret;
}

/*
 * The run already in the database: *id, 0 for none; *by_line when it was
 * found by its line, not by its identity.
 */
static int find_run(struct report_db *db, struct add_stmts *q, const char *identity,
		    const char *line_key, const struct report_run *r, long long *id, bool *by_line,
		    char *err, size_t errlen)
{
	int rc;

	bind_text(q->find, 1, identity);
	bind_text(q->find, 2, line_key);
	bind_text(q->find, 3, r->started_at);
	rc = sqlite3_step(q->find);
	*id = rc == SQLITE_ROW ? sqlite3_column_int64(q->find, 0) : 0;
	*by_line = rc == SQLITE_ROW && !sqlite3_column_int(q->find, 1);
	sqlite3_reset(q->find);
	sqlite3_clear_bindings(q->find);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return exec_fail(db, rc, "finding a run", err, errlen);
	return 0;
}

/* The value of the label key among labels, or otherwise: --label age= over the document's age. */
static const char *label_or(char *const *labels, unsigned nlabels, const char *key,
			    const char *otherwise)
{
	size_t n = strlen(key);

	for (unsigned i = 0; i < nlabels; i++)
		if (!strncmp(labels[i], key, n) && labels[i][n] == '=')
			return labels[i] + n + 1;
	return otherwise;
}

/*
 * One run: added with its figures, or found; its labels either way. A
 * run found by its line alone, which says when it ran, takes that row's
 * place: its identity and start go there, so that another run of the
 * same line is not taken for it.
 */
static int add_run(struct report_db *db, struct add_stmts *q, const struct report_run *r,
		   char *const *labels, unsigned nlabels, bool *added, char *err, size_t errlen)
{
	const struct report_env *e = &r->env;
	sqlite3_stmt *st = q->run;
	char line_key[sizeof(r->line_identity) + 16];
	const char *identity = r->identity[0] ? r->identity : line_key;
	bool by_line;
	long long id;
	int ret;

	report_line_key(line_key, sizeof(line_key), r);
	*added = false;
	ret = find_run(db, q, identity, line_key, r, &id, &by_line, err, errlen);
	if (ret)
		return ret;
	if (id && by_line && r->started_at[0]) {
		bind_text(q->upgrade, 1, identity);
		bind_text(q->upgrade, 2, r->started_at);
		bind_text(q->upgrade, 3, e->host);
		sqlite3_bind_int64(q->upgrade, 4, id);
		ret = step_done(db, q->upgrade, "naming a run by its start", err, errlen);
		if (ret)
			return ret;
	}
	if (id)
		return add_labels(db, q, id, labels, nlabels, err, errlen);
	bind_text(st, 1, identity);
	bind_text(st, 2, r->source);
	sqlite3_bind_int64(st, 3, r->line);
	bind_text(st, 4, r->format);
	bind_text(st, 5, r->version);
	bind_text(st, 6, r->name);
	bind_text(st, 7, r->key);
	bind_text(st, 8, r->seed);
	sqlite3_bind_int64(st, 9, r->concurrency ? r->concurrency : 1);
	bind_text(st, 10, e->host);
	bind_text(st, 11, e->os);
	bind_text(st, 12, e->kernel);
	bind_text(st, 13, e->arch);
	bind_text(st, 14, e->cpu_model);
	bind_real(st, 15, e->has ? e->cpus : NAN);
	bind_real(st, 16, e->has ? e->ram_bytes : NAN);
	bind_text(st, 17, e->fs_type);
	bind_text(st, 18, e->fs_source);
	bind_text(st, 19, e->fs_mountpoint);
	bind_text(st, 20, e->fs_options);
	bind_text(st, 21, e->device);
	bind_text(st, 22, e->clyde_version);
	bind_text(st, 23, e->engine);
	bind_text(st, 24, e->cache_mode);
	bind_text(st, 25, e->cache_outcome);
	bind_real(st, 26, e->has ? e->resident_worst_pct : NAN);
	bind_text(st, 27, line_key);
	bind_text(st, 28, r->started_at);
	bind_text(st, 29, e->fs_super_options);
	bind_text(st, 30, label_or(labels, nlabels, "age", r->age));
	bind_text(st, 31, label_or(labels, nlabels, "fill", r->fill));
	ret = step_done(db, st, "adding a run", err, errlen);
	if (ret)
		return ret;
	*added = true;
	id = sqlite3_last_insert_rowid(db->h);
	ret = add_labels(db, q, id, labels, nlabels, err, errlen);
	return ret ? ret : add_figures(db, q, id, r, err, errlen);
}

/* A sweep's identity: its origin and a hash of its points (a file renamed is the same sweep). */
static void sweep_identity(char *buf, size_t len, const struct report_sweep *sw)
{
	uint64_t hash = 1469598103934665603ull;	/* FNV-1a */

	for (size_t i = 0; i < sw->n; i++) {
		const unsigned char *b = (const unsigned char *)&sw->pt[i];

		for (size_t k = 0; k < sizeof(sw->pt[i]); k++)
			hash = (hash ^ b[k]) * 1099511628211ull;
	}
	snprintf(buf, len, "sweep:%s:%zu:%016llx", sw->origin, sw->n, (unsigned long long)hash);
}

static int add_sweep(struct report_db *db, struct add_stmts *q, const struct report_sweep *sw,
		     char *err, size_t errlen)
{
	char identity[128];
	long long id;
	int ret;

	sweep_identity(identity, sizeof(identity), sw);
	bind_text(q->sweep, 1, identity);
	bind_text(q->sweep, 2, sw->source);
	bind_text(q->sweep, 3, sw->label);
	bind_text(q->sweep, 4, sw->origin);
	ret = step_done(db, q->sweep, "adding a sweep", err, errlen);
	if (ret || !sqlite3_changes(db->h))
		return ret;
	id = sqlite3_last_insert_rowid(db->h);
	for (size_t i = 0; i < sw->n && !ret; i++) {
		sqlite3_bind_int64(q->point, 1, id);
		sqlite3_bind_int64(q->point, 2, (long long)i);
		sqlite3_bind_double(q->point, 3, sw->pt[i].offset_gib);
		bind_real(q->point, 4, sw->pt[i].mib_s);
		bind_real(q->point, 5, sw->pt[i].seconds);
		ret = step_done(db, q->point, "adding a sweep's point", err, errlen);
	}
	return ret;
}

int report_db_add(struct report_db *db, const struct report_set *s, char *const *labels,
		  unsigned nlabels, unsigned *added, unsigned *present, char *err, size_t errlen)
{
	sqlite3_stmt **stmts;
	struct add_stmts q = { 0 };
	size_t nstmts = sizeof(add_sql) / sizeof(add_sql[0]);
	int rc, ret = 0;

	*added = *present = 0;
	stmts = &q.run;
	for (size_t i = 0; i < nstmts && !ret; i++) {
		rc = sqlite3_prepare_v2(db->h, add_sql[i], -1, &stmts[i], NULL);
		if (rc != SQLITE_OK)
			ret = exec_fail(db, rc, "preparing", err, errlen);
	}
	for (size_t i = 0; i < s->nruns && !ret; i++) {
		bool is_new = false;

		ret = add_run(db, &q, &s->runs[i], labels, nlabels, &is_new, err, errlen);
		if (is_new)
			++*added;
		else
			++*present;
	}
	for (size_t i = 0; i < s->nsweeps && !ret; i++)
		ret = add_sweep(db, &q, &s->sweeps[i], err, errlen);
	for (size_t i = 0; i < nstmts; i++)
		sqlite3_finalize(stmts[i]);
	if (!ret)
		ret = exec(db, "COMMIT", "committing", err, errlen);
	if (ret) {
		sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
		*added = *present = 0;
	}
	return ret;
}

/* The column a selection's key names in db's schema, or NULL for a label alone. */
static const struct sel_field *sel_field(const struct report_db *db, const char *key, size_t n)
{
	for (size_t i = 0; i < sizeof(sel_fields) / sizeof(sel_fields[0]); i++)
		if (strlen(sel_fields[i].key) == n && !memcmp(sel_fields[i].key, key, n))
			return db->schema >= sel_fields[i].since ? &sel_fields[i] : NULL;
	return NULL;
}

static const char *sel_column(const struct report_db *db, const char *key, size_t n)
{
	const struct sel_field *f = sel_field(db, key, n);

	return f ? f->column : NULL;
}

/* The column --by groups by where a run has no such label, or NULL. */
static const char *by_column(const struct report_db *db, const char *by)
{
	const struct sel_field *f = by ? sel_field(db, by, strlen(by)) : NULL;

	return f && f->by ? f->column : NULL;
}

/*
 * The WHERE clause of sel into sql: each K=V a label K of value V or,
 * where K is a column of runs, that column equal to V. The keys and
 * values are bound (?1, ?2, ... in pairs from ?first), the columns come
 * from the list above: nothing typed reaches the SQL's text.
 */
static int sel_where(const struct report_db *db, char *sql, size_t len, const char *sel, int first,
		     unsigned *pairs)
{
	size_t used = strlen(sql);
	const char *p = sel;
	int k = first;

	*pairs = 0;
	do {
		const char *eq = strchr(p, '='), *end = strchr(p, ',');
		const char *col = sel_column(db, p, (size_t)(eq - p));

		if (!end)
			end = p + strlen(p);
		if (col)
			used += (size_t)snprintf(sql + used, len - used,
						 " AND (EXISTS (SELECT 1 FROM labels l WHERE l.run_id = r.id"
						 " AND l.key = ?%d AND l.value = ?%d) OR r.%s = ?%d)",
						 k, k + 1, col, k + 1);
		else
			used += (size_t)snprintf(sql + used, len - used,
						 " AND EXISTS (SELECT 1 FROM labels l WHERE l.run_id = r.id"
						 " AND l.key = ?%d AND l.value = ?%d)", k, k + 1);
		if (used >= len)
			return -E2BIG;
		k += 2;
		++*pairs;
		p = *end ? end + 1 : end;
	} while (*p);
	return 0;
}

static void sel_bind(sqlite3_stmt *st, const char *sel, int first)
{
	const char *p = sel;
	int k = first;

	do {
		const char *eq = strchr(p, '='), *end = strchr(p, ',');

		if (!end)
			end = p + strlen(p);
		sqlite3_bind_text(st, k, p, (int)(eq - p), SQLITE_TRANSIENT);
		sqlite3_bind_text(st, k + 1, eq + 1, (int)(end - eq - 1), SQLITE_TRANSIENT);
		k += 2;
		p = *end ? end + 1 : end;
	} while (*p);
}

static int phase_of(const char *name, enum phase_id *ph)
{
	for (int i = 0; i < PH_COUNT; i++)
		if (phase_get((enum phase_id)i)->kind != KIND_NONE &&
		    !strcmp(phase_csv_name((enum phase_id)i), name)) {
			*ph = (enum phase_id)i;
			return 0;
		}
	return -ENOENT;
}

int report_db_select(struct report_db *db, const char *sel, const char *by,
		     struct report_points *pts, char *err, size_t errlen)
{
	const char *by_col = by_column(db, by);
	char sql[8192], group[160];
	sqlite3_stmt *st;
	long long last = -1;
	unsigned pairs;
	int rc, ret;

	/* --by a label or, where there is none, a column of the same name (age, fill, fs, ...) */
	snprintf(group, sizeof(group), "coalesce((SELECT value FROM labels WHERE run_id = r.id AND key = ?1),"
		 " r.%s)", by_col ? by_col : "name");
	snprintf(sql, sizeof(sql),
		 "SELECT r.id, r.config, x.phase, x.value, %s, r.name"
		 " FROM runs r JOIN results x ON x.run_id = r.id"
		 " WHERE x.measure = 'rate'",
		 by && by_col ? group :
		 by ? "(SELECT value FROM labels WHERE run_id = r.id AND key = ?1)" :
		 db->schema >= 3 ? "coalesce(substr(r.started_at, 1, 19) || 'Z', r.added_at)" :
		 "r.added_at");
	ret = sel_where(db, sql, sizeof(sql), sel, 2, &pairs);
	/* by date: in the order the runs ran (or were added, where they do not say) */
	if (!ret && strlen(sql) + sizeof(" ORDER BY 5, r.id") > sizeof(sql))
		ret = -E2BIG;
	if (ret)
		return db_fail(err, errlen, "%s: the selection is too long", sel);
	strcat(sql, by ? " ORDER BY r.id" : " ORDER BY 5, r.id");
	rc = sqlite3_prepare_v2(db->h, sql, -1, &st, NULL);
	if (rc != SQLITE_OK)
		return exec_fail(db, rc, "selecting", err, errlen);
	if (by)
		sqlite3_bind_text(st, 1, by, -1, SQLITE_TRANSIENT);
	sel_bind(st, sel, 2);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && !ret) {
		struct report_point p = { .run = sqlite3_column_int64(st, 0) };
		const char *group = (const char *)sqlite3_column_text(st, 4);

		if (phase_of((const char *)sqlite3_column_text(st, 2), &p.ph) || !group)
			continue;
		p.value = sqlite3_column_double(st, 3);
		/* a figure no reader stores (a crafted or damaged history): not a rate */
		if (!(p.value >= 0 && p.value <= REPORT_FIGURE_MAX))
			continue;
		str_copy(p.config, sizeof(p.config), (const char *)sqlite3_column_text(st, 1));
		str_copy(p.name, sizeof(p.name), (const char *)sqlite3_column_text(st, 5));
		str_copy(p.group, sizeof(p.group), group);
		ret = report_points_add(pts, &p);
		if (!ret && p.run != last)
			pts->runs++;
		last = p.run;
	}
	if (!ret && rc != SQLITE_DONE)
		ret = exec_fail(db, rc, "selecting", err, errlen);
	sqlite3_finalize(st);
	return ret;
}

// SPDX-License-Identifier: BSD-2-Clause
/*
 * clyde-getc-putc: bonnie++ 2.00a getc_putc's per-byte method table over
 * clyde's shared code. main() is the only caller of exit: it maps
 * failures to the exit status documented in clyde-getc-putc(1).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "getc_putc/getc_putc.h"
#include "lib/opt.h"
#include "lib/signals.h"
#include "lib/size.h"
#include "sys/fsinfo.h"
#include "sys/privs.h"
#include "sys/workdir.h"

/* The file's name inside the private directory; unlinked once open. */
#define GP_FILE_NAME	"getc_putc"

struct gp_opts {
	const char *dir;
	const char *machine;
	const char *user, *group;
	const char *json;
	const char *helper;
	uint64_t size_kib;
	bool quiet;
};

static int usage_error(const char *fmt, const char *arg)
{
	fputs("clyde-getc-putc: ", stderr);
	fprintf(stderr, fmt, arg);
	fputs(" (see --help)\n", stderr);
	return GP_EXIT_USAGE;
}

/* A machine name goes into a CSV field: no comma, no control byte. */
static bool machine_name_ok(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s == ',' || (unsigned char)*s < 0x20 || *s == 0x7f)
			return false;
	return true;
}

static int parse_size(struct gp_opts *o, const char *text)
{
	uint64_t bytes;

	if (size_parse(text, 1024, &bytes) || bytes >> 50)
		return usage_error("-s %s: not a size in KiB (or with k, m or g)", text);
	o->size_kib = bytes / 1024 / GP_SIZE_GRAIN_KIB * GP_SIZE_GRAIN_KIB;
	if (!o->size_kib)
		return usage_error("-s %s: under 64 KiB (write(2) and read(2) move a 64th of it)",
				   text);
	return 0;
}

/* The rows' parsers: 0, or the exit status with the complaint said. */
static int opt_size(void *ctx, const char *arg, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	return parse_size(ctx, arg);
}

static int opt_machine(void *ctx, const char *arg, char *err, size_t errlen)
{
	struct gp_opts *o = ctx;

	(void)err;
	(void)errlen;
	if (!machine_name_ok(arg))
		return usage_error("-m '%s': empty, or a comma or control character "
				   "in it (it is a CSV field)", arg);
	o->machine = arg;
	return 0;
}

static int opt_user(void *ctx, const char *arg, char *err, size_t errlen)
{
	struct gp_opts *o = ctx;

	(void)err;
	(void)errlen;
	if (o->user)
		return usage_error("-u %s: given twice", arg);
	o->user = arg;
	return 0;
}

static int opt_group(void *ctx, const char *arg, char *err, size_t errlen)
{
	struct gp_opts *o = ctx;

	(void)err;
	(void)errlen;
	if (o->group)
		return usage_error("-g %s: given twice", arg);
	o->group = arg;
	return 0;
}



#define SETS(f)		OPT_FIELD(struct gp_opts, f, bool)
#define KEEPS(f)	OPT_FIELD(struct gp_opts, f, const char *)

static const struct opt_row rows[] = {
	{ .synopsis = "[-d dir]", .syn_at = OPT_SYN(0, 0),
	  .letter = 'd', .arg = required_argument, KEEPS(dir),
	  .help = "  -d dir        directory to test in (default: the current one); the file lives\n"
		  "                in a private directory clyde.getc-putc.XXXXXX made there\n" },
	{ .synopsis = "[-s size(KiB)]", .syn_at = OPT_SYN(0, 0),
	  .letter = 's', .arg = required_argument, .parse = opt_size,
	  .help = "  -s size       file size in KiB, or with a k/m/g suffix (default 512m); rounded\n"
		  "                down to a multiple of 64 KiB\n" },
	{ .synopsis = "[-m machine-name]", .syn_at = OPT_SYN(0, 0),
	  .letter = 'm', .arg = required_argument, .parse = opt_machine,
	  .help = "  -m name       machine name for the table and CSV (default: host name)\n" },
	{ .synopsis = "[-u user[:group]]", .syn_at = OPT_SYN(1, 0),
	  .letter = 'u', .arg = required_argument, .parse = opt_user,
	  .help = "  -u user[:group]  run as this user (and group) after dropping root\n" },
	{ .synopsis = "[-g group]", .syn_at = OPT_SYN(1, 0),
	  .letter = 'g', .arg = required_argument, .parse = opt_group,
	  .help = "  -g group      run as this group\n" },
	{ .synopsis = "[-q]", .syn_at = OPT_SYN(1, 0),
	  .letter = 'q', .arg = no_argument, SETS(quiet),
	  .help = "  -q            quiet: no progress on stderr, only the table\n" },
	{ .synopsis = "[--json FILE|-]", .syn_at = OPT_SYN(1, 0),
	  .name = "json", .arg = required_argument, KEEPS(json),
	  .help = "  --json FILE   also write a JSON document (clyde-getc-putc/1) with every\n"
		  "                method's bytes, time, rate and CPU; with -, stdout carries only\n"
		  "                the JSON and no CSV line\n" },
	{ .name = "helper", .arg = required_argument, KEEPS(helper),
	  .help = "  --helper FD:BYTES  the no-thread helper's mode: clyde-getc-putc starts itself\n"
		  "                so; not for users\n" },
	{ .name = "help", .letter = 'h', .arg = no_argument, .does = OPT_HELP,
	  .help = "  -h, --help    this text\n" },
	{ .name = "version", .letter = 'V', .arg = no_argument, .does = OPT_VERSION,
	  .help = "  -V, --version the version\n" },
};

/* getopt says what is wrong, as getc_putc's. */
static const struct opt_table table = {
	.program = "clyde-getc-putc",
	.usage = "usage:",
	.version = PACKAGE_VERSION,
	.rows = rows,
	.count = sizeof(rows) / sizeof(rows[0]),
	.getopt_says = true,
	.intro = "bonnie++ 2.00a getc_putc's table: one byte at a time with write(2) and read(2)\n"
		 "(over a 64th of the size), putc/getc in a process without threads (NT), putc/getc,\n"
		 "putc_unlocked/getc_unlocked (U), and the stdio rows again with an idle thread (T).\n"
		 "The table goes to stderr, getc_putc's CSV line to stdout; KiB/s, ++++++ for a\n"
		 "measurement under 0.5 s.\n",
	.outro = "Exit status: 0 ok, 1 usage, 2 the directory, 3 an I/O error, 5 stopped by a\n"
		 "signal. See clyde-getc-putc(1).\n",
};

static void usage(FILE *out)
{
	opt_usage(out, &table);
}

/* 0: go on; -1: done (--help, --version); else the exit status. */
static int parse_args(int argc, char **argv, struct gp_opts *o)
{
	char err[256] = "";
	int next, ret;

	memset(o, 0, sizeof(*o));
	o->dir = ".";
	o->size_kib = GP_DEFAULT_KIB;
	ret = opt_parse(&table, o, argc, argv, &next, err, sizeof(err));
	if (ret == OPT_BAD || ret == -ENOMEM) {
		usage(stderr);
		return GP_EXIT_USAGE;
	}
	if (ret)
		return ret;
	if (next < argc)
		return usage_error("'%s': no operand is taken", argv[next]);
	return 0;
}

/*
 * The private directory and the file in it, written to its size: fd
 * open, its name already unlinked (a killed run leaves an empty
 * directory at most). 0, or the exit status with the reason said.
 */
static int make_file(const struct gp_opts *o, char *wdir, size_t wlen, int *fd)
{
	char err[512];
	int dfd, ret;

	ret = workdir_check(o->dir, o->size_kib << 10, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "clyde-getc-putc: %s\n", err);
		return GP_EXIT_DIR;
	}
	ret = workdir_create_tagged(o->dir, "getc-putc.", wdir, wlen);
	if (ret) {
		fprintf(stderr, "clyde-getc-putc: cannot make a directory in %s: %s\n", o->dir,
			strerror(-ret));
		wdir[0] = '\0';
		return GP_EXIT_DIR;
	}
	dfd = open(wdir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	/* not O_CLOEXEC: the helper process works on this descriptor */
	*fd = dfd < 0 ? -1 : openat(dfd, GP_FILE_NAME, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW,
				    0600);
	if (*fd < 0 || unlinkat(dfd, GP_FILE_NAME, 0)) {
		fprintf(stderr, "clyde-getc-putc: %s/%s: %s\n", wdir, GP_FILE_NAME, strerror(errno));
		ret = GP_EXIT_DIR;
	}
	if (dfd >= 0)
		close(dfd);
	if (ret)
		return ret;
	if (!o->quiet)
		fputs("Extending the file...", stderr);
	ret = gp_extend(*fd, o->size_kib << 10);
	if (!o->quiet)
		fputs(ret ? "\n" : "done\n", stderr);
	if (ret) {
		fprintf(stderr, "clyde-getc-putc: writing the %llu KiB file: %s\n",
			(unsigned long long)o->size_kib, strerror(-ret));
		return ret == -EINTR ? GP_EXIT_SIGNAL : GP_EXIT_IO;
	}
	return 0;
}

static int write_outputs(const struct gp_opts *o, const struct gp_result *r, FILE *json)
{
	int ret;

	gp_print_table(stderr, r, PACKAGE_VERSION);
	if (!json || json != stdout)
		gp_print_csv(stdout, r);
	if (fflush(stdout)) {
		fprintf(stderr, "clyde-getc-putc: standard output: %s\n", strerror(errno));
		return GP_EXIT_IO;
	}
	if (!json)
		return 0;
	ret = gp_write_json(json, r, PACKAGE_VERSION);
	if (!ret && fflush(json))
		ret = -errno;
	if (ret) {
		fprintf(stderr, "clyde-getc-putc: --json %s: %s\n", o->json, strerror(-ret));
		return GP_EXIT_IO;
	}
	return 0;
}

int main(int argc, char **argv)
{
	char err[512], host[256] = "", wdir[WORKPATH_MAX] = "";
	struct fsinfo fs = { .type = "" };
	struct gp_result r = { 0 };
	struct gp_opts o;
	FILE *json = NULL;
	int fd = -1, ret;

	ret = parse_args(argc, argv, &o);
	if (ret)
		return ret < 0 ? GP_EXIT_OK : ret;
	signals_install();
	if (o.helper)
		return gp_helper_main(o.helper);
	if (privs_drop(o.user, o.group, err, sizeof(err))) {
		fprintf(stderr, "clyde-getc-putc: %s\n", err);
		return GP_EXIT_USAGE;
	}
	if (!o.machine) {
		if (gethostname(host, sizeof(host) - 1) || !host[0])
			snprintf(host, sizeof(host), "localhost");
		for (char *c = host; *c; c++)
			if (*c == ',')
				*c = '_';
		o.machine = host;
	}
	if (o.json) {
		json = strcmp(o.json, "-") ? fopen(o.json, "w") : stdout;
		if (!json) {
			fprintf(stderr, "clyde-getc-putc: --json %s: %s\n", o.json, strerror(errno));
			return GP_EXIT_USAGE;
		}
		/* the helper inherits only the file's descriptor */
		if (json != stdout)
			fcntl(fileno(json), F_SETFD, FD_CLOEXEC);
	}
	ret = make_file(&o, wdir, sizeof(wdir), &fd);
	if (ret)
		goto out_remove;
	if (!fsinfo_get(o.dir, &fs))
		r.fs_type = fs.type;
	else
		r.fs_type = "";
	r.machine = o.machine;
	r.dir = o.dir;
	r.size_kib = o.size_kib;
	r.helper = "";
	ret = gp_measure_run(&r, fd, argv[0], o.quiet, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "clyde-getc-putc: %s\n", err);
		ret = ret == -EINTR ? GP_EXIT_SIGNAL : GP_EXIT_IO;
		goto out_remove;
	}
	close(fd);
	fd = -1;
	ret = write_outputs(&o, &r, json);
out_remove:
	if (fd >= 0)
		close(fd);
	if (wdir[0] && workdir_remove(wdir)) {
		fprintf(stderr, "clyde-getc-putc: could not remove %s\n", wdir);
		if (!ret)
			ret = GP_EXIT_DIR;
	}
	if (json && json != stdout && fclose(json) && !ret) {
		fprintf(stderr, "clyde-getc-putc: --json %s: %s\n", o.json, strerror(errno));
		ret = GP_EXIT_IO;
	}
	if (clyde_stop_requested() && !ret)
		ret = GP_EXIT_SIGNAL;
	return ret;
}

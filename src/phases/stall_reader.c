// SPDX-License-Identifier: BSD-2-Clause
/*
 * The stall reader (see stall_reader.h): the parent's side, which starts
 * it once per run and tells it each phase's start and end, and the
 * helper's, clyde started again with STALL_READER_ARG.
 *
 * The two share a board, a memfd the helper maps at its place, and a
 * socket pair: the parent sends a begin (the phase's t0 and interval
 * width) and an end; the helper answers once it is ready and once it has
 * stopped after an end, so the parent reads the board only while the
 * helper leaves it alone. A socket, not a pipe: send's MSG_NOSIGNAL
 * keeps a helper that died from raising SIGPIPE in clyde, which stops a
 * run. The helper reads its socket's end of file as its parent's end.
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/series.h"
#include "phases/stall_reader.h"
#include "sys/helper_proc.h"

#define BOARD_MAGIC	0x64726f6273796c63ull	/* "clysbord" */
#define BOARD_FD	HELPER_FIRST_FD
#define SOCK_FD		(HELPER_FIRST_FD + 1)

/* How long the parent waits for the helper to say it is ready, or that it stopped. */
#define READY_WAIT_MS	10000
#define END_WAIT_MS	5000
#define EXIT_WAIT_MS	2000

/*
 * A test's hook: the helper spends this many milliseconds of CPU after
 * each reading, so a test can tell its CPU from the phase's.
 */
#define BUSY_ENV	"CLYDE_TEST_STALL_READER_BUSY_MS"

enum { CMD_BEGIN = 1, CMD_END = 2 };
enum { SAY_READY = 'r', SAY_ENDED = 'e' };

struct stall_cmd {
	uint32_t op;
	uint32_t unused;
	uint64_t t0;
	uint64_t fixed_ns;
};

/*
 * Written by the helper, read by the parent after SAY_READY and
 * SAY_ENDED. The header, but for source_ok, n and cpu, is the parent's:
 * the helper checks magic and size before it writes anything, since the
 * image it runs may be another build of clyde (found through PATH).
 */
struct stall_board {
	uint64_t magic;
	uint64_t bytes;			/* the whole board's */
	uint32_t cap;			/* readings it holds */
	uint32_t n;			/* readings of the phase that ended */
	int32_t source_ok;		/* the helper opened the machine's dirty pages */
	uint32_t unused;
	struct cpu_sample cpu;		/* the helper's CPU from a begin to its end */
	struct stall_reading r[];
};

static const char *stall_run_as;

void stall_reader_run_as(const char *argv0)
{
	stall_run_as = argv0;
}

static size_t board_size(unsigned cap)
{
	return sizeof(struct stall_board) + (size_t)cap * sizeof(struct stall_reading);
}

/* ---- the parent's side ---- */

/* One byte from the helper within ms; 0, -ETIMEDOUT, or -EPIPE when it is gone. */
static int hear(int sock, char want, int ms)
{
	uint64_t until = now_ns() + (uint64_t)ms * 1000000u;
	struct pollfd pfd = { .fd = sock, .events = POLLIN };
	char said;

	for (;;) {
		uint64_t now = now_ns();
		int got;

		if (now >= until)
			return -ETIMEDOUT;
		got = poll(&pfd, 1, (int)((until - now) / 1000000u) + 1);
		if (got < 0 && errno != EINTR)
			return -errno;
		if (got <= 0)
			continue;
		got = (int)recv(sock, &said, 1, 0);
		if (got == 1 && said == want)
			return 0;
		if (got < 0 && errno == EINTR)
			continue;
		return -EPIPE;
	}
}

static bool tell(struct stall_reader *sr, uint32_t op, uint64_t t0, uint64_t fixed_ns)
{
	struct stall_cmd cmd = { .op = op, .t0 = t0, .fixed_ns = fixed_ns };

	return send(sr->sock, &cmd, sizeof(cmd), MSG_NOSIGNAL) == (ssize_t)sizeof(cmd);
}

int stall_reader_spawn(struct stall_reader *sr, unsigned cap)
{
	char *argv[] = { (char *)"clyde", (char *)STALL_READER_ARG, NULL };
	int sv[2], fds[2], board_fd, ret;

	memset(sr, 0, sizeof(*sr));
	sr->pid = -1;
	sr->sock = -1;
	if (!stall_run_as)
		return -ENOSYS;
	sr->cap = cap;
	sr->board_bytes = board_size(cap);
	board_fd = helper_shared_fd("clyde-stall-board", sr->board_bytes);
	if (board_fd < 0)
		return board_fd;
	sr->board = mmap(NULL, sr->board_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, board_fd, 0);
	if (sr->board == MAP_FAILED) {
		ret = -errno;
		sr->board = NULL;
		goto out_board_fd;
	}
	sr->board->magic = BOARD_MAGIC;
	sr->board->bytes = sr->board_bytes;
	sr->board->cap = cap;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv)) {
		ret = -errno;
		goto out_unmap;
	}
	fds[0] = board_fd;
	fds[1] = sv[1];
	ret = helper_spawn(&sr->pid, stall_run_as, argv, fds, 2);
	close(sv[1]);
	sr->sock = sv[0];
	if (ret) {
		sr->pid = -1;
		goto out_sock;
	}
	close(board_fd);
	ret = hear(sr->sock, SAY_READY, READY_WAIT_MS);
	if (!ret && !sr->board->source_ok)
		ret = -ENOSYS;
	if (ret)
		stall_reader_stop(sr);
	return ret;

out_sock:
	close(sr->sock);
	sr->sock = -1;
out_unmap:
	munmap(sr->board, sr->board_bytes);
	sr->board = NULL;
out_board_fd:
	close(board_fd);
	return ret;
}

bool stall_reader_begin(struct stall_reader *sr, uint64_t t0, uint64_t fixed_ns)
{
	if (sr->pid <= 0 || sr->in_phase)
		return false;
	sr->in_phase = tell(sr, CMD_BEGIN, t0, fixed_ns);
	return sr->in_phase;
}

int stall_reader_end(struct stall_reader *sr, const struct stall_reading **r, unsigned *n,
		     struct cpu_sample *cpu)
{
	int ret;

	*r = NULL;
	*n = 0;
	if (sr->pid <= 0 || !sr->in_phase)
		return -ENOENT;
	sr->in_phase = false;
	ret = tell(sr, CMD_END, 0, 0) ? hear(sr->sock, SAY_ENDED, END_WAIT_MS) : -EPIPE;
	if (ret) {
		stall_reader_stop(sr);
		return ret;
	}
	*r = sr->board->r;
	*n = sr->board->n < sr->cap ? sr->board->n : sr->cap;
	*cpu = sr->board->cpu;
	return 0;
}

void stall_reader_stop(struct stall_reader *sr)
{
	uint64_t until = now_ns() + (uint64_t)EXIT_WAIT_MS * 1000000u;
	int status;

	/* its end of file: the helper leaves at once */
	if (sr->sock >= 0)
		close(sr->sock);
	sr->sock = -1;
	while (sr->pid > 0) {
		pid_t got = waitpid(sr->pid, &status, WNOHANG);

		if (got == sr->pid || (got < 0 && errno != EINTR)) {
			sr->pid = -1;
			break;
		}
		if (now_ns() >= until) {
			/* it holds nothing to clean: a stuck one is killed */
			kill(sr->pid, SIGKILL);
			until = UINT64_MAX;
			continue;
		}
		usleep(1000);
	}
	if (sr->board)
		munmap(sr->board, sr->board_bytes);
	sr->board = NULL;
	sr->in_phase = false;
}

/* ---- the helper's side ---- */

/* The test's hook: CPU spent, or ten times as long on the clock where that cannot be told. */
static void busy_for(double seconds)
{
	double c0 = thread_cpu_seconds();
	uint64_t until = now_ns() + (uint64_t)(seconds * 1e10);

	while (thread_cpu_seconds() - c0 < seconds && now_ns() < until)
		;
}

/* Sleep to when_ns, sub-millisecond rests without looking at the socket. */
static void sleep_until(uint64_t when_ns)
{
	uint64_t now;

	while ((now = now_ns()) < when_ns) {
		struct timespec ts = {
			.tv_sec = (time_t)((when_ns - now) / 1000000000u),
			.tv_nsec = (long)((when_ns - now) % 1000000000u),
		};

		nanosleep(&ts, NULL);
	}
}

/* A whole command; 0, or -EPIPE at the parent's end. */
static int recv_cmd(int sock, struct stall_cmd *cmd)
{
	ssize_t got;

	do
		got = recv(sock, cmd, sizeof(*cmd), MSG_WAITALL);
	while (got < 0 && errno == EINTR);
	return got == (ssize_t)sizeof(*cmd) ? 0 : -EPIPE;
}

/*
 * Until until_ns, or a command before: 1 (cmd filled), 0 at the time,
 * -EPIPE at the end. The socket is looked at even when until_ns has
 * passed, so a reader that lags still hears the phase's end.
 */
static int wait_cmd(int sock, uint64_t until_ns, struct stall_cmd *cmd)
{
	struct pollfd pfd = { .fd = sock, .events = POLLIN };

	for (;;) {
		uint64_t now = now_ns();
		int ms = now < until_ns ? (int)((until_ns - now) / 1000000u) : 0;
		int got = poll(&pfd, 1, ms);

		if (got > 0)
			return recv_cmd(sock, cmd) ? -EPIPE : 1;
		if (got < 0 && errno != EINTR)
			return -errno;
		if (!got && !ms) {
			sleep_until(until_ns);
			return 0;
		}
	}
}

/*
 * The board full: twice the width, as the series does, keeping the
 * readings at the wider intervals' ends; k, the next end, in the new width.
 */
static void coarsen(struct stall_board *board, uint64_t t0, uint64_t *width, uint64_t *k)
{
	unsigned kept = 0;

	for (unsigned i = 0; i < board->n; i++)
		if ((board->r[i].end_ns - t0) / *width % 2 == 0)
			board->r[kept++] = board->r[i];
	board->n = kept;
	*width *= 2;
	*k = (*k + 1) / 2;
}

/*
 * One phase: a reading at each interval's end from t0 until the end
 * comes, the width doubling as the series' does once the board is full;
 * an end passed by a whole interval (the reader was not scheduled) is
 * left unread, the latest one read. The CPU it took, on the board.
 */
static int read_phase(struct stall_board *board, struct sys_dirty_reader *dirty, int sock,
		      const struct stall_cmd *begin, double busy_s)
{
	uint64_t width = begin->fixed_ns ? begin->fixed_ns : SERIES_MIN_NS, k = 1;
	struct cpu_sample base, now;
	struct stall_cmd cmd;
	char said = SAY_ENDED;
	int ret;

	cpu_sample_take(&base);
	board->n = 0;
	for (;;) {
		struct stall_reading *r;
		uint64_t end = begin->t0 + k * width;

		ret = wait_cmd(sock, end, &cmd);
		if (ret < 0)
			return ret;
		if (ret > 0)
			break;
		if (board->n == board->cap) {
			coarsen(board, begin->t0, &width, &k);
			continue;
		}
		if (now_ns() - end >= width) {
			k = (now_ns() - begin->t0) / width;
			end = begin->t0 + k * width;
		}
		r = &board->r[board->n];
		r->end_ns = end;
		if (sys_dirty_read(dirty, &r->machine))
			r->machine.dirty_kib = r->machine.writeback_kib = -1;
		board->n++;
		k++;
		if (busy_s > 0)
			busy_for(busy_s);
	}
	cpu_sample_take(&now);
	board->cpu.user = now.user - base.user;
	board->cpu.sys = now.sys - base.sys;
	return send(sock, &said, 1, MSG_NOSIGNAL) == 1 ? 0 : -EPIPE;
}

/* The board at BOARD_FD, if it is one this build wrote; NULL otherwise. */
static struct stall_board *board_map(void)
{
	struct stall_board *board;
	struct stat st;

	if (fstat(BOARD_FD, &st) || !S_ISREG(st.st_mode) ||
	    (size_t)st.st_size < sizeof(*board))
		return NULL;
	board = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, BOARD_FD, 0);
	if (board == MAP_FAILED)
		return NULL;
	if (board->magic != BOARD_MAGIC || board->bytes != (uint64_t)st.st_size ||
	    board_size(board->cap) != board->bytes) {
		munmap(board, (size_t)st.st_size);
		return NULL;
	}
	return board;
}

int stall_reader_main(void)
{
	const char *busy = getenv(BUSY_ENV);
	double busy_s = busy ? atof(busy) / 1e3 : 0;
	struct sys_dirty_reader dirty;
	struct stall_board *board;
	struct stall_cmd cmd;
	struct stat st;
	char said = SAY_READY;

	helper_settle("clyde");
	/* the parent stops it: a terminal's ^C to the group must not end it first */
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	if (fstat(SOCK_FD, &st) || !S_ISSOCK(st.st_mode) || !(board = board_map())) {
		fprintf(stderr, "clyde: %s is clyde's own helper, which clyde starts itself\n",
			STALL_READER_ARG);
		return 1;
	}
	/* the parent's files, rings and sockets are not the helper's to hold */
	helper_close_inherited(SOCK_FD + 1);
	board->source_ok = !sys_dirty_open(&dirty);
	if (send(SOCK_FD, &said, 1, MSG_NOSIGNAL) != 1 || !board->source_ok)
		return 0;
	while (!recv_cmd(SOCK_FD, &cmd)) {
		if (cmd.op == CMD_BEGIN && read_phase(board, &dirty, SOCK_FD, &cmd, busy_s))
			break;
	}
	sys_dirty_close(&dirty);
	return 0;
}

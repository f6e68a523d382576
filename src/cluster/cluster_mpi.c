// SPDX-License-Identifier: BSD-2-Clause
/*
 * The cluster on MPI (Open MPI): one client per rank under mpirun. MPI is
 * initialised only when the environment shows that mpirun (or another
 * PMI/PMIx launcher) started this process; run alone, an MPI build is a
 * single process, rank 0 of 1, exactly as cluster_none.c.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <mpi.h>

#include "cluster/cluster.h"
#include "lib/timing.h"

/* Round trips to rank 0 for each rank's clock offset; the quickest is kept. */
#define CLOCK_PINGS 16

/* How long a rank that timed out listens for the others' answers. */
#define ANSWER_GRACE_NS	2000000000ull

/*
 * Up to this many ranks every pair opens its connection at the start
 * (open_every_connection); above, each rank would hold a socket for every
 * other (past the usual 1024 descriptors), and the failure protocol's
 * connections open when it needs them, as before.
 */
#define CONNECT_ALL_MAX	512

/* The messages of a meeting that timed out, on the talk communicator. */
enum {
	TAG_WHERE = 1,	/* a rank that timed out asks: at which meeting are you? */
	TAG_HERE,	/* the answer: the meeting's number */
	TAG_STOP,	/* a decision: the speaker and who is missing (struct stop) */
	TAG_DONE,	/* a rank that came has cleaned up, to the speaker */
	TAG_HELLO,	/* at the start, to every rank: opens the pair's connection */
	TAG_CLOCK_GO,	/* rank 0 to a rank: your turn to read the clocks */
	TAG_CLOCK_PING,	/* that rank to rank 0 */
	TAG_CLOCK_PONG,	/* rank 0's clock, read on the ping's arrival */
};

struct stop {
	int speaker;	/* the lowest rank that came: it prints and aborts */
	int missing;	/* how many did not come */
	char why[448];
};

static bool active;
static int my_rank;
static int n_ranks = 1;
/* meetings are counted alike on every rank: collectives come in one order */
static int meeting;
static uint64_t timeout_ns = (uint64_t)(CLUSTER_TIMEOUT_DEFAULT * 1e9);
/* its own context, so its messages never meet a collective's */
static MPI_Comm talk = MPI_COMM_NULL;
/* the hosts (64 bytes each) and each rank's index among them: the missing's names */
static char (*hosts)[64];
static uint32_t *rank_host;
static uint32_t n_hosts_known;
/* the answers' send buffers, one per asker (freed requests still read them) */
static int *answer_buf;
static int where_buf;
static struct stop stop_buf;
static bool broken;
static struct stop decided;
/* the speaker has printed the decision */
static bool said;

/* Started by mpirun (Open MPI sets OMPI_COMM_WORLD_SIZE) or a PMI(x) launcher. */
static bool launched(void)
{
	return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMIX_RANK") || getenv("PMI_RANK");
}

/* A send nobody waits for: a missing rank may never take it. */
static void send_unwaited(const void *buf, int len, int to, int tag)
{
	MPI_Request req;

	if (MPI_Isend(buf, len, MPI_BYTE, to, tag, talk, &req) == MPI_SUCCESS)
		MPI_Request_free(&req);
}

/* Answer every rank that asked where this one is; adopt a decision sent here. */
static void answer_and_listen(void)
{
	MPI_Status st;
	int flag, asked;

	for (;;) {
		if (MPI_Iprobe(MPI_ANY_SOURCE, TAG_WHERE, talk, &flag, &st) != MPI_SUCCESS || !flag)
			break;
		MPI_Recv(&asked, 1, MPI_INT, st.MPI_SOURCE, TAG_WHERE, talk, MPI_STATUS_IGNORE);
		answer_buf[st.MPI_SOURCE] = meeting;
		send_unwaited(&answer_buf[st.MPI_SOURCE], sizeof(int), st.MPI_SOURCE, TAG_HERE);
	}
	if (MPI_Iprobe(MPI_ANY_SOURCE, TAG_STOP, talk, &flag, &st) == MPI_SUCCESS && flag) {
		struct stop got;

		MPI_Recv(&got, sizeof(got), MPI_BYTE, st.MPI_SOURCE, TAG_STOP, talk,
			 MPI_STATUS_IGNORE);
		got.why[sizeof(got.why) - 1] = '\0';
		/* two that timed out may decide apart: the lowest speaker holds */
		if (!broken || got.speaker < decided.speaker) {
			decided = got;
			broken = true;
		}
	}
}

/*
 * Past the deadline: ask every rank where it is, listen ANSWER_GRACE_NS
 * for the answers (the meeting may still end: then 0), and name those not
 * at this meeting or a later one. The lowest that came speaks; every rank
 * that came learns the decision. -ETIMEDOUT, or 0 when all came after all.
 */
static int name_the_missing(MPI_Request *req, int count)
{
	int *at = calloc((size_t)n_ranks, sizeof(*at));
	uint64_t t0 = now_ns();
	size_t used = 0;
	int missing = 0, done = 0;
	MPI_Status st;

	if (!at)
		return -ENOMEM;
	where_buf = meeting;
	for (int r = 0; r < n_ranks; r++) {
		at[r] = r == my_rank ? meeting : -1;
		if (r != my_rank)
			send_unwaited(&where_buf, sizeof(int), r, TAG_WHERE);
	}
	while (now_ns() - t0 < ANSWER_GRACE_NS && !broken) {
		int flag, here;

		if (MPI_Testall(count, req, &done, MPI_STATUSES_IGNORE) != MPI_SUCCESS || done)
			break;
		answer_and_listen();
		while (MPI_Iprobe(MPI_ANY_SOURCE, TAG_HERE, talk, &flag, &st) == MPI_SUCCESS &&
		       flag) {
			MPI_Recv(&here, 1, MPI_INT, st.MPI_SOURCE, TAG_HERE, talk,
				 MPI_STATUS_IGNORE);
			at[st.MPI_SOURCE] = here;
		}
		nanosleep(&(struct timespec){ 0, 1000000L }, NULL);
	}
	if (done || broken) {
		free(at);
		return done ? 0 : -ETIMEDOUT;
	}
	memset(&decided, 0, sizeof(decided));
	decided.speaker = -1;
	for (int r = 0; r < n_ranks; r++) {
		if (at[r] >= meeting) {
			if (decided.speaker < 0)
				decided.speaker = r;
			continue;
		}
		if (missing++ < 8 && used < sizeof(decided.why) - 80)
			used += (size_t)snprintf(decided.why + used, sizeof(decided.why) - used,
						 "%srank %d on %s", missing > 1 ? ", " : "", r,
						 hosts[rank_host[r]]);
	}
	if (!missing) {
		/* a late rank, but every one came: the meeting goes on */
		free(at);
		return 0;
	}
	decided.missing = missing;
	if (missing > 8)
		snprintf(decided.why + used, sizeof(decided.why) - used, " and %d more",
			 missing - 8);
	broken = true;
	stop_buf = decided;
	for (int r = 0; r < n_ranks; r++)
		if (r != my_rank && at[r] >= meeting)
			send_unwaited(&stop_buf, sizeof(stop_buf), r, TAG_STOP);
	free(at);
	return -ETIMEDOUT;
}

/* The speaker prints the decision, once. */
static void say_decision(void)
{
	if (decided.speaker != my_rank || said)
		return;
	fprintf(stderr, "clyde: --mpi-timeout: %s did not come to meeting %d within "
		"%.0f s; the ranks that came remove their files and abort the job\n",
		decided.why, meeting, (double)timeout_ns / 1e9);
	said = true;
}

/* Spin this long on a pending meeting, then sleep between looks. */
#define WAIT_SPIN_NS	200000ull
#define WAIT_NAP_NS	100000L

/*
 * Wait for a non-blocking collective (or count requests that make one
 * meeting) without taking a CPU from the ranks still at work: Open MPI's
 * blocking calls poll, and with more ranks than cores a rank that finished
 * first would slow the last one down. A rank leaves at most a nap after
 * the last one arrived (spin: never naps, for the clock's round trips).
 * Past --mpi-timeout the missing are named: -ETIMEDOUT, the requests left
 * behind (the job is aborted). wait_requests waits within the meeting now
 * under way, wait_meeting at the next.
 */
static int wait_requests(MPI_Request *req, int count, bool spin)
{
	uint64_t t0 = now_ns();
	int done = 0;

	for (;;) {
		uint64_t waited;

		if (MPI_Testall(count, req, &done, MPI_STATUSES_IGNORE) != MPI_SUCCESS)
			return -EIO;
		if (done)
			return 0;
		answer_and_listen();
		if (broken)
			goto timed_out;
		waited = now_ns() - t0;
		if (timeout_ns && waited > timeout_ns) {
			int r = name_the_missing(req, count);

			if (r != -ETIMEDOUT) {
				if (r)
					return r;
				t0 = now_ns();
				continue;
			}
			goto timed_out;
		}
		if (!spin && waited > WAIT_SPIN_NS) {
			struct timespec nap = { 0, WAIT_NAP_NS };

			nanosleep(&nap, NULL);
		}
	}
timed_out:
	say_decision();
	return -ETIMEDOUT;
}

static int wait_meeting(MPI_Request *req, int count, bool spin)
{
	meeting++;
	return wait_requests(req, count, spin);
}

/* Post a non-blocking collective and wait for it; -ETIMEDOUT at once once broken. */
#define MEET(call, spin) (broken ? -ETIMEDOUT : meet_posted((call), &req, (spin)))

static int meet_posted(int rc, MPI_Request *req, bool spin)
{
	return rc == MPI_SUCCESS ? wait_meeting(req, 1, spin) : -EIO;
}

/* The hosts learn_hosts() found and the timeout's answers: gone. */
static void forget_hosts(void)
{
	free(hosts);
	free(rank_host);
	free(answer_buf);
	hosts = NULL;
	n_hosts_known = 0;
	rank_host = NULL;
	answer_buf = NULL;
}

/*
 * Every rank's host on every rank, to name the missing: the names gathered
 * on rank 0, which sends back the distinct hosts and each rank's index
 * among them (64 bytes a host and 4 a rank, not 64 a rank on every rank).
 */
static int learn_hosts(void)
{
	char mine[64], (*names)[64] = NULL;
	uint32_t n_hosts = 0;
	uint64_t lost;
	MPI_Request req;
	int r;

	rank_host = calloc((size_t)n_ranks, sizeof(*rank_host));
	answer_buf = calloc((size_t)n_ranks, sizeof(*answer_buf));
	if (my_rank == 0) {
		names = calloc((size_t)n_ranks, sizeof(*names));
		hosts = calloc((size_t)n_ranks, sizeof(*hosts));
	}
	/* every rank goes on to the gathers, or none does */
	lost = !rank_host || !answer_buf || (my_rank == 0 && (!names || !hosts));
	r = MEET(MPI_Iallreduce(MPI_IN_PLACE, &lost, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD,
				&req), false);
	if (r || lost) {
		r = r ? r : -ENOMEM;
		goto free_names;
	}
	memset(mine, 0, sizeof(mine));
	snprintf(mine, sizeof(mine), "%s", local_host());
	r = MEET(MPI_Igather(mine, sizeof(mine), MPI_BYTE, names, sizeof(mine), MPI_BYTE, 0,
			     MPI_COMM_WORLD, &req), false);
	if (r)
		goto free_names;
	for (int k = 0; names && k < n_ranks; k++) {
		uint32_t h = 0;

		names[k][sizeof(names[k]) - 1] = '\0';
		while (h < n_hosts && strcmp(hosts[h], names[k]))
			h++;
		if (h == n_hosts)
			memcpy(hosts[n_hosts++], names[k], sizeof(names[k]));
		rank_host[k] = h;
	}
	r = MEET(MPI_Ibcast(&n_hosts, 1, MPI_UINT32_T, 0, MPI_COMM_WORLD, &req), false);
	if (r)
		goto free_names;
	if (my_rank != 0) {
		hosts = calloc(n_hosts, sizeof(*hosts));
	} else {
		/* rank 0 keeps the distinct hosts only, not room for one a rank */
		char (*fit)[64] = realloc(hosts, n_hosts * sizeof(*hosts));

		if (fit)
			hosts = fit;
	}
	lost = !hosts;
	r = MEET(MPI_Iallreduce(MPI_IN_PLACE, &lost, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD,
				&req), false);
	if (r || lost) {
		r = r ? r : -ENOMEM;
		goto free_names;
	}
	r = MEET(MPI_Ibcast(hosts, (int)(n_hosts * sizeof(*hosts)), MPI_BYTE, 0, MPI_COMM_WORLD,
			    &req), false);
	if (!r)
		r = MEET(MPI_Ibcast(rank_host, n_ranks, MPI_UINT32_T, 0, MPI_COMM_WORLD, &req),
			 false);
	if (!r)
		n_hosts_known = n_hosts;
free_names:
	free(names);
	return r;
}

/*
 * Every pair of ranks exchanges one message on talk while the network is
 * whole. Open MPI connects a pair at its first message (its TCP transport
 * has no connection until then), and the failure protocol
 * (name_the_missing, finish_broken) has any rank send to any other: left
 * to that moment, its messages would wait on connections being made, and
 * one to a host that is gone starts a connect() that fails or hangs while
 * the others wait on it. Made here, every message of a failure goes over
 * a connection already proven in both directions. One meeting, under its
 * deadline; 0 or -errno.
 */
static int open_every_connection(void)
{
	/* static: on a timeout the requests are left behind, still reading them */
	static MPI_Request req[2 * CONNECT_ALL_MAX];
	static int from[CONNECT_ALL_MAX], hello;
	int posted = 0;

	if (n_ranks < 2 || n_ranks > CONNECT_ALL_MAX)
		return 0;
	hello = my_rank;
	for (int r = 0; r < n_ranks; r++) {
		if (r == my_rank)
			continue;
		if (MPI_Irecv(&from[r], 1, MPI_INT, r, TAG_HELLO, talk, &req[posted++]) !=
		    MPI_SUCCESS ||
		    MPI_Isend(&hello, 1, MPI_INT, r, TAG_HELLO, talk, &req[posted++]) != MPI_SUCCESS)
			return -EIO;
	}
	return wait_meeting(req, posted, false);
}

int cluster_init(int *argc, char ***argv, char *why, size_t len)
{
	int provided, rc;

	if (why && len)
		why[0] = '\0';
	if (active || !launched())
		return 0;
	/* MPI is called from the main thread only; -c's threads never call it. */
	rc = MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
	if (rc != MPI_SUCCESS) {
		if (why && len)
			snprintf(why, len, "MPI_Init_thread failed (MPI error %d)", rc);
		return -EIO;
	}
	/* Errors come back as codes (cluster_meet reports them), not as aborts. */
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	if (MPI_Comm_rank(MPI_COMM_WORLD, &my_rank) != MPI_SUCCESS ||
	    MPI_Comm_size(MPI_COMM_WORLD, &n_ranks) != MPI_SUCCESS ||
	    MPI_Comm_dup(MPI_COMM_WORLD, &talk) != MPI_SUCCESS) {
		if (why && len)
			snprintf(why, len, "MPI_Comm_rank/MPI_Comm_size/MPI_Comm_dup failed");
		goto finalize;
	}
	MPI_Comm_set_errhandler(talk, MPI_ERRORS_RETURN);
	rc = learn_hosts();
	if (rc) {
		if (why && len)
			snprintf(why, len, "cannot learn the ranks' hosts: %s", strerror(-rc));
		goto free_hosts;
	}
	rc = open_every_connection();
	if (rc) {
		/* the others wait on this rank's messages: the job cannot go on */
		fprintf(stderr, "clyde: MPI: cannot connect every pair of ranks: %s\n",
			strerror(-rc));
		MPI_Abort(MPI_COMM_WORLD, 4);
	}
	active = true;
	return 0;
free_hosts:
	forget_hosts();
	if (broken)
		MPI_Abort(MPI_COMM_WORLD, 4);
finalize:
	MPI_Finalize();
	my_rank = 0;
	n_ranks = 1;
	return -EIO;
}

void cluster_set_timeout(double seconds)
{
	timeout_ns = (uint64_t)(seconds * 1e9);
}

bool cluster_timed_out(void)
{
	return broken;
}

/*
 * After a meeting that timed out: every rank that came has removed its
 * files and tells the speaker so; the speaker waits for all of them, at
 * most the timeout, and only then aborts the job: an abort kills every
 * rank, and one still removing its files would leave them. Two ranks that
 * timed out together may have chosen different speakers: the lower one
 * holds (answer_and_listen), and a rank that learns of it tells the new
 * speaker, the old one included. The others wait to be ended, and abort
 * themselves only when no end comes long after the speaker's own limit.
 */
static void finish_broken(int status)
{
	uint64_t t0 = now_ns();
	int code = status ? status : 3;
	int told = -1, got = 0;
	bool *done_from = calloc((size_t)n_ranks, sizeof(*done_from));

	for (;;) {
		uint64_t waited = now_ns() - t0;
		MPI_Status st;
		int flag, done = 1;

		answer_and_listen();
		if (decided.speaker != my_rank) {
			if (told != decided.speaker) {
				send_unwaited(&done, sizeof(done), decided.speaker, TAG_DONE);
				told = decided.speaker;
			}
			if (waited > timeout_ns + 2 * ANSWER_GRACE_NS)
				break;
			nanosleep(&(struct timespec){ 0, 10000000L }, NULL);
			continue;
		}
		/* the speaker by a decision adopted here says it now */
		say_decision();
		/* those that came, but this one; each counted once */
		if (got >= n_ranks - decided.missing - 1 || waited > timeout_ns + ANSWER_GRACE_NS)
			break;
		if (MPI_Iprobe(MPI_ANY_SOURCE, TAG_DONE, talk, &flag, &st) == MPI_SUCCESS && flag) {
			MPI_Recv(&done, 1, MPI_INT, st.MPI_SOURCE, TAG_DONE, talk,
				 MPI_STATUS_IGNORE);
			if (!done_from || !done_from[st.MPI_SOURCE])
				got++;
			if (done_from)
				done_from[st.MPI_SOURCE] = true;
			continue;
		}
		nanosleep(&(struct timespec){ 0, 1000000L }, NULL);
	}
	free(done_from);
	MPI_Abort(MPI_COMM_WORLD, code);
	exit(code);
}

void cluster_finish(int status)
{
	MPI_Request req;

	if (!active)
		return;
	/*
	 * Every rank has removed its files before any leaves: mpirun aborts the
	 * job when the first rank exits non-zero, killing those still at work.
	 */
	if (MEET(MPI_Ibarrier(MPI_COMM_WORLD, &req), false) == -ETIMEDOUT)
		finish_broken(status);
	MPI_Comm_free(&talk);
	MPI_Finalize();
	forget_hosts();
	active = false;
	my_rank = 0;
	n_ranks = 1;
}

bool cluster_active(void)
{
	return active;
}

int cluster_rank(void)
{
	return my_rank;
}

int cluster_size(void)
{
	return n_ranks;
}

const char *cluster_host(void)
{
	return local_host();
}

unsigned cluster_hosts(const char (**hosts_out)[64], const uint32_t **rank_host_out)
{
	static char name[1][64];
	static const uint32_t zero[1];

	if (!active || !hosts || !rank_host) {
		snprintf(name[0], sizeof(name[0]), "%s", local_host());
		*hosts_out = (const char (*)[64])name;
		*rank_host_out = zero;
		return 1;
	}
	*hosts_out = (const char (*)[64])hosts;
	*rank_host_out = rank_host;
	return n_hosts_known;
}

int cluster_meet(int status, const char *msg, struct cluster_failure *f)
{
	int key = status ? my_rank : INT_MAX;
	int low = key;
	MPI_Request req;
	int r;

	if (!active) {
		local_meet(status, msg, f);
		return 0;
	}
	memset(f, 0, sizeof(*f));
	f->rank = -1;
	/* the lowest failing rank; INT_MAX when every rank is well */
	r = MEET(MPI_Iallreduce(&key, &low, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD, &req), false);
	if (r || low == INT_MAX)
		return r;
	if (low == my_rank)
		local_meet(status, msg, f);
	/* its status, host and message in one piece */
	r = MEET(MPI_Ibcast(f, (int)sizeof(*f), MPI_BYTE, low, MPI_COMM_WORLD, &req), false);
	f->rank = low;
	f->host[sizeof(f->host) - 1] = '\0';
	f->msg[sizeof(f->msg) - 1] = '\0';
	return r;
}

/* A point-to-point message on talk, waited for within the meeting under way. */
static int talk_wait(int rc, MPI_Request *req, bool spin)
{
	return rc == MPI_SUCCESS ? wait_requests(req, 1, spin) : -EIO;
}

/*
 * Rank 0's side of the clock's round trips with rank r: its turn, then
 * each ping answered with rank 0's clock read the moment it arrived.
 */
static int serve_clock(int r)
{
	/* static: a request left behind by a timeout still uses them */
	static int go, ping;
	static uint64_t pong;
	MPI_Request req;
	int ret;

	ret = talk_wait(MPI_Isend(&go, 1, MPI_INT, r, TAG_CLOCK_GO, talk, &req), &req, false);
	for (int i = 0; !ret && i < CLOCK_PINGS; i++) {
		ret = talk_wait(MPI_Irecv(&ping, 1, MPI_INT, r, TAG_CLOCK_PING, talk, &req), &req,
				true);
		pong = now_ns();
		if (!ret)
			ret = talk_wait(MPI_Isend(&pong, 1, MPI_UINT64_T, r, TAG_CLOCK_PONG, talk,
						  &req), &req, true);
	}
	return ret;
}

/*
 * Rank 0 takes the ranks one at a time (the others wait napping, leaving
 * the CPUs to the two at it): each reads its clock (a1), pings rank 0,
 * which answers with its own clock (b), and reads it again on the answer
 * (a2). b was read between a1 and a2, so a1 + (a2 - a1) / 2 - b is the
 * offset within half the round trip, whatever the delays each way; of
 * CLOCK_PINGS round trips the quickest is kept (one that no preemption
 * stretched: well under a millisecond). A barrier's spread is no such bound: under
 * load the ranks leave one tens of milliseconds apart. The round trips
 * are one meeting on every rank, their waits under its deadline.
 */
double cluster_clock_offset(void)
{
	/* static: requests left behind by a timeout still use them */
	static int go, ping;
	static uint64_t b;
	uint64_t best_rtt = UINT64_MAX;
	double best_offset = 0;
	MPI_Request req[2];

	if (!active || n_ranks < 2 || broken)
		return 0;
	meeting++;
	if (my_rank == 0) {
		for (int r = 1; r < n_ranks; r++)
			if (serve_clock(r))
				break;
		return 0;
	}
	if (talk_wait(MPI_Irecv(&go, 1, MPI_INT, 0, TAG_CLOCK_GO, talk, &req[0]), &req[0], false))
		return 0;
	for (int i = 0; i < CLOCK_PINGS; i++) {
		uint64_t a1, a2;

		a1 = now_ns();
		if (MPI_Irecv(&b, 1, MPI_UINT64_T, 0, TAG_CLOCK_PONG, talk, &req[0]) != MPI_SUCCESS ||
		    MPI_Isend(&ping, 1, MPI_INT, 0, TAG_CLOCK_PING, talk, &req[1]) != MPI_SUCCESS ||
		    wait_requests(req, 2, true))
			break;
		a2 = now_ns();
		if (a2 - a1 < best_rtt) {
			best_rtt = a2 - a1;
			best_offset = ((double)(int64_t)(a1 - b) + (double)(a2 - a1) / 2) / 1e9;
		}
	}
	return best_offset;
}

/* Every rank's len bytes, on rank 0 alone or on every rank. */
static int gather_bytes(const void *mine, size_t len, void *all, bool everyone)
{
	MPI_Request req;

	if (!active) {
		if (len)
			memmove(all, mine, len);
		return 0;
	}
	if (len > INT_MAX)
		return -EOVERFLOW;
	if (everyone)
		return MEET(MPI_Iallgather(mine, (int)len, MPI_BYTE, all, (int)len, MPI_BYTE,
					   MPI_COMM_WORLD, &req), false);
	return MEET(MPI_Igather(mine, (int)len, MPI_BYTE, all, (int)len, MPI_BYTE, 0,
				MPI_COMM_WORLD, &req), false);
}

int cluster_gather(const void *mine, size_t len, void *all)
{
	return gather_bytes(mine, len, all, false);
}

int cluster_allgather(const void *mine, size_t len, void *all)
{
	return gather_bytes(mine, len, all, true);
}

int cluster_bcast(void *buf, size_t len)
{
	MPI_Request req;

	if (!active || !len)
		return 0;
	if (len > INT_MAX)
		return -EOVERFLOW;
	return MEET(MPI_Ibcast(buf, (int)len, MPI_BYTE, 0, MPI_COMM_WORLD, &req), false);
}

int cluster_min_f64(double *v, size_t n)
{
	MPI_Request req;

	if (!active || !n)
		return 0;
	if (n > INT_MAX)
		return -EOVERFLOW;
	return MEET(MPI_Iallreduce(MPI_IN_PLACE, v, (int)n, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD,
				   &req), false);
}

int cluster_max_u64(uint64_t *v, size_t n)
{
	MPI_Request req;

	if (!active || !n)
		return 0;
	if (n > INT_MAX)
		return -EOVERFLOW;
	/* --stonewall's decision: this rank's own workers may still be at work */
	return MEET(MPI_Iallreduce(MPI_IN_PLACE, v, (int)n, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD,
				   &req), false);
}

int cluster_sum_u64(const uint64_t *mine, uint64_t *sum, size_t n)
{
	MPI_Request req;

	if (!active) {
		if (n)
			memmove(sum, mine, n * sizeof(*sum));
		return 0;
	}
	if (n > INT_MAX)
		return -EOVERFLOW;
	return MEET(MPI_Ireduce(mine, sum, (int)n, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD, &req),
		    false);
}

void cluster_abort(int status)
{
	if (active)
		MPI_Abort(MPI_COMM_WORLD, status);
	exit(status);
}

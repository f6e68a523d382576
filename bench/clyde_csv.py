# SPDX-License-Identifier: BSD-2-Clause
"""What bench/ab, bench/perchar-ceiling and bench/file-ceiling share: the
rates of a bonnie++ 1.98 CSV line (clyde's and bonnie++'s alike) and a
distribution-free interval for a median of per-round ratios."""
import math

PHASES = ["putc", "put_block", "rewrite", "getc", "get_block", "seeks",
          "seq_create", "seq_stat", "seq_del", "ran_create", "ran_stat", "ran_del"]
# the field of each phase's rate (DESIGN.md: CSV format 1.98)
FIELD = dict(zip(PHASES, [9, 11, 13, 15, 17, 19, 26, 28, 30, 32, 34, 36]))


def csv_rates(stdout):
    """The rates of the last CSV line in stdout, by phase; a phase that did
    not run or printed +++++ is left out."""
    f = [l for l in stdout.splitlines() if l.startswith("1.98,")][-1].split(",")
    return {p: float(f[FIELD[p]]) for p in PHASES if f[FIELD[p]] and "+" not in f[FIELD[p]]}


def median_interval(values, level=0.95):
    """The order statistics (lo, hi) that cover the median with at least
    level confidence whatever the distribution (binomial); None if too few."""
    v = sorted(values)
    n = len(v)
    for k in range(n // 2, -1, -1):
        # P(v[k] <= median <= v[n-1-k]) = 1 - 2 * P(Binomial(n, 1/2) <= k)
        tail = sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n
        if 1 - 2 * tail >= level:
            return v[k], v[n - 1 - k]
    return None

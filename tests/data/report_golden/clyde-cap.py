# Writes clyde-cap.json (see README): python3 clyde-cap.py ../format_golden/full.json >clyde-cap.json
# A clyde-result/15 document written by hand from the interface of issue 45
# (capacity under a latency bound), clyde's writer not being there yet:
# full.json's run, renamed and re-seeded, with a "capacity" object on seeks
# and seq_create. ext4-cap: three runs; xfs-cap: one.
import json
import math
import sys

base = json.load(open(sys.argv[1]))
run0 = base["runs"][0]


def search(pct, target, unbounded, probes):
    """probes: (concurrency, rate, latency_s); within: latency <= target."""
    steps = []
    for conc, rate, lat in probes:
        steps.append({"concurrency": conc, "rate": rate, "latency_s": lat,
                      "samples": max(2000, int(rate * 2.5)), "seconds": 2.5,
                      "within": lat <= target, "few": False})
    within = [s for s in steps if s["within"]]
    best = max((s["rate"] for s in within), default=0)
    conc = max((s["concurrency"] for s in within if s["rate"] >= 0.95 * best), default=0)
    return {"percentile": pct, "target_s": target, "min_samples": math.ceil(20 / (1 - pct / 100)),
            "unbounded_rate": unbounded, "met": bool(within), "rate": best, "concurrency": conc,
            "steps": steps}


def open_loop(mode, offered, cap, base_lat, inflight=50):
    """A queue that serves at most cap per second: achieved and latencies from offered."""
    steps, knee = [], None
    for o in offered:
        o = round(o, 1)
        a = round(min(o, cap), 1)
        load = o / cap
        p50 = round(base_lat * (1 + 2 * load * load), 7)
        late = 0 if a >= 0.95 * o else int((o - a) * 2)
        unsent = 0 if a >= 0.95 * o else int((o - a) * 0.5)
        st = {"offered": o, "achieved": a, "seconds": 2.0, "scheduled": int(o * 2),
              "completed": int(a * 2), "sent_late": late, "unsent": unsent, "errors": 0,
              "p50_s": p50, "p99_s": round(p50 * 4 * (1 + 10 * max(0, load - 0.9)), 7),
              "p999_s": round(p50 * 9 * (1 + 30 * max(0, load - 0.9)), 7),
              "max_s": round(p50 * 12 * (1 + 40 * max(0, load - 0.9)), 7),
              "service_p50_s": round(base_lat, 7), "service_p99_s": round(base_lat * 3, 7),
              "service_p999_s": round(base_lat * 5, 7), "service_max_s": round(base_lat * 7, 7)}
        steps.append(st)
        if knee is None and a < 0.95 * o:
            knee = o
    return {"arrivals": "fixed", "mode": mode, "inflight": inflight, "knee": knee,
            "saturated": knee is not None, "steps": steps}


def sweep(unbounded, cap, base_lat):
    offered, o = [], unbounded / 8
    while True:
        offered.append(o)
        if min(o, cap) < 0.95 * o:
            offered.append(o * 1.25)
            break
        o *= 1.25
    return open_loop("sweep", offered, cap, base_lat)


def run(name, seed, started, seeks_u, seeks_cap, seeks_probes, create_u, create_search,
        create_open):
    r = json.loads(json.dumps(run0))
    r["name"] = name
    r["seed"] = seed
    r["host"] = "caphost"
    r["started_at"] = started
    r["csv"] = None
    ph = r["phases"]
    ph["seeks"]["rate"] = seeks_u
    ph["seeks"]["capacity"] = {"search": search(99.0, 0.005, seeks_u, seeks_probes),
                               "open_loop": sweep(seeks_u, seeks_cap, 0.0003)}
    ph["seq_create"]["rate"] = create_u
    cap = {"search": create_search}
    if create_open:
        cap["open_loop"] = create_open
    ph["seq_create"]["capacity"] = cap
    return r


def create_rates():
    return open_loop("rates", [1000, 2000, 4000], 90000, 0.00005, inflight=8)


runs = [
    run("ext4-cap", 101, "2026-12-07T05:00:00.000000Z", 5400.0, 4700.0,
        [(1, 1800.5, 0.0011), (2, 3300.25, 0.0019), (4, 4980.5, 0.0042), (8, 5350.0, 0.0093),
         (6, 5150.75, 0.0061)],
        72000.0, search(99.9, 0.02, 72000.0, [(1, 30000.0, 0.004), (2, 52000.0, 0.012),
                                              (4, 61000.0, 0.031), (3, 58000.0, 0.019)]),
        create_rates()),
    run("ext4-cap", 102, "2026-12-07T05:10:00.000000Z", 5500.0, 4900.0,
        [(1, 1850.0, 0.0010), (2, 3400.0, 0.0018), (4, 5012.25, 0.0039), (8, 5480.0, 0.0048),
         (16, 5500.0, 0.0121), (12, 5490.0, 0.0077)],
        74000.0, search(99.9, 0.02, 74000.0, [(1, 31000.0, 0.005), (2, 53000.0, 0.013),
                                              (4, 62000.0, 0.028), (3, 59500.0, 0.021)]),
        create_rates()),
    run("ext4-cap", 103, "2026-12-07T05:20:00.000000Z", 5300.0, 4600.0,
        [(1, 1790.0, 0.0012), (2, 3250.0, 0.0021), (4, 4890.0, 0.0046), (8, 5290.0, 0.0101),
         (6, 5050.0, 0.0058)],
        70000.0, search(99.9, 0.02, 70000.0, [(1, 29000.0, 0.025)]),
        create_rates()),
    run("xfs-cap", 201, "2026-12-07T05:30:00.000000Z", 4200.0, 3100.0,
        [(1, 1500.0, 0.0017), (2, 2600.0, 0.0034), (4, 3050.0, 0.0071), (3, 2900.0, 0.0052)],
        65000.0, search(99.9, 0.02, 65000.0, [(1, 21000.0, 0.031)]), None),
]

doc = {"schema": "clyde-result/15", "clyde_version": base["clyde_version"], "warmup": False,
       "exit_status": 0, "stopped": None, "plan": base.get("plan"), "elapsed_s": 600.0,
       "runs": runs}
json.dump(doc, sys.stdout, indent=1)
sys.stdout.write("\n")

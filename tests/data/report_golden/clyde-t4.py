# Writes clyde-t4.json (see README): python3 clyde-t4.py >clyde-t4.json
import json

# the trees: (files, dirs with the root, bytes); JSON's run-level dirs leaves the root out
T01 = (2000, 337, 7689133)        # ports:0.1 seed 1 (real)
T01S7 = (2000, 341, 7702519)      # ports:0.1 seed 7
T02 = (4000, 673, 15378266)       # ports:0.2
BASE = {"tree_extract": 2000, "tree_copy": 1000, "tree_walk": 100000, "tree_read": 5000, "tree_delete": 4000}
LAT = {"tree_extract": 1, "tree_copy": 2, "tree_walk": 0.1, "tree_read": 0.5, "tree_delete": 3}

def phase(name, tree, rate, userf, sysf, lat):
    files, dirs, nbytes = tree
    amount = {"tree_walk": files + dirs - 1, "tree_delete": 2 * files}.get(name, files)
    moved = 0 if name == "tree_delete" else nbytes
    el = amount / rate
    user = round(userf * el, 6)
    return {"ran": True, "elapsed_s": round(el, 9), "amount": amount, "amount_unit": "files",
            "rate": rate, "rate_unit": "files/s", "cpu_user_s": user, "cpu_sys_s": round(sysf * el, 6),
            "dead_s": round(el - user, 9), "max_latency_us": lat,
            "tree": {"files": amount if name != "tree_walk" else files,
                     "dirs": {"tree_read": 0, "tree_delete": 2 * (dirs - 1)}.get(name, dirs - 1),
                     "entries": amount if name == "tree_walk" else 0, "bytes": moved,
                     "mib_per_s": round(moved / el / 1048576, 6) if moved else 0}}

def run(name, factor, userf, sysf, lat, tree=T01, seed=1, scale=0.1, files=None, bonnie=None):
    r = {"name": name, "seed": 12345, "concurrency": 1,
         "io": {"size_mib": 0, "chunk": 8192, "seeks": 8192, "seekers": 5},
         "files": files or {"number": 0, "max_size": 0, "min_size": 0, "dirs": 1, "chunk": 8192},
         "counts": {"seeks_timed": False, "files_calibrated": False}, "tree": None, "phases": {}}
    if tree:
        r["tree"] = {"shape": "ports", "scale": scale, "seed": seed, "dirs": tree[1] - 1, "files": tree[0],
                     "max_depth": 3, "bytes": tree[2], "io": "psync", "depth": 1}
    r["phases"]["putc"] = {"ran": False}
    r["phases"].update(bonnie or {})
    if tree:
        for n in BASE:
            f = factor[n] if isinstance(factor, dict) else factor
            r["phases"][n] = phase(n, tree, round(BASE[n] * f, 3), userf, sysf, round(lat * LAT[n]))
    return r

def c(v):
    return json.dumps(v, separators=(", ", ": "))

def fmt_run(r):
    lines = ["  {"]
    for k, v in r.items():
        if k != "phases":
            lines.append("   %s: %s," % (c(k), c(v)))
    lines.append('   "phases": {')
    ph = list(r["phases"].items())
    for i, (k, v) in enumerate(ph):
        lines.append("    %s: %s%s" % (c(k), c(v), "," if i < len(ph) - 1 else ""))
    lines.append("   }")
    lines.append("  }")
    return "\n".join(lines)

def doc(runs):
    return ('{\n "schema": "clyde-result/4",\n "clyde_version": "0.1.0",\n "warmup": false,\n "runs": [\n'
            + ",\n".join(fmt_run(r) for r in runs) + "\n ]\n}")

def filephase(rate, amount=1024, lat=500):
    el = amount / rate
    return {"ran": True, "elapsed_s": el, "amount": amount, "rate": rate, "cpu_user_s": 0.01,
            "cpu_sys_s": round(0.2 * el, 6), "dead_s": round(el - 0.01, 6), "max_latency_us": lat}

def xf(k):
    return {"tree_extract": 2 * k, "tree_copy": k, "tree_walk": 1.5 * k, "tree_read": 0.5 * k, "tree_delete": 3 * k}

nf = {"number": 1, "max_size": 0, "min_size": 0, "dirs": 1, "chunk": 8192}
out = [
    # ext4t: clyde -x 3 -s 0 -n 0 --tree=ports:0.1
    doc([run("ext4t", 1.0, 0.02, 0.3, 20000), run("ext4t", 1.1, 0.02, 0.3, 22000),
         run("ext4t", 0.9, 0.02, 0.3, 18000)]),
    # xfst: -x 2 -s 0 -n 1 --tree=ports:0.1: both tables
    doc([run("xfst", xf(1.0), 0.1, 0.2, 10000, files=nf,
             bonnie={"seq_create": filephase(4096), "seq_del": filephase(16384)}),
         run("xfst", xf(1.1), 0.1, 0.2, 11000, files=nf,
             bonnie={"seq_create": filephase(5120), "seq_del": filephase(20480)})]),
    # ext4t on other trees (--tree-seed=7, ports:0.2), and a /4 run without --tree
    doc([run("ext4t", 1.2, 0.02, 0.3, 19000, tree=T01S7, seed=7),
         run("ext4t", 0.8, 0.02, 0.3, 25000, tree=T02, scale=0.2),
         run("plain", 1, 0, 0, 0, tree=None, files=nf, bonnie={"seq_create": filephase(8192)})]),
]
print("\n".join(out))

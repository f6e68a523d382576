# Summary of wab.sh's output: python3 wab_sum.py wab.out (takes bench/clyde_csv.py from three folders up)
import os,re,sys,statistics as st
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
from clyde_csv import median_interval
rows={}
for l in open(sys.argv[1]):
    m=re.match(r"round (\d+) qd (\d+): fio=([\d.]+)/(\d+) capped=([\d.]+)/(\d+) direct=([\d.]+)/(\d+)",l)
    if m:
        r,q=int(m[1]),int(m[2]); rows.setdefault(q,[]).append(tuple(float(x) for x in m.groups()[2:]))
def ci(v):
    # bench/clyde_csv.py's distribution-free interval, as bench/vs-fio prints
    iv = median_interval(v)
    return iv if iv else (None, None)
for q,v in sorted(rows.items()):
    for name,f in [("direct/capped rate",lambda x:x[4]/x[2]),("capped/fio rate",lambda x:x[2]/x[0]),("direct/fio rate",lambda x:x[4]/x[0]),("direct/capped cpu per MiB",lambda x:x[5]/x[3])]:
        r=[f(x) for x in v]; lo,hi=ci(r)
        print("qd %3d %-26s median %.3f (%s..%s) n=%d" % (q,name,st.median(r),"%.2f"%lo if lo else "-","%.2f"%hi if hi else "-",len(r)))
    print("qd %3d medians MB/s: fio %.1f capped %.1f direct %.1f; CPU us/MiB capped %.0f direct %.0f" % (q, st.median(x[0] for x in v), st.median(x[2] for x in v), st.median(x[4] for x in v), st.median(x[3] for x in v), st.median(x[5] for x in v)))

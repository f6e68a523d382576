# snap: one line of vda's /proc/diskstats; show A B LABEL OWN: what the disk did between two snaps
snap() { python3 -c 'import time
for l in open("/proc/diskstats"):
    f=l.split()
    if f[2]=="vda": print(time.monotonic(), f[3], f[6], f[7], f[10], f[13], f[4], f[8])'; }
show() { python3 -c 'import sys
a=list(map(float,sys.argv[1].split())); b=list(map(float,sys.argv[2].split()))
d=[y-x for x,y in zip(a,b)]; t=d[0]
print("%-6s %6.0f io/s (%.3f w) rlat %5.0f us wlat %5.0f us in-dev %5.1f merged r %d w %d  own %s" % (sys.argv[3], (d[1]+d[3])/t, d[3]/(d[1]+d[3]), d[2]*1000/max(d[1],1), d[4]*1000/max(d[3],1), d[5]/1000/t, d[6], d[7], sys.argv[4]))' "$1" "$2" "$3" "$4"; }

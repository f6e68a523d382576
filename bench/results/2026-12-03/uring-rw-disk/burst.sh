#!/bin/sh
# the disk's read rate over time: idle $IDLE s, then fio randread QD128 for 20 s; /proc/diskstats every 0.5 s
exec 9>/work/bench.lock; flock -x 9
D=/var/tmp/s7b; mkdir -p $D; F=$D/f
[ -f $F ] || taskset -c 0 fio --name=w --filename=$F --size=256m --bs=8k --rw=write --ioengine=io_uring --iodepth=32 --direct=1 --end_fsync=1 >/dev/null
for idle in ${IDLES:-10 1 30}; do
sleep $idle
python3 - $idle <<'PY' &
import time,sys
def rd():
    for l in open("/proc/diskstats"):
        f=l.split()
        if f[2]=="vda": return int(f[3])+int(f[7])
t0=time.monotonic(); p=rd(); out=[]
for i in range(44):
    time.sleep(0.5); c=rd(); out.append("%.0f" % ((c-p)/0.5/1000)); p=c
print("idle %s s: k io/s per 0.5 s:" % sys.argv[1], " ".join(out))
PY
sp=$!
taskset -c 0 fio --name=r --filename=$F --size=256m --bs=8k --rw=randread --ioengine=io_uring --iodepth=128 --direct=1 --fixedbufs=1 --registerfiles=1 --time_based --runtime=20 --randrepeat=0 >/dev/null
wait $sp
done

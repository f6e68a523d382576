#!/bin/sh
# Sequential extending O_DIRECT 8 KiB writes, 1 GiB new file each, all on CPU 0: does depth matter on ext4?
# clyde uring QD1/QD32, fio io_uring QD1/QD32; rotating order.
exec 9>/work/bench.lock; flock -x 9
D=/var/tmp/ab6; rm -rf $D; mkdir -p $D
C=${CLYDE:-/work/main/clyde}
c() { taskset -c 0 $C -d $D -s 1G:8k:1000:1 -n 0 -f --engine=uring --iodepth=$1 -D -q -z 1 --json /tmp/wd.json >/dev/null 2>&1
  python3 -c 'import json; p=json.load(open("/tmp/wd.json"))["runs"][0]["phases"]["put_block"]; print("%.1f" % (p["amount"]*1024/p["elapsed_s"]/1e6))'; }
f() { taskset -c 0 fio --name=w --filename=$D/fio.dat --size=1g --bs=8k --rw=write --ioengine=io_uring --iodepth=$1 --direct=1 --fixedbufs=1 --registerfiles=1 --fallocate=none --end_fsync=1 --output-format=json | python3 -c 'import json,sys; j=json.load(sys.stdin)["jobs"][0]; print("%.1f" % (j["write"]["io_bytes"]/(j["job_runtime"]/1000)/1e6))'; rm -f $D/fio.dat; }
for round in $(seq 1 ${ROUNDS:-5}); do
  case $((round % 2)) in
  1) a=$(c 1); b=$(c 32); x=$(f 1); y=$(f 32);;
  0) y=$(f 32); x=$(f 1); b=$(c 32); a=$(c 1);;
  esac
  echo "round $round: clyde qd1=$a qd32=$b fio qd1=$x qd32=$y (MB/s)"
done
rm -rf $D

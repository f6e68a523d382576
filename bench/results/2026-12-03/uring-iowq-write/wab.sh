#!/bin/sh
# A/B: io-wq capped at the CPU count for every ring (clyde-capped, main f49538d) against capped for buffered
# rings only (clyde-direct); fio beside. Sequential extending O_DIRECT 8 KiB writes, 1 GiB new file each,
# io_uring, QD in $QDS, everything on CPU 0, order rotating per round. Prints MB/s and CPU us per MiB.
exec 9>/work/bench.lock; flock -x 9
D=/var/tmp/ab6; rm -rf $D; mkdir -p $D
c() { taskset -c 0 /work/runs/s6/$1 -d $D -s 1G:8k:1000:1 -n 0 -f --engine=uring --iodepth=$2 -D -q -z 1 --json /tmp/wab.json >/dev/null 2>&1
  python3 -c 'import json; p=json.load(open("/tmp/wab.json"))["runs"][0]["phases"]["put_block"]; print("%.1f/%.0f" % (p["amount"]*1024/p["elapsed_s"]/1e6, (p["cpu_user_s"]+p["cpu_sys_s"])*1e6/(p["amount"]/1024)))'; }
f() { taskset -c 0 fio --name=w --filename=$D/fio.dat --size=1g --bs=8k --rw=write --ioengine=io_uring --iodepth=$1 --direct=1 --fixedbufs=1 --registerfiles=1 --fallocate=none --end_fsync=1 --output-format=json | python3 -c 'import json,sys; j=json.load(sys.stdin)["jobs"][0]; t=j["job_runtime"]/1000; b=j["write"]["io_bytes"]; print("%.1f/%.0f" % (b/t/1e6, (j["usr_cpu"]+j["sys_cpu"])/100*t*1e6/(b/2**20)))'; rm -f $D/fio.dat; }
for round in $(seq 1 ${ROUNDS:-12}); do
  for q in ${QDS:-32 128}; do
  case $((round % 3)) in
  1) a=$(c clyde-capped $q); b=$(c clyde-direct $q); x=$(f $q);;
  2) b=$(c clyde-direct $q); x=$(f $q); a=$(c clyde-capped $q);;
  0) x=$(f $q); a=$(c clyde-capped $q); b=$(c clyde-direct $q);;
  esac
  echo "round $round qd $q: fio=$x capped=$a direct=$b (MB/s / CPU us per MiB)"
  done
done
rm -rf $D

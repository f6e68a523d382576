#!/bin/sh
# clyde's seeks with its time series (default, 100 ms doubling) against --interval=off; fio beside. QD$QD, 256 MiB, O_DIRECT, CPU 0
exec 9>/work/bench.lock; flock -x 9
QD=${QD:-128}; D=/var/tmp/ab2; mkdir -p $D
c() { taskset -c 0 /work/main/clyde -d $D -s 256M:8k:300000:1 -n 0 -f --engine=uring --iodepth=$QD -D --seek-updates=0 -q -z 1 --json /tmp/iv.json $1 >/dev/null 2>&1
  python3 -c 'import json; p=json.load(open("/tmp/iv.json"))["runs"][0]["phases"]["seeks"]; print("%.0f/%.2f" % (p["amount"]/p["elapsed_s"], (p["cpu_user_s"]+p["cpu_sys_s"])*1e6/p["amount"]))'; }
f() { taskset -c 0 fio --name=r --filename=/var/tmp/ab/f256m --size=256m --bs=8k --rw=randread --ioengine=io_uring --iodepth=$QD --direct=1 --fixedbufs=1 --registerfiles=1 --time_based --runtime=5 --randrepeat=0 --output-format=json | python3 -c 'import json,sys; j=json.load(sys.stdin)["jobs"][0]; print("%.0f" % j["read"]["iops"])'; }
for round in $(seq 1 ${ROUNDS:-8}); do
  case $((round % 3)) in
  1) a=$(c); b=$(c --interval=off); x=$(f);;
  2) b=$(c --interval=off); x=$(f); a=$(c);;
  0) x=$(f); a=$(c); b=$(c --interval=off);;
  esac
  echo "round $round: fio=$x clyde=$a clyde-interval-off=$b"
done
rm -rf $D

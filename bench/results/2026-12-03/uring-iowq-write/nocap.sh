#!/bin/sh
# Sequential O_DIRECT 8 KiB writes at QD32 through io_uring: clyde's block write with io-wq capped at the CPU count
# (as clyde is) and uncapped (EXP_NOCAP), fio's write beside; a new 1 GiB file each, both on CPU 0, rotating.
exec 9>/work/bench.lock; flock -x 9
D=/var/tmp/ab4; rm -rf $D; mkdir -p $D
c() { env $1 taskset -c 0 /work/exp/clyde -d $D -s 1G:8k:1000:1 -n 0 -f --engine=uring --iodepth=32 -D -q -z 1 --json /tmp/nc.json >/dev/null 2>&1
  python3 -c 'import json; p=json.load(open("/tmp/nc.json"))["runs"][0]["phases"]["put_block"]; print("%.1f" % (p["amount"]*1024/p["elapsed_s"]/1e6))'; }
f() { taskset -c 0 fio --name=w --filename=$D/fio.dat --size=1g --bs=8k --rw=write --ioengine=io_uring --iodepth=32 --direct=1 --fixedbufs=1 --registerfiles=1 --fallocate=none --end_fsync=1 --output-format=json | python3 -c 'import json,sys; j=json.load(sys.stdin)["jobs"][0]; print("%.1f" % (j["write"]["io_bytes"]/(j["job_runtime"]/1000)/1e6))'; rm -f $D/fio.dat; }
for round in $(seq 1 ${ROUNDS:-6}); do
  case $((round % 3)) in
  1) a=$(c X=1); b=$(c EXP_NOCAP=1); x=$(f);;
  2) b=$(c EXP_NOCAP=1); x=$(f); a=$(c X=1);;
  0) x=$(f); a=$(c X=1); b=$(c EXP_NOCAP=1);;
  esac
  echo "round $round: fio=$x clyde-capped=$a clyde-uncapped=$b (MB/s)"
done
rm -rf $D

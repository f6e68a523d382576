#!/bin/sh
# fio randrw 91/9 (random map), randrw --norandommap and randread, QD128, rotating, $ROUNDS rounds, all on one
# clyde seek file (clyde paused before its seeks), /proc/diskstats over 3 s in the middle of each 6 s run
exec 9>/work/bench.lock; flock -x 9
QD=128; D=/var/tmp/s7; C=${C:-/work/main/clyde}
. ./snapshow.sh
rm -rf $D; mkdir -p $D; rm -f /tmp/resume.v /tmp/dq.err
CLYDE_TEST_PAUSE=before-seeks CLYDE_TEST_RESUME=/tmp/resume.v taskset -c 0 $C -d $D -s 256M:8k:1000:1 -n 0 -f --engine=uring --iodepth=$QD -D --seek-updates=10 -q -z 1 >/dev/null 2>/tmp/dq.err &
cp=$!; while ! grep -q "test pause" /tmp/dq.err; do sleep 0.1; done; sleep 1
file=$(find $D -type f | head -1)
set -- rw rd rwnomap
for round in $(seq 1 ${ROUNDS:-8}); do
  echo "round $round"
  for v in "$@"; do
    case $v in rw) a="--rw=randrw --rwmixread=91";; rwnomap) a="--rw=randrw --rwmixread=91 --norandommap";; rd) a=--rw=randread;; esac
    ( sleep 2; snap > /tmp/s.a; sleep 3; snap > /tmp/s.b ) & sp=$!
    own=$(taskset -c 0 fio --name=r --filename=$file --size=256m --bs=8k $a --ioengine=io_uring --iodepth=$QD --direct=1 --fixedbufs=1 --registerfiles=1 --time_based --runtime=6 --randrepeat=0 --output-format=json | python3 -c 'import json,sys; j=json.load(sys.stdin)["jobs"][0]; print("%.0f" % (j["read"]["iops"]+j["write"]["iops"]))')
    wait $sp; show "$(cat /tmp/s.a)" "$(cat /tmp/s.b)" $v "$own"
  done
  first=$1; shift; set -- "$@" $first
done
touch /tmp/resume.v; wait $cp; rm -rf $D

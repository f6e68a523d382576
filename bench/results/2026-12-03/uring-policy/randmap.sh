#!/bin/sh
# fio randread QD$QD on one file: its random map (each block once per pass) against norandommap (uniform, repeats, as clyde's seeks)
exec 9>/work/bench.lock; flock -x 9
QD=${QD:-128}
r() { taskset -c 0 fio --name=r --filename=/var/tmp/ab/f256m --size=256m --bs=8k --rw=randread --ioengine=io_uring --iodepth=$QD --direct=1 --fixedbufs=1 --registerfiles=1 --time_based --runtime=4 --randrepeat=0 $1 --output-format=json | python3 -c 'import json,sys; j=json.load(sys.stdin)["jobs"][0]; print("%.0f" % j["read"]["iops"])'; }
for round in 1 2 3 4 5 6 7 8 9 10; do
  if [ $((round % 2)) = 1 ]; then a=$(r); b=$(r --norandommap=1); else b=$(r --norandommap=1); a=$(r); fi
  echo "round $round: map=$a norandommap=$b"
done

#!/bin/sh
# Random-read rate by how the file was laid out (fio randread QD32 O_DIRECT on each, rotating, same run)
exec 9>/work/bench.lock; flock -x 9
D=/var/tmp/ab3; rm -rf $D; mkdir -p $D; cd $D
fio --name=l --filename=$D/buf --size=256m --bs=8k --rw=write --ioengine=psync --end_fsync=1 --fallocate=none >/dev/null
fio --name=l --filename=$D/dio1 --size=256m --bs=8k --rw=write --ioengine=psync --direct=1 --fallocate=none >/dev/null
fio --name=l --filename=$D/dio32 --size=256m --bs=8k --rw=write --ioengine=io_uring --iodepth=32 --direct=1 --fallocate=none >/dev/null
fio --name=l --filename=$D/falloc --size=256m --bs=8k --rw=write --ioengine=io_uring --iodepth=32 --direct=1 --fallocate=posix >/dev/null
rm -f /tmp/resume.y
CLYDE_TEST_PAUSE=before-seeks CLYDE_TEST_RESUME=/tmp/resume.y taskset -c 0 /work/main/clyde -d $D -s 256M:8k:300000:1 -n 0 -f --engine=uring --iodepth=32 -D --seek-updates=0 -q -z 1 > /tmp/ly.out 2>/tmp/ly.err &
cp=$!
while ! grep -q "test pause" /tmp/ly.err; do sleep 0.2; done
cf=$(find $D -type f -name 'io.*' | head -1); ln -s $cf $D/clyde
for f in buf dio1 dio32 falloc clyde; do echo "$f: $(filefrag $(readlink -f $D/$f) | sed 's/.*: //')"; done
filefrag -v $cf | sed -n 4,20p
r() { taskset -c 0 fio --name=r --filename=$(readlink -f $D/$1) --size=256m --bs=8k --rw=randread --ioengine=io_uring --iodepth=32 --direct=1 --fixedbufs=1 --registerfiles=1 --time_based --runtime=4 --randrepeat=0 --output-format=json | python3 -c 'import json,sys; j=json.load(sys.stdin)["jobs"][0]; print("%.0f" % j["read"]["iops"])'; }
set -- buf dio1 dio32 falloc clyde
for round in 1 2 3 4 5; do
  line="round $round:"
  for f in "$@"; do line="$line $f=$(r $f)"; done
  echo "$line"
  first=$1; shift; set -- "$@" $first
done
touch /tmp/resume.y; wait $cp; rm -rf $D

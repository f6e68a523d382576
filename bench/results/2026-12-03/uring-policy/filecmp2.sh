#!/bin/sh
# fio randread QD$QD on three files, rotating, 10 rounds: fio's old file (f256m), a fresh one fio laid out (buffered),
# and clyde's own (clyde paused before its seeks, then its seeks run on it)
exec 9>/work/bench.lock; flock -x 9
QD=${QD:-128}; D=/var/tmp/ab2; rm -rf $D; mkdir -p $D
fio --name=l --filename=$D/fresh --size=256m --bs=8k --rw=write --ioengine=psync --end_fsync=1 --fallocate=none >/dev/null
rm -f /tmp/resume.w
CLYDE_TEST_PAUSE=before-seeks CLYDE_TEST_RESUME=/tmp/resume.w taskset -c 0 /work/main/clyde -d $D -s 256M:8k:300000:1 -n 0 -f --engine=uring --iodepth=$QD -D --seek-updates=0 -q -z 1 --json /tmp/fc2.json > /dev/null 2>/tmp/fc2.err &
cp=$!
while ! grep -q "test pause" /tmp/fc2.err; do sleep 0.2; done
cf=$(find $D -type f -name 'io.*' | head -1)
ln -s /var/tmp/ab/f256m $D/old; ln -s $cf $D/clyde
for f in old fresh clyde; do echo "$f: $(filefrag $(readlink -f $D/$f) | sed 's/.*: //')"; done
r() { taskset -c 0 fio --name=r --filename=$(readlink -f $D/$1) --size=256m --bs=8k --rw=randread --ioengine=io_uring --iodepth=$QD --direct=1 --fixedbufs=1 --registerfiles=1 --time_based --runtime=4 --randrepeat=0 --output-format=json | python3 -c 'import json,sys; j=json.load(sys.stdin)["jobs"][0]; print("%.0f" % j["read"]["iops"])'; }
set -- old fresh clyde
for round in $(seq 1 ${ROUNDS:-10}); do
  line="round $round:"
  for f in "$@"; do line="$line $f=$(r $f)"; done
  echo "$line"
  first=$1; shift; set -- "$@" $first
done
touch /tmp/resume.w; wait $cp
python3 -c 'import json; p=json.load(open("/tmp/fc2.json"))["runs"][0]["phases"]["seeks"]; print("clyde seeks on its file: %.0f/s" % (p["amount"]/p["elapsed_s"]))'
rm -rf $D /tmp/fc2.err

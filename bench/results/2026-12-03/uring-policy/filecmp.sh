#!/bin/sh
# fio on clyde's own file (clyde paused before its seeks) against fio's file, randread QD32, with and without fio's random map
exec 9>/work/bench.lock; flock -x 9
cd /var/tmp/ab2 || exit 1
rm -f /tmp/resume.x
CLYDE_TEST_PAUSE=before-seeks CLYDE_TEST_RESUME=/tmp/resume.x taskset -c 0 /work/main/clyde -d /var/tmp/ab2 -s 256M:8k:300000:1 -n 0 -f --engine=uring --iodepth=${QD:-32} -D --seek-updates=0 -q -z 1 --json /tmp/fc.json > /tmp/fc.out 2>/tmp/fc.err &
cp=$!
while ! grep -q "test pause" /tmp/fc.err; do sleep 0.2; done
cf=$(find /var/tmp/ab2 -type f -size +200M | head -1)
echo "clyde file: $cf"; ls -la "$cf"; filefrag "$cf" | tail -1; filefrag /var/tmp/ab/f256m | tail -1
f() { taskset -c 0 fio --name=r --filename=$1 --size=256m --bs=8k --rw=randread --ioengine=io_uring --iodepth=${QD:-32} --direct=1 --fixedbufs=1 --registerfiles=1 --time_based --runtime=5 --randrepeat=0 $2 --output-format=json | python3 -c 'import json,sys; j=json.load(sys.stdin)["jobs"][0]; print("%.0f" % j["read"]["iops"])'; }
for r in 1 2 3 4 5; do
  a=$(f /var/tmp/ab/f256m); b=$(f "$cf"); c=$(f /var/tmp/ab/f256m --norandommap=1); d=$(f "$cf" --norandommap=1)
  echo "round $r: fio-file=$a clyde-file=$b fio-file-norandommap=$c clyde-file-norandommap=$d"
done
touch /tmp/resume.x; wait $cp; echo "clyde seeks: $(tail -1 /tmp/fc.out | cut -d, -f1-30)"
python3 -c 'import json; p=json.load(open("/tmp/fc.json"))["runs"][0]["phases"]["seeks"]; print("clyde seeks/s %.0f" % (p["amount"]/p["elapsed_s"]))'

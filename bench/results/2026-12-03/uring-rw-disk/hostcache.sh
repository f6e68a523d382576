#!/bin/sh
# does the host serve reads of recently written blocks faster? randread, randwrite covering the file, randread
exec 9>/work/bench.lock; flock -x 9
D=/var/tmp/s7h; rm -rf $D; mkdir -p $D; F=$D/f
fio1() { taskset -c 0 fio --name=r --filename=$F --size=256m --bs=8k --ioengine=io_uring --iodepth=128 --direct=1 --fixedbufs=1 --registerfiles=1 --randrepeat=0 --output-format=json "$@" | python3 -c 'import json,sys; j=json.load(sys.stdin)["jobs"][0]; print("r %.0f iops %.0f us  w %.0f iops %.0f us" % (j["read"]["iops"], j["read"]["lat_ns"]["mean"]/1000, j["write"]["iops"], j["write"]["lat_ns"]["mean"]/1000 if j["write"]["iops"] else 0))'; }
fio1 --rw=write --end_fsync=1 --iodepth=32 >/dev/null
for i in 1 2 3; do
echo "randread:            $(fio1 --rw=randread --time_based --runtime=4)"
echo "randwrite 3s:        $(fio1 --rw=randwrite --time_based --runtime=3)"
echo "randread after:      $(fio1 --rw=randread --time_based --runtime=4)"
sleep 5
echo "randread 5 s later:  $(fio1 --rw=randread --time_based --runtime=4)"
echo "randrw 91/9:         $(fio1 --rw=randrw --rwmixread=91 --time_based --runtime=4)"
done
rm -rf $D

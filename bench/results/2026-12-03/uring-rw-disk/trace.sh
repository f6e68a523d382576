#!/bin/sh
# count io_uring requests punted to io-wq, clyde vs fio, rand-rw@128
T=/sys/kernel/tracing
C=/work/main/clyde
D=/var/tmp/s7; mkdir -p $D
trace_on() { echo > $T/trace; echo 1 > $T/events/io_uring/io_uring_queue_async_work/enable; echo 1 > $T/events/io_uring/io_uring_submit_req/enable; echo 1 > $T/tracing_on; }
trace_off() { echo 0 > $T/tracing_on; echo 0 > $T/events/io_uring/enable; cp $T/trace $1; }
echo 65536 > $T/buffer_size_kb
trace_on
taskset -c 0 $C -d $D -s 512M:8k:100000:1 -n 0 -f --exact -q --engine=uring --iodepth=128 --seek-updates=10 -D > clyde.out
trace_off clyde.trace
taskset -c 0 fio --name=vs --filename=$D/fio.dat --size=512M --bs=8k --rw=write --direct=1 --ioengine=io_uring --iodepth=32 --end_fsync=1 >/dev/null
trace_on
taskset -c 0 fio --name=vs --filename=$D/fio.dat --size=512M --bs=8k --rw=randrw --rwmixread=91 --output-format=json --ioengine=io_uring --iodepth=128 --direct=1 --invalidate=1 --fallocate=none --fixedbufs=1 --registerfiles=1 --time_based=1 --runtime=8 --randrepeat=0 > fio.json
trace_off fio.trace
rm -rf $D
for f in clyde fio; do
 echo "== $f"; grep -c io_uring_submit_req $f.trace; grep io_uring_submit_req $f.trace | grep -o 'opcode [A-Z_]*' | sort | uniq -c
 grep io_uring_queue_async_work $f.trace | grep -o 'opcode [A-Z_]*' | sort | uniq -c
 grep io_uring_queue_async_work $f.trace | head -2
done

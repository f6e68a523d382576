#!/bin/sh
# vs-fio with the guest's halt polling at the kernel's default (200 us) instead of this VM's 0; restored after.
P=/sys/module/haltpoll/parameters/guest_halt_poll_ns
old=$(cat $P); trap 'echo $old > $P' EXIT INT TERM
echo 200000 > $P; echo "guest_halt_poll_ns: $(cat $P) (was $old)"
cd "$(dirname "$0")/../../.." && python3 bench/vs-fio --dir /var/tmp --rounds ${ROUNDS:-8} --cases rand-read,rand-rw --iodepths 32,128 --rand-size 512M --pin 0 --lock /work/bench.lock 

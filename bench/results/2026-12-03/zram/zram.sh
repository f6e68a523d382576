#!/bin/sh
# clyde's io_uring engine against fio's on a device with no queue: ext4 on zram, where an O_DIRECT read
# completes inside io_uring_enter() on the submitting CPU, so the rate is the CPU per request and
# nothing of the disk's drift. Both tools pinned to CPU 0.
set -e
R=${ROUNDS:-6}
cd "$(dirname "$0")/../../../.."    # the repository root, from bench/results/DATE/DIR
dev=/dev/zram0
[ -e $dev ] || dev=/dev/zram$(cat /sys/class/zram-control/hot_add)
z=$(basename $dev)
echo 1 > /sys/block/$z/reset
echo 2G > /sys/block/$z/disksize
mkfs.ext4 -q -F $dev
M=$(mktemp -d)
mount $dev $M
trap 'umount $M; rmdir $M; echo 1 > /sys/block/'$z'/reset' EXIT
echo "# $dev: $(cat /sys/block/$z/comp_algorithm), ext4, $(uname -r)"
python3 bench/vs-fio --dir $M --rounds $R --cases rand-read,rand-rw --iodepths 1,32,128 --rand-size 512M --pin 0 --lock /work/bench.lock

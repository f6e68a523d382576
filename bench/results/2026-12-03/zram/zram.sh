#!/bin/sh
# clyde's io_uring engine against fio's on a device with no queue: ext4 on zram, where an O_DIRECT read
# completes inside io_uring_enter() on the submitting CPU, so the rate is the CPU per request and
# nothing of the disk's drift. Both tools pinned to CPU 0.
set -e
R=${ROUNDS:-6}
cd "$(dirname "$0")/../../../.."    # the repository root, from bench/results/DATE/DIR
# A zram device of its own (hot_add), never one that may hold swap, removed after.
n=$(cat /sys/class/zram-control/hot_add)
z=zram$n
dev=/dev/$z
M=$(mktemp -d)
trap 'umount $M 2>/dev/null; rmdir $M; echo 1 > /sys/block/'$z'/reset; echo '$n' > /sys/class/zram-control/hot_remove' EXIT
echo 2G > /sys/block/$z/disksize
mkfs.ext4 -q -F $dev
mount $dev $M
echo "# $dev: $(cat /sys/block/$z/comp_algorithm), ext4, $(uname -r)"
python3 bench/vs-fio --dir $M --rounds $R --cases rand-read,rand-rw --iodepths 1,32,128 --rand-size 512M --pin 0 --lock ${LOCK:-/work/bench.lock}

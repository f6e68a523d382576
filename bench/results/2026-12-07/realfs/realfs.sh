#!/bin/sh
# ext4, xfs, btrfs compress=zstd on direct-I/O loop devices over /var/tmp images:
# clyde --profile=stacks --flame per fs, then clyde-report's page, rendered.
# usage: realfs.sh CLYDE_TOP OUTDIR
set -u
TOP=$1; OUT=$2
mkdir -p "$OUT"
W=$(mktemp -d /var/tmp/realfs.XXXXXX)
for fs in ext4 xfs btrfs; do
	truncate -s 3G "$W/$fs.img"
	dev=$(losetup -f --show --direct-io=on "$W/$fs.img")
	case $fs in
	ext4) mkfs.ext4 -q -F "$dev" ; opts=noatime ;;
	xfs) mkfs.xfs -q -f "$dev" ; opts=noatime ;;
	btrfs) mkfs.btrfs -q -f "$dev" ; opts=noatime,compress=zstd ;;
	esac
	mkdir -p "$W/mnt"
	mount -o "$opts" "$dev" "$W/mnt"
	mkdir -p "$OUT/flame-$fs"
	"$TOP/clyde" -d "$W/mnt" -s 1g -r 512m -n 4 -x 2 -m "$fs" --data=compressible:50 \
		--profile=stacks --stack-hz=499 --flame "$OUT/flame-$fs" --json "$OUT/$fs.json" \
		>"$OUT/$fs.out" 2>"$OUT/$fs.err"
	echo "$fs rc=$?"
	umount "$W/mnt"
	losetup -d "$dev"
	rm -f "$W/$fs.img"
done
rmdir "$W/mnt" "$W"
"$TOP/clyde-report" -b ext4 --html "$OUT/page.html" -o "$OUT/report.txt" "$OUT/ext4.json" "$OUT/btrfs.json" "$OUT/xfs.json"
echo "report rc=$?"
HEIGHT=9000 sh "$TOP/bench/render-report" "$OUT/page.html" "$OUT/page.png"
echo "render rc=$?"

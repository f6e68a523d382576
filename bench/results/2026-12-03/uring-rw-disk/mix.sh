#!/bin/sh
# Who gains from the 91/9 mix at QD128? Per round, rotating: clyde reads only (U=0; at its pause fio randread and
# fio randrw 91/9 on its file), clyde 10 updates in 100, and clyde with EXP_INDEP (an update one write of its own).
# Own rates (clyde: I/Os, reads plus update writes, over the seek phase) and the disk's view (snapshow.sh).
exec 9>/work/bench.lock; flock -x 9
QD=${QD:-128}; D=/var/tmp/s7; C=${C:-/work/exp2/clyde}
. ./snapshow.sh
fiorun() { # $1 label, rest fio args
  flab=$1; shift
  ( sleep 2; snap > /tmp/s.a; sleep 3; snap > /tmp/s.b ) & sp=$!
  own=$(taskset -c 0 fio --name=r --filename=$file --size=512m --bs=8k "$@" --ioengine=io_uring --iodepth=$QD --direct=1 --fixedbufs=1 --registerfiles=1 --time_based --runtime=6 --randrepeat=0 --output-format=json | python3 -c 'import json,sys; j=json.load(sys.stdin)["jobs"][0]; print("%.0f" % (j["read"]["iops"]+j["write"]["iops"]))')
  wait $sp; show "$(cat /tmp/s.a)" "$(cat /tmp/s.b)" $flab "$own"; }
clyde() { # $1 label, $2 updates, rest env
  lab=$1; u=$2; shift 2
  rm -rf $D; mkdir -p $D; rm -f /tmp/resume.v /tmp/dq.err
  env "$@" CLYDE_TEST_PAUSE=before-seeks CLYDE_TEST_RESUME=/tmp/resume.v taskset -c 0 $C -d $D -s 512M:8k:330000:1 -n 0 -f --engine=uring --iodepth=$QD -D --seek-updates=$u -q -z 1 --json /tmp/dq.json >/dev/null 2>/tmp/dq.err &
  cp=$!; while ! grep -q "test pause" /tmp/dq.err; do sleep 0.1; done; sleep 1
  file=$(find $D -type f | head -1)
  if [ $lab = c-rd ]; then fiorun f-rd --rw=randread; fiorun f-rw --rw=randrw --rwmixread=91; fi
  touch /tmp/resume.v; sleep 1; a=$(snap); sleep 3; b=$(snap); wait $cp
  own=$(python3 -c 'import json,sys; u=int(sys.argv[1]); i="EXP_INDEP" in sys.argv[2]; p=json.load(open("/tmp/dq.json"))["runs"][0]["phases"]["seeks"]; print("%.0f" % (p["amount"]*(1 if i else 1+u/100)/p["elapsed_s"]))' $u "$*")
  show "$a" "$b" $lab "$own"
}
set -- rd rw indep
for round in $(seq 1 ${ROUNDS:-6}); do
  echo "round $round"
  for t in "$@"; do
    case $t in
    rd) clyde c-rd 0 X=1;;
    rw) clyde c-rw 10 X=1;;
    indep) clyde c-indep 10 EXP_INDEP=1;;
    esac
  done
  first=$1; shift; set -- "$@" $first
done
rm -rf $D

#!/bin/sh
# clyde's seeks right after its block phases against the same with the block phases' writes given $WAIT s to settle
# on the host before the seeks; fio randread on the settled f256m beside them. QD$QD, 256 MiB, O_DIRECT, CPU 0.
exec 9>/work/bench.lock; flock -x 9
QD=${QD:-128}; WAIT=${WAIT:-20}; D=/var/tmp/ab2
c() {
  rm -f /tmp/resume.z
  if [ "$1" = wait ]; then
    ( while ! grep -q "test pause" /tmp/st.err 2>/dev/null; do sleep 0.2; done; sleep $WAIT; touch /tmp/resume.z ) &
    env CLYDE_TEST_PAUSE=before-seeks CLYDE_TEST_RESUME=/tmp/resume.z taskset -c 0 /work/main/clyde -d $D -s 256M:8k:300000:1 -n 0 -f --engine=uring --iodepth=$QD -D --seek-updates=0 -q -z 1 --json /tmp/st.json >/dev/null 2>/tmp/st.err
    wait
  else
    taskset -c 0 /work/main/clyde -d $D -s 256M:8k:300000:1 -n 0 -f --engine=uring --iodepth=$QD -D --seek-updates=0 -q -z 1 --json /tmp/st.json >/dev/null 2>/tmp/st.err
  fi
  rm -f /tmp/st.err
  python3 -c 'import json; p=json.load(open("/tmp/st.json"))["runs"][0]["phases"]["seeks"]; print("%.0f" % (p["amount"]/p["elapsed_s"]))'
}
f() { taskset -c 0 fio --name=r --filename=/var/tmp/ab/f256m --size=256m --bs=8k --rw=randread --ioengine=io_uring --iodepth=$QD --direct=1 --fixedbufs=1 --registerfiles=1 --time_based --runtime=5 --randrepeat=0 --output-format=json | python3 -c 'import json,sys; j=json.load(sys.stdin)["jobs"][0]; print("%.0f" % j["read"]["iops"])'; }
for round in $(seq 1 ${ROUNDS:-6}); do
  case $((round % 3)) in
  1) a=$(c now); b=$(c wait); x=$(f);;
  2) b=$(c wait); x=$(f); a=$(c now);;
  0) x=$(f); a=$(c now); b=$(c wait);;
  esac
  echo "round $round: fio=$x clyde-now=$a clyde-settled=$b"
done

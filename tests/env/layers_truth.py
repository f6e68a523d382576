# SPDX-License-Identifier: BSD-2-Clause
"""--profile=layers held to a device whose service time is known.

    layers_truth.py JSON TEXT DELAY_US plain
    layers_truth.py JSON TEXT DELAY_US throttle IOPS

The device is a loop device whose every read and write faultfs delays by
DELAY_US; clyde ran its block phases and seeks with O_DIRECT and one
seeker. Each check prints "CHECK ok TEXT" or "CHECK FAIL TEXT"
(tests/env/truth_lib.sh counts them).

plain: in the block read and the seeks, the device time's p50 is within
15% of the delay (a request's time at the device is faultfs's sleep plus
FUSE's round trip), and in the seeks at least 90% of clyde's operation
time is at the device.

throttle: clyde ran in a cgroup whose blk-throttle held the device to
IOPS reads and writes a second. The throttle holds a bio before
block_bio_queue, so its wait lands above the block layer: the seeks'
operations take at least 80% of 1/IOPS, the device time's p50 stays
within 15% of the delay (the loop's own), the queue's p50 stays under a
tenth of the delay, and the share above the block layer is at least half
of clyde's operation time; the text and the JSON say where the wait lands.
"""
import json
import sys

NOTE = "a cgroup's blk-throttle wait is above the block layer"


def check(cond, text):
    print("CHECK %s %s" % ("ok" if cond else "FAIL", text))


def layers(run, phase):
    return run["phases"][phase]["profile"]["layers"]


def device_p50(run, phase, delay):
    dev = layers(run, phase)["device"]
    p50 = dev["p50_s"]
    check(p50 is not None and abs(p50 - delay) <= 0.15 * delay,
          "%s: device time p50 %s ms within 15%% of faultfs's delay %.1f ms (%d requests)"
          % (phase, "%.3f" % (p50 * 1e3) if p50 is not None else "null", delay * 1e3,
             dev["requests"]))


def main():
    path, text, delay, mode = sys.argv[1], sys.argv[2], int(sys.argv[3]) / 1e6, sys.argv[4]
    run = json.load(open(path))["runs"][0]
    seeks = layers(run, "seeks")
    check(seeks["state"] == "measured", "seeks: the split measured (state %r, why %r)"
          % (seeks["state"], seeks["why"]))
    if seeks["state"] != "measured":
        return
    ops = seeks["operations"]
    device_p50(run, "seeks", delay)
    if mode == "plain":
        device_p50(run, "get_block", delay)
        share = ops["device_share"]
        check(share is not None and share >= 0.90,
              "seeks: %s of clyde's operation time at the device, at least 90%%"
              % ("%.1f%%" % (share * 100) if share is not None else "null"))
        return
    iops = int(sys.argv[5])
    mean = ops["mean_s"]
    check(mean is not None and mean >= 0.8 / iops,
          "seeks: operations %s ms on average under a throttle of %d IOPS (at least %.1f ms)"
          % ("%.2f" % (mean * 1e3) if mean is not None else "null", iops, 800.0 / iops))
    q50 = seeks["queue"]["p50_s"]
    check(q50 is not None and q50 < delay / 10,
          "seeks: queue time p50 %s ms, under a tenth of the delay: the throttle's wait is not "
          "in the block layer's queue" % ("%.3f" % (q50 * 1e3) if q50 is not None else "null"))
    above = ops["above_share"]
    check(above is not None and above >= 0.5,
          "seeks: %s of clyde's operation time above the block layer, at least half"
          % ("%.1f%%" % (above * 100) if above is not None else "null"))
    check(seeks["throttle"] == NOTE, "the JSON says where the throttle's wait lands: %r"
          % seeks["throttle"])
    check(NOTE in open(text).read(), "the text says where the throttle's wait lands")


main()

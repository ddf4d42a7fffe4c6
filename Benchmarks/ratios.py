#!/usr/bin/env python3
"""ratios.py OUTDIR - the benchmark targets of the project, as ratios from one bench.sh run.

Reads OUTDIR/raw.tsv (bench.sh's rows, our rows among them), OUTDIR/sched.txt (the
sched-100k RESULT line) and OUTDIR/instructions.txt (Benchmarks/instructions.sh) and prints
each ratio beside its target, then each row's waits per operation. Wall-clock figures are
medians over rounds; instruction counts repeat from run to run, so one run gives them.
"""
import math
import re
import statistics
import sys


def medians(path):
    rows = {}
    for line in open(path):
        fields = line.rstrip("\n").split("\t")
        if len(fields) == 7:
            rows.setdefault(fields[1], []).append(float(fields[3]))
    return {label: statistics.median(values) for label, values in rows.items()}


def main(outdir):
    m = medians(outdir + "/raw.tsv")
    checks = [
        ("un-seq / libnotify-seq", "un-seq", "libnotify-seq", 1.0),
        ("un-seq / libdbus-seq", "un-seq", "libdbus-seq", 1.25),
        ("un-pipe / libdbus-pipe", "un-pipe", "libdbus-pipe", 1.2),
        ("un-action / libdbus-action", "un-action", "libdbus-action", 1.3),
        ("agent-seq / un-seq", "agent-seq", "un-seq", 1.5),
        ("notify / notify-send (per process)", "hf:notify", "hf:notify-send", 1.0),
        # No targets: un-seq without its delegate, and the same with its loop on the D-Bus I/O
        # thread (no thread but the one reading the socket woken): what the switches cost.
        ("un-seq-plain / libdbus-seq", "un-seq-plain", "libdbus-seq", None),
        ("un-seq-loop / libdbus-seq", "un-seq-loop", "libdbus-seq", None),
    ]
    print("wall clock, median over rounds")
    print("%-36s %10s %10s %8s %8s  %s" % ("ratio", "ours us", "peer us", "ratio", "target", "met"))
    for name, ours, peer, target in checks:
        a, b = m.get(ours, math.nan), m.get(peer, math.nan)
        ratio = a / b if b else math.nan
        met = "-" if target is None else ("yes" if ratio <= target else "no")
        print("%-36s %10.1f %10.1f %8.2f %8s  %s" % (name, a, b, ratio, "-" if target is None else "%.2f" % target, met))
    instructions(outdir)
    print()
    try:
        line = open(outdir + "/sched.txt").read()
        secs = float(re.search(r"secs=([0-9.]+)", line).group(1))
        rss = float(re.search(r"rss_mb=([0-9.]+)", line).group(1))
        late = re.search(r"late_us_p50=([0-9.]+)", line).group(1)
        print("%-36s %10.3f s (target < 1 s: %s), peak %.1f MB (target < 200 MB: %s), firing %s us late (median)"
              % ("sched-100k", secs, "yes" if secs < 1 else "no", rss, "yes" if rss < 200 else "no", late))
    except (OSError, AttributeError):
        print("sched-100k: no result in %s/sched.txt" % outdir)


def instructions(outdir):
    """The client's instructions per operation (OUTDIR/instructions.txt, Benchmarks/instructions.sh)."""
    try:
        lines = open(outdir + "/instructions.txt").read().splitlines()
    except OSError:
        print("instructions: no %s/instructions.txt" % outdir)
        return
    per_op, waits = {}, {}
    for line in lines:
        found = re.search(r"label=(\S+) per_op=(-?[0-9.]+)", line)
        if found:
            per_op[found.group(1)] = float(found.group(2))
        found = re.search(r"label=(\S+) .*waits_per_op=(-?[0-9.]+)", line)
        if found:
            waits[found.group(1)] = float(found.group(2))
    checks = [
        ("un-seq / libdbus-seq", "un-seq", "libdbus-seq", 1.5),
        ("un-seq / libnotify-seq", "un-seq", "libnotify-seq", None),
        ("un-pipe / libdbus-pipe", "un-pipe", "libdbus-pipe", None),
        ("un-action / libdbus-action", "un-action", "libdbus-action", None),
        ("agent-seq / un-seq (the app's side)", "agent-seq", "un-seq", None),
    ]
    print()
    print("instructions per operation, the client process (callgrind)")
    print("%-36s %10s %10s %8s %8s  %s" % ("ratio", "ours", "peer", "ratio", "target", "met"))
    for name, ours, peer, target in checks:
        a, b = per_op.get(ours, math.nan), per_op.get(peer, math.nan)
        ratio = a / b if b else math.nan
        met = "-" if target is None else ("yes" if ratio <= target else "no")
        print("%-36s %10.0f %10.0f %8.2f %8s  %s" % (name, a, b, ratio, "-" if target is None else "%.2f" % target, met))
    if not waits:
        return
    print()
    print("waits per operation, the client process (voluntary context switches: a thread put to sleep, then woken)")
    for label in ["libdbus-seq", "libnotify-seq", "un-seq", "un-seq-plain", "un-seq-loop",
                  "libdbus-pipe", "un-pipe", "libdbus-action", "un-action", "agent-seq"]:
        print("%-36s %10.2f" % (label, waits.get(label, math.nan)))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])

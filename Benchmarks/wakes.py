#!/usr/bin/env python3
"""wakes.py SCRIPT OPS - who wakes whom, per operation, from a perf record of a bench row.

Where instructions.sh counts a client's waits per operation, this names them: each wake-up of
a thread of the process, by the thread that woke it and the first functions of the project
(Swift symbols, `$s...`) on the waker's stack. Record a row with the scheduler's wake-up
tracepoint and call graphs, then print the samples:

    NULL_SERVER_INVOKE_ACTION=1 ../shared/bench/run-bus.sh -- perf record -g \\
        -e sched:sched_wakeup -o wk.data .build/release/notify-bench --rows un-action \\
        -n 800 --samples 1 --counting
    perf script -i wk.data -F comm,tid,trace,ip,sym > wk.txt
    python3 Benchmarks/wakes.py wk.txt 200

OPS is the row's operations (un-action makes n / 4 round trips). The first third of the
samples (start-up, the thread pool settling) is left out and the rest is scaled to it, so the
figures are per operation of the steady state. The process's first thread is `main`; the
others go by their name (libdispatch's threads are named after their quality of service, so
the threads of one pool count together; the D-Bus I/O thread takes the name of the thread
that started it).
"""
import collections
import re
import sys


def frames(lines, count=4):
    found = []
    for line in lines:
        parts = line.strip().split(None, 1)
        if len(parts) == 2 and parts[1].startswith("$s"):
            found.append(re.sub(r"\(.*", "", parts[1])[:80])
            if len(found) == count:
                break
    return " < ".join(found) or "(no project frame)"


def main(path, ops):
    blocks = [block for block in open(path).read().split("\n\n") if block.strip()]
    headers = [re.match(r"\s*(\S+)\s+(\d+)\s+comm=(\S+) pid=(\d+)", block) for block in blocks]
    tids = [int(match.group(2)) for match in headers if match]
    if not tids:
        sys.exit("wakes.py: no sched_wakeup samples in " + path)
    main_tid = min(tids)
    ours = set(tids)
    steady = list(zip(blocks, headers))[len(blocks) // 3:]
    scale = ops * (len(steady) / len(blocks))
    counts = collections.Counter()
    for block, header in steady:
        if not header:
            continue
        waker_name, waker = header.group(1), int(header.group(2))
        wakee_name, wakee = header.group(3), int(header.group(4))
        waker_role = "main" if waker == main_tid else waker_name
        wakee_role = "main" if wakee == main_tid else wakee_name if wakee in ours else f"{wakee_name} (another process)"
        counts[(waker_role, wakee_role, frames(block.split("\n")[1:]))] += 1
    print(f"wake-ups per operation ({len(steady)} samples over about {scale:.0f} operations)")
    for (waker, wakee, stack), count in counts.most_common(20):
        print(f"{count / scale:6.2f}  {waker} -> {wakee}\n        {stack}")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], int(sys.argv[2]))

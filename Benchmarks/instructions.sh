#!/usr/bin/env bash
# instructions.sh BENCH_DIR BIN OUTDIR - the instructions each row's client runs per operation,
# counted by valgrind's callgrind: unlike wall-clock time, the same for the same binary and
# inputs however loaded the machine is; and the times per operation a thread of the client
# waited (its voluntary context switches, from getrusage, in runs of their own without
# valgrind, which runs one thread at a time): what the instructions leave out of the wall-clock
# time, each wait a thread put to sleep and woken. Runs on a private bus with the null server
# (for the action rows answering each Notify with actions by ActionInvoked, as bench.sh does;
# for the others clicking nothing) and writes one line per row,
# `INSTR label=ROW per_op=I n1=N1 n2=N2 waits_per_op=W`, to OUTDIR/instructions.txt.
#
# Each row runs twice for each figure, with N1 and N2 operations; per_op = (I(N2) - I(N1)) /
# (N2 - N1), so the start-up (loading, connecting, the warm-up) cancels out. The waits take
# more operations (W1 and W2; fast without valgrind): over the first few hundred a process
# waits more often while its thread pool settles. {N4} is four times N: un-action makes one
# round trip per four of its -n, as bench.sh runs libdbus-action with N/4. Only the client
# process is counted (agent-seq's agent, started here beside it, is left out). The Swift
# binaries are run from copies without debug information: valgrind 3.19 cannot read the
# DWARF 5 Swift writes.
set -euo pipefail
[ $# = 3 ] || { sed -n '2,20p' "$0" >&2; exit 2; }
bench=$(cd "$1" && pwd)
bin=$(cd "$2" && pwd)
out=$3
N1=${INSTR_N1:-100}
N2=${INSTR_N2:-400}
W1=${WAITS_N1:-1000}
W2=${WAITS_N2:-3000}

if [ -z "${INSTR_INNER:-}" ]; then
    command -v valgrind >/dev/null || { echo "instructions.sh: valgrind is not installed" >&2; exit 1; }
    make -s -C "$bench" null-server libdbus-client libnotify-client >&2
    mkdir -p "$out/stripped"
    out=$(cd "$out" && pwd)
    for program in notify-bench notify; do
        cp "$bin/$program" "$out/stripped/$program"
        strip -g "$out/stripped/$program"
    done
    : >"$out/instructions.txt"
    # The action rows on a bus whose null server clicks each notification with actions, the
    # others on one whose server clicks nothing: ours carry `default` (the click on the
    # notification) whatever their category, and nobody clicks every notification.
    NULL_SERVER_INVOKE_ACTION= INSTR_INNER=unclicked "$bench/run-bus.sh" -- "$0" "$bench" "$bin" "$out"
    NULL_SERVER_INVOKE_ACTION=1 INSTR_INNER=clicked "$bench/run-bus.sh" -- "$0" "$bench" "$bin" "$out"
    exit 0
fi

stripped=$out/stripped
if [ "$INSTR_INNER" = clicked ]; then
    rows=(
        "libdbus-action|$bench/libdbus-client -q -n {N} -m action -l libdbus-action"
        "un-action|$stripped/notify-bench --rows un-action -n {N4} --samples 1 --counting"
    )
else
    rows=(
        "libdbus-seq|$bench/libdbus-client -q -n {N} -m seq -l libdbus-seq"
        "libdbus-pipe|$bench/libdbus-client -q -n {N} -m pipe -l libdbus-pipe"
        "libnotify-seq|$bench/libnotify-client -q -n {N} -l libnotify-seq"
        "un-seq|$stripped/notify-bench --rows un-seq -n {N} --samples 1 --counting"
        "un-seq-plain|$stripped/notify-bench --rows un-seq-plain -n {N} --samples 1 --counting"
        "un-seq-loop|$stripped/notify-bench --rows un-seq-loop -n {N} --samples 1 --counting"
        "un-pipe|$stripped/notify-bench --rows un-pipe -n {N} --samples 1 --counting"
        "agent-seq|$stripped/notify-bench --rows agent-seq -n {N} --samples 1 --counting --agent-pid {AGENT}"
    )
fi

# agent-seq's agent, started here (a process started under valgrind cannot start it), each
# run with a fresh state folder, stopped by its PID.
agent_pid=""
agent_state=""
start_agent() {
    agent_state=$(mktemp -d)
    XDG_STATE_HOME=$agent_state "$bin/notify" agent --foreground >"$agent_state/agent.log" 2>&1 &
    agent_pid=$!
    for _ in $(seq 200); do
        dbus-send --session --print-reply --dest=org.freedesktop.DBus / org.freedesktop.DBus.NameHasOwner \
            string:org.desktopnotifications.Agent 2>/dev/null | grep -q 'boolean true' && return 0
        sleep 0.05
    done
    echo "instructions.sh: the agent did not start: $(cat "$agent_state/agent.log")" >&2
    return 1
}
stop_agent() {
    [ -n "$agent_pid" ] || return 0
    kill "$agent_pid" 2>/dev/null || true
    wait "$agent_pid" 2>/dev/null || true
    rm -rf "$agent_state"
    agent_pid=""
}
trap stop_agent EXIT

# The instructions one run of `command` (with {N} replaced by n) takes, or with `waits` as the
# third argument the voluntary context switches of its process (every thread; a process it
# starts and waits for counts too, none of the rows starts one); a command naming {AGENT}
# runs beside an agent of its own.
count() {
    local command=${1//\{N\}/$2} log
    command=${command//\{N4\}/$(($2 * 4))}
    if [[ $command == *"{AGENT}"* ]]; then
        start_agent
        command=${command//\{AGENT\}/$agent_pid}
    fi
    log=$(mktemp)
    local failed=""
    # shellcheck disable=SC2086 # the command is a word list
    if [ "${3:-}" = waits ]; then
        python3 -c '
import resource, subprocess, sys
if subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL).returncode != 0:
    sys.exit(1)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_nvcsw)' $command 2>"$log" || failed=1
    elif valgrind --tool=callgrind --callgrind-out-file=/dev/null $command >/dev/null 2>"$log"; then
        awk '/Collected :/ { gsub(",", "", $NF); print $NF }' "$log"
    else
        failed=1
    fi
    if [ -n "$failed" ]; then
        echo "instructions.sh: failed${3:+ ($3)}: $command" >&2
        grep -v '^###' "$log" | tail -n 20 >&2
    fi
    rm -f "$log"
    stop_agent
    [ -z "$failed" ]
}

for row in "${rows[@]}"; do
    label=${row%%|*} command=${row#*|}
    first=$(count "$command" "$N1")
    second=$(count "$command" "$N2")
    waits1=$(count "$command" "$W1" waits)
    waits2=$(count "$command" "$W2" waits)
    line=$(awk -v l="$label" -v a="$first" -v b="$second" -v c="$waits1" -v d="$waits2" -v n1="$N1" -v n2="$N2" -v w1="$W1" -v w2="$W2" \
        'BEGIN { printf "INSTR label=%s per_op=%.0f n1=%d n2=%d waits_per_op=%.2f\n", l, (b - a) / (n2 - n1), n1, n2, (d - c) / (w2 - w1) }')
    echo "$line" | tee -a "$out/instructions.txt"
done

#!/bin/sh
# make demo-agent: RemindMeLater against the terminal presenter, on a private bus.
#
# Starts `notify server --private` (a private bus with the terminal presenter as the
# notification server; it reads this terminal's input), `notify agent` on that bus, writes a
# desktop entry for RemindMeLater in a temporary XDG_DATA_HOME, and runs the example. When the
# reminder shows, type 1 and Enter to click "Done": the agent starts the example again by the
# entry's Exec, and what its delegate got is printed here. Everything started is stopped by
# PID on the way out.
#
# Usage: demo-agent.sh BIN_DIR   (the folder of the built notify and RemindMeLater)
set -eu
bin=${1:?usage: demo-agent.sh BIN_DIR}
work=$(mktemp -d "${TMPDIR:-/tmp}/demo-agent.XXXXXX")
server_pid=""
agent_pid=""
tail_pid=""
# Each process is stopped by its PID and waited for before the folder goes: the agent saves its
# state as it stops, and a folder removed under it would not be empty.
cleanup() {
    for pid in $tail_pid $agent_pid $server_pid; do
        kill "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    rm -rf "$work"
}
trap cleanup EXIT INT TERM

# The presenter answers from this script's standard input (kept on fd 3: a background job's
# own would be /dev/null).
exec 3<&0
"$bin/notify" server --private <&3 >"$work/server.out" 2>&1 &
server_pid=$!
tries=0
until address=$(sed -n 's/^DBUS_SESSION_BUS_ADDRESS=//p' "$work/server.out") && [ -n "$address" ]; do
    tries=$((tries + 1))
    [ "$tries" -lt 100 ] || { echo "the presenter did not start:" >&2; cat "$work/server.out" >&2; exit 1; }
    sleep 0.1
done
tail -n +2 -f "$work/server.out" &
tail_pid=$!
export DBUS_SESSION_BUS_ADDRESS="$address"
export XDG_DATA_HOME="$work/data" XDG_STATE_HOME="$work/state"
mkdir -p "$XDG_DATA_HOME/applications"
cat >"$XDG_DATA_HOME/applications/org.desktopnotifications.RemindMeLater.desktop" <<ENTRY
[Desktop Entry]
Type=Application
Name=Remind Me Later
Exec="$bin/RemindMeLater" --relaunched --log "$work/relaunched.log"
ENTRY

"$bin/notify" agent --foreground --idle-exit 0 2>"$work/agent.log" &
agent_pid=$!
tries=0
until "$bin/notify" agent status >/dev/null 2>&1; do
    tries=$((tries + 1))
    [ "$tries" -lt 100 ] || { echo "the agent did not start:" >&2; cat "$work/agent.log" >&2; exit 1; }
    sleep 0.1
done
"$bin/RemindMeLater" --after "${REMIND_AFTER:-5}"
echo "Waiting for the reminder; type 1 and Enter to click Done."
tries=0
until [ -s "$work/relaunched.log" ]; do
    tries=$((tries + 1))
    [ "$tries" -lt "${DEMO_WAIT_TENTHS:-1200}" ] || { echo "No click came; stopping." >&2; kill "$tail_pid"; exit 1; }
    sleep 0.1
done
kill "$tail_pid" 2>/dev/null || true
echo "The example, started again by the agent, printed:"
cat "$work/relaunched.log"

#!/usr/bin/env python3
"""A hostile peer of the notification agent (org.desktopnotifications.Agent1).

HostilePeerTests (Tests/NotificationAgentTests) runs it in phases, each in a process of its
own so that the agent sees another PID than the honest app's:

  host           an unsandboxed caller: attachment paths to a FIFO, links, folders; budgets;
                 malformed calls; calls for another app; junk ids; floods; a center that
                 never answers WillPresent; a connection closed mid-call.
  triggers       an unsandboxed caller: trigger intervals and dates past what can be honoured.
  forged-honest  run under `unshare --user --map-root-user --mount`: makes its own root with a
                 /.flatpak-info naming the honest app, first without a running instance, then
                 with a forged $XDG_RUNTIME_DIR/.flatpak/<instance>/bwrapinfo.json naming its own
                 PID, and tries to take the honest app over and read its lists.
  sandboxed      as forged-honest, naming an id of its own: identified as a sandboxed app
                 through the agent's production path; names host paths, an icon path, other
                 ids, and hands over a FIFO and a folder as descriptors.

Each attack prints one line on standard output:

  RESULT<TAB>attack<TAB>outcome<TAB>seconds<TAB>started<TAB>detail

(started: the wall-clock time the attack began, in seconds since 1970)
where outcome is the D-Bus error name the agent answered with, `ok` for a call that succeeded,
or `bounded` for an attack whose outcome is a count (the detail says which). The script never
decides whether an outcome is right: the test does.
"""

import argparse
import json
import os
import stat
import subprocess
import sys
import time
from urllib.parse import quote

import dbus
import dbus.lowlevel

BUS_NAME = "org.desktopnotifications.Agent"
PATH = "/org/desktopnotifications/Agent"
INTERFACE = "org.desktopnotifications.Agent1"
CLIENT_PATH = "/org/desktopnotifications/AgentClient"


def report(attack, outcome, seconds, detail=""):
    detail = str(detail).replace("\t", " ").replace("\n", " ")[:400]
    started = time.time() - seconds
    print(f"RESULT\t{attack}\t{outcome}\t{seconds:.4f}\t{started:.3f}\t{detail}", flush=True)


class Peer:
    def __init__(self, address):
        self.address = address
        self.connection = dbus.bus.BusConnection(address)

    def call(self, member, signature, args, timeout=30.0, connection=None):
        connection = connection or self.connection
        return connection.call_blocking(BUS_NAME, PATH, INTERFACE, member, signature, args, timeout=timeout)

    def attempt(self, attack, member, signature, args, timeout=30.0, connection=None, expect_detail=None):
        """Makes one call and reports its outcome; returns (outcome, reply or message)."""
        start = time.monotonic()
        try:
            reply = self.call(member, signature, args, timeout=timeout, connection=connection)
            seconds = time.monotonic() - start
            detail = reply if expect_detail is None else expect_detail(reply)
            report(attack, "ok", seconds, detail)
            return "ok", reply
        except dbus.exceptions.DBusException as error:
            seconds = time.monotonic() - start
            name = error.get_dbus_name() or "unnamed"
            message = error.get_dbus_message() or ""
            report(attack, name, seconds, message)
            return name, message

    def send(self, member, signature, args, connection=None):
        """Sends a call without waiting for its reply."""
        message = dbus.lowlevel.MethodCallMessage(BUS_NAME, PATH, INTERFACE, member)
        if signature:
            message.append(signature=signature, *args)
        (connection or self.connection).send_message(message)


def record(fields):
    """An `a{sv}` record of the agent's interface."""
    return dbus.Dictionary(fields, signature="sv")


def records(items):
    """An `aa{sv}` list of records."""
    return dbus.Array(items, signature="a{sv}")


def size(value, top=True):
    """The bytes AgentPayload.size(of:) counts for a record or a value in it: 8 for each value
    and container, the UTF-8 length of each string, for a record's top level 8 and the key
    for each field, inside a variant 8 and the key's string value and the variant."""
    if isinstance(value, dbus.Dictionary):
        if top:
            return 8 + sum(8 + len(key.encode()) + size(item, top=False) for key, item in value.items())
        return 8 + sum(8 + len(key.encode()) + 8 + size(item, top=False) for key, item in value.items())
    if isinstance(value, dbus.Array):
        return 8 + sum(size(item, top=False) for item in value)
    if isinstance(value, str):
        return 8 + len(value.encode())
    return 8


class Requests:
    """Request records as NotificationRequestSnapshot+Record.swift documents them: fields with
    their default values left out, integers `x`, numbers `d`."""

    def __init__(self, request_bytes, batch_bytes):
        self.request_bytes = request_bytes
        self.batch_bytes = batch_bytes

    @staticmethod
    def content(identifier, body="Body", **fields):
        values = {"title": dbus.String("Title of " + identifier)}
        if body:
            values["body"] = dbus.String(body)
        values.update(fields)
        return record(values)

    def plain(self, identifier, padding=0, **fields):
        return record({"identifier": dbus.String(identifier), "content": self.content(identifier, "B" * padding if padding else "Body", **fields)})

    def interval(self, identifier, seconds, padding=0):
        request = self.plain(identifier, padding)
        request["trigger"] = record({"kind": dbus.String("timeInterval"), "interval": dbus.Double(seconds)})
        return request

    def later(self, identifier, padding=0):
        return self.interval(identifier, 3600.0, padding)

    def sized(self, identifier, total):
        """A request for later whose record is `total` bytes, by the size of its body."""
        request = self.interval(identifier, 3600.0)
        del request["content"]["body"]
        request["content"]["body"] = dbus.String("B" * (total - size(request) - 8 - len("body") - 8 - 8))
        assert size(request) == total, (size(request), total)
        return request

    def calendar(self, identifier, components):
        values = {"year": 2030, "month": 1, "day": 1, "hour": 9}
        values.update(components)
        request = self.plain(identifier)
        request["trigger"] = record({"kind": dbus.String("calendar"),
                                     "dateComponents": record({key: dbus.Int64(value) for key, value in values.items()})})
        return request

    def attached(self, identifier, paths):
        """A request with one attachment per path."""
        attachments = records([record({"identifier": dbus.String(f"file-{index}"), "url": dbus.String("file://" + quote(path))})
                               for index, path in enumerate(paths)])
        return self.plain(identifier, attachments=attachments)


def deepest_user_info():
    """User info nested as deep as D-Bus allows, 64 containers in all (variants included, as
    libdbus counts them: an a{sv} is an array and an entry). The body is `s`, then the
    request's a{sv} (2), the content's variant (3) and a{sv} (5), the userInfo variant (6);
    each level of user info adds an a{sv} and a variant (3), 19 of them to 63; at the bottom an
    array of object paths (64), which user info does not hold."""
    depth, value = 6 + 3 * 19 + 1, dbus.Array([dbus.ObjectPath("/deep")], signature="o")
    for _ in range(19):
        value = dbus.Dictionary({"next": value}, signature="sv")
    return depth, value


def fd(path, flags=os.O_RDONLY):
    return dbus.types.UnixFd(os.open(path, flags | os.O_NONBLOCK | os.O_CLOEXEC))


def no_options():
    return dbus.Dictionary({}, signature="sv")


def host_phase(args, requests):
    peer = Peer(args.bus)
    own = args.app_id
    victim = args.victim_home
    scratch = args.scratch
    fifo = os.path.join(scratch, "fifo")
    os.mkfifo(fifo, 0o600)
    link_file = os.path.join(scratch, "link-to-secret")
    link_folder = os.path.join(scratch, "link-to-private")
    os.symlink(os.path.join(victim, "secret.txt"), link_file)
    os.symlink(os.path.join(victim, "private"), link_folder)
    regular = os.path.join(scratch, "picture.png")
    with open(regular, "wb") as file:
        file.write(b"\x89PNG\r\n\x1a\n" + b"\0" * 1024)
    sparse = os.path.join(scratch, "sparse.png")
    with open(sparse, "wb") as file:
        file.truncate(65 << 20)

    peer.attempt("connect-own", "Connect", "sa{sv}", [own, {"name": "Hostile", "icon": "dialog-warning"}])

    # 1: a FIFO by path (would hang an open without O_NONBLOCK) and as a descriptor.
    peer.attempt("fifo-path", "Add", "sa{sv}", [own, requests.attached("fifo", [fifo])], timeout=10)
    writer_end = os.open(fifo, os.O_RDWR | os.O_NONBLOCK)
    peer.attempt("fifo-descriptor", "AddFiles", "sa{sv}ah", [own, requests.attached("fifo-fd", [fifo]), [dbus.types.UnixFd(writer_end)]],
                 timeout=10)
    # 2: links to a file and to a folder outside.
    peer.attempt("symlink-file", "Add", "sa{sv}", [own, requests.attached("link-file", [link_file])])
    peer.attempt("symlink-folder", "Add", "sa{sv}", [own, requests.attached("link-folder", [link_folder])])
    # 3: a big folder, by path and as a descriptor.
    peer.attempt("folder-path", "Add", "sa{sv}", [own, requests.attached("folder", [os.path.join(victim, "big")])])
    peer.attempt("folder-descriptor", "AddFiles", "sa{sv}ah",
                 [own, requests.attached("folder-fd", [regular]), [fd(os.path.join(victim, "big"), os.O_RDONLY | os.O_DIRECTORY)]])
    # 9: budgets. A request of exactly 64 KiB as AgentPayload.size(of:) counts it, and one of
    # a byte more; 60 KiB requests until the app's 16 MiB; attachments over the app's 64 MiB
    # (a sparse file: its size is read from the descriptor before a copy).
    limit = requests.request_bytes
    peer.attempt("request-at-64k", "Add", "sa{sv}", [own, requests.sized("request-at-limit", limit)])
    peer.attempt("request-over-64k", "Add", "sa{sv}", [own, requests.sized("request-over-limit", limit + 1)])
    # The batch bound, a byte over: refused whole, before any of its requests is read.
    batch, total, unit = [], 0, limit - 1000
    while requests.batch_bytes + 1 - total > limit:
        batch.append(requests.sized(f"batch-{len(batch)}", unit))
        total += unit
    batch.append(requests.sized(f"batch-{len(batch)}", requests.batch_bytes + 1 - total))
    peer.attempt("batch-over-bytes", "AddRequests", "saa{sv}", [own, records(batch)], timeout=60,
                 expect_detail=lambda reply: f"{len(reply)} answers")
    del batch
    # The budget from nothing held: the request at the limit is removed first.
    peer.call("RemovePendingRequests", "sasb", [own, dbus.Array([], signature="s"), True])
    start = time.monotonic()
    accepted, outcome, message = 0, "none", ""
    fill_size = size(requests.later("fill-000", padding=60 * 1024))
    for index in range(400):
        try:
            peer.call("Add", "sa{sv}", [own, requests.later(f"fill-{index:03d}", padding=60 * 1024)])
            accepted += 1
        except dbus.exceptions.DBusException as error:
            outcome, message = error.get_dbus_name(), error.get_dbus_message()
            break
    report("app-state-budget", outcome, time.monotonic() - start, f"accepted={accepted} size={fill_size} {message}")
    peer.attempt("attachment-over-budget-path", "Add", "sa{sv}", [own, requests.attached("sparse", [sparse])])
    peer.attempt("attachment-over-budget-descriptor", "AddFiles", "sa{sv}ah",
                 [own, requests.attached("sparse-fd", [sparse]), [fd(sparse)]])
    peer.attempt("attachments-over-count", "AddFiles", "sa{sv}ah",
                 [own, requests.attached("many", [regular] * 17), [fd(regular)]])
    # 17 descriptors in one message: past the bus's own limit (16 on dbus-daemon), which then
    # drops the sender's connection; on a connection of its own.
    many = Peer(args.bus)
    peer.attempt("descriptors-over-count", "AddFiles", "sa{sv}ah",
                 [own, requests.attached("many-fds", [regular] * 17), [fd(regular) for _ in range(17)]], connection=many.connection)
    # AddFiles whose descriptors do not match its attachments.
    peer.attempt("addfiles-fewer-descriptors", "AddFiles", "sa{sv}ah",
                 [own, requests.attached("mismatch-1", [regular, regular]), [fd(regular)]])
    peer.attempt("addfiles-more-descriptors", "AddFiles", "sa{sv}ah",
                 [own, requests.attached("mismatch-2", [regular]), [fd(regular), fd(regular), fd(regular)]])
    peer.attempt("addfiles-no-attachment", "AddFiles", "sa{sv}ah", [own, requests.plain("mismatch-3"), [fd(regular)]])
    # 10: a 20 MB display name (the bus or the agent refuses it), control characters, long icon.
    try:
        big = Peer(args.bus)
        peer.attempt("connect-20mb-name", "Connect", "sa{sv}", ["org.example.Hostile.Named", {"name": "N" * (20 << 20)}],
                     connection=big.connection, timeout=60)
        big.connection.close()
    except dbus.exceptions.DBusException as error:
        report("connect-20mb-name", error.get_dbus_name() or "unnamed", 0, error.get_dbus_message())
    peer.attempt("connect-control-name", "Connect", "sa{sv}", ["org.example.Hostile.Control", {"name": "a\x1b[2Jb"}])
    peer.attempt("connect-long-icon", "Connect", "sa{sv}", ["org.example.Hostile.Icon", {"icon": "i" * 4096}])
    # Another app's binding: no takeover, no reading, no changing.
    honest = args.honest_id
    peer.attempt("takeover-connect", "Connect", "sa{sv}", [honest, no_options()])
    peer.attempt("other-app-pending", "PendingRequests", "s", [honest])
    peer.attempt("other-app-delivered", "DeliveredNotifications", "s", [honest])
    peer.attempt("other-app-take-responses", "TakeResponses", "s", [honest])
    peer.attempt("other-app-add", "Add", "sa{sv}", [honest, requests.plain("forged")])
    peer.attempt("other-app-remove", "RemovePendingRequests", "sasb", [honest, dbus.Array([], signature="s"), True])
    peer.attempt("other-app-badge", "SetBadgeCount", "si", [honest, 99])
    # 11: Status from the user's own unsandboxed process: every app.
    peer.attempt("status-host", "Status", "", [])
    # Malformed calls.
    peer.attempt("signature-missing-argument", "Add", "s", [own])
    peer.attempt("signature-wrong-types", "Add", "ii", [1, 2])
    peer.attempt("signature-connect-ss", "Connect", "ss", [own, "x"])
    peer.attempt("signature-extra-argument", "Version", "s", ["x"])
    peer.attempt("signature-variant-body", "PendingRequests", "v", [dbus.String(own, variant_level=1)])
    peer.attempt("unknown-member", "DropEverything", "s", [own])
    peer.attempt("invalid-app-id", "PendingRequests", "s", ["../../../../etc"])
    peer.attempt("empty-app-id", "PendingRequests", "s", [""])
    # Records that are not requests: each refused, naming the field.
    peer.attempt("record-signature-ss", "Add", "ss", [own, "{}"])
    peer.attempt("record-signature-array", "Add", "saa{sv}", [own, records([requests.plain("as-array")])])
    unknown = requests.plain("unknown-field")
    unknown["colour"] = dbus.String("red")
    peer.attempt("record-unknown-field", "Add", "sa{sv}", [own, unknown])
    peer.attempt("record-unknown-content-field", "Add", "sa{sv}", [own, requests.plain("unknown-content", colour=dbus.String("red"))])
    peer.attempt("record-wrong-type", "Add", "sa{sv}", [own, requests.plain("wrong-type", badge=dbus.String("3"))])
    peer.attempt("record-wrong-integer-type", "Add", "sa{sv}", [own, requests.plain("wrong-integer", badge=dbus.Int32(3))])
    nameless = requests.plain("nameless")
    del nameless["identifier"]
    peer.attempt("record-missing-identifier", "Add", "sa{sv}", [own, nameless])
    mixed = requests.calendar("mixed-trigger", {})
    mixed["trigger"]["interval"] = dbus.Double(60)
    peer.attempt("record-trigger-other-kind", "Add", "sa{sv}", [own, mixed])
    kindless = requests.later("kindless")
    kindless["trigger"]["kind"] = dbus.String("whenever")
    peer.attempt("record-trigger-unknown-kind", "Add", "sa{sv}", [own, kindless])
    # User info nested as deep as D-Bus allows (64 containers in all, variants included), with
    # a value user info does not hold at the bottom: the agent walks it all and refuses it.
    depth, deep = deepest_user_info()
    peer.attempt("record-userinfo-deep", "Add", "sa{sv}", [own, requests.plain("deep", userInfo=deep)], expect_detail=lambda _: f"depth={depth}")
    # One container deeper: the bus (or libdbus before it) refuses the message; on a
    # connection of its own, since the bus may drop the sender.
    deeper = Peer(args.bus)
    too_deep = dbus.Dictionary({"next": deep}, signature="sv")
    try:
        deeper.attempt("record-userinfo-too-deep", "Add", "sa{sv}", [own, requests.plain("too-deep", userInfo=too_deep)], timeout=10)
    except (TypeError, ValueError) as error:
        report("record-userinfo-too-deep", "refused-by-libdbus", 0, error)
    deeper.connection.close()
    # Huge arrays.
    peer.attempt("addrequests-10k", "AddRequests", "saa{sv}", [own, records([requests.plain(f"b{i}") for i in range(10000)])],
                 timeout=60)
    peer.attempt("remove-100k-ids", "RemovePendingRequests", "sasb", [own, dbus.Array([f"id-{i}" for i in range(100000)], signature="s"), False],
                 timeout=60)
    peer.attempt("acknowledge-100k-ids", "AcknowledgeResponses", "sas", [own, dbus.Array([f"r-{i}" for i in range(100000)], signature="s")],
                 timeout=60)
    peer.attempt("categories-signature-ss", "SetCategories", "ss", [own, "[{" * 30000])
    peer.attempt("categories-wrong-type", "SetCategories", "saa{sv}",
                 [own, records([record({"identifier": dbus.String("fine")}), record({"identifier": dbus.Int64(7)})])])
    peer.attempt("categories-unknown-field", "SetCategories", "saa{sv}",
                 [own, records([record({"identifier": dbus.String("odd"), "colour": dbus.String("red")})])])
    # Flooding: calls sent without waiting for their replies, then one that must be answered.
    start = time.monotonic()
    for index in range(3000):
        peer.send("Version", "", [])
        peer.send("Status", "", [])
        peer.send("PendingRequests", "s", [honest])
    outcome, _ = peer.attempt("flood-then-version", "Version", "", [], timeout=60)
    report("flood", "bounded", time.monotonic() - start, "sent=9000 then Version answered" if outcome == "ok" else outcome)
    # A connection closed in the middle of its calls.
    start = time.monotonic()
    closing = Peer(args.bus)
    closing.call("Connect", "sa{sv}", ["org.example.Hostile.Closing", no_options()])
    closing.send("AddRequests", "saa{sv}", ["org.example.Hostile.Closing", records([requests.later(f"c{i}") for i in range(900)])])
    closing.send("AddFiles", "sa{sv}ah", ["org.example.Hostile.Closing", requests.attached("closing-fd", [regular]), [fd(regular)]])
    closing.send("Add", "sa{sv}", ["org.example.Hostile.Closing", requests.attached("closing-path", [regular])])
    closing.connection.close()
    report("close-mid-call", "bounded", time.monotonic() - start, "closed with three calls in flight")
    # A center that never answers WillPresent: its Adds wait for the agent's deadline; nobody else does.
    silent = Peer(args.bus)
    silent.call("Connect", "sa{sv}", ["org.example.Hostile.Silent", no_options()])
    start = time.monotonic()
    for index in range(3):
        silent.send("Add", "sa{sv}", ["org.example.Hostile.Silent", requests.plain(f"silent-{index}")])
    outcome, _ = silent.attempt("silent-center-then-pending", "PendingRequests", "s", ["org.example.Hostile.Silent"], timeout=120)
    report("silent-center", "bounded", time.monotonic() - start, f"3 Adds never answered, then PendingRequests: {outcome}")
    silent.connection.close()
    # An attachment from the user's own process by path: taken, into the agent's store.
    peer.attempt("regular-attachment-path", "Add", "sa{sv}", [own, requests.attached("regular", [regular])])
    # 6: host Connects of junk ids, on a connection of their own: bounded by AgentLimits.apps;
    # the apps are let go once it closes (they hold nothing).
    junk = Peer(args.bus)
    start = time.monotonic()
    connected, refusals = 0, {}
    for index in range(args.junk_ids):
        try:
            junk.call("Connect", "sa{sv}", [f"org.example.Junk.App{index}", no_options()])
            connected += 1
        except dbus.exceptions.DBusException as error:
            refusals[error.get_dbus_name()] = refusals.get(error.get_dbus_name(), 0) + 1
    report("junk-host-connects", "bounded", time.monotonic() - start,
           f"tried={args.junk_ids} connected={connected} refused={json.dumps(refusals, sort_keys=True)}")
    junk.connection.close()
    peer.attempt("version-at-end", "Version", "", [])


def trigger_phase(args, requests):
    peer = Peer(args.bus)
    own = args.app_id
    peer.attempt("connect-own", "Connect", "sa{sv}", [own, no_options()])
    # 5: intervals and dates past what a clock can honour.
    for name, seconds in [("interval-1e300", 1e300), ("interval-1e19", 1e19), ("interval-negative", -1.0), ("interval-max-double", 1.7976931348623157e308)]:
        peer.attempt(f"trigger-{name}", "Add", "sa{sv}", [own, requests.interval(name, seconds)], timeout=10)
    for name, components in [
        ("calendar-year-int-max", {"year": 9223372036854775807}),
        ("calendar-year-1e12", {"year": 1000000000000}),
        ("calendar-day-huge", {"day": 2147483647}),
        ("calendar-year-negative", {"year": -9223372036854775807}),
        # The farthest year a date may have: taken, saved, and read back by the next agent.
        ("calendar-year-100000", {"year": 100000}),
    ]:
        peer.attempt(f"trigger-{name}", "Add", "sa{sv}", [own, requests.calendar(name, components)], timeout=10)
    peer.attempt("trigger-version-at-end", "Version", "", [])


def make_own_root(args, flatpak_id, instance):
    """Makes a root of the process's own (it runs in a user and mount namespace of its own):
    a tmpfs with every top-level folder bound into it and a /.flatpak-info naming `flatpak_id`."""
    root = os.path.join(args.scratch, f"root-{flatpak_id}")
    os.makedirs(root, exist_ok=True)
    subprocess.run(["mount", "--make-rprivate", "/"], check=True)
    subprocess.run(["mount", "-t", "tmpfs", "tmpfs", root], check=True)
    for name in sorted(os.listdir("/")):
        source = "/" + name
        target = os.path.join(root, name)
        if os.path.islink(source):
            os.symlink(os.readlink(source), target)
        elif os.path.isdir(source):
            os.mkdir(target)
            subprocess.run(["mount", "--rbind", source, target], check=True)
    with open(os.path.join(root, ".flatpak-info"), "w", encoding="utf-8") as file:
        file.write(f"[Application]\nname={flatpak_id}\nruntime=runtime/org.freedesktop.Platform/x86_64/24.08/stable\n\n"
                   f"[Instance]\ninstance-id={instance}\napp-path=/var/lib/flatpak/app/{flatpak_id}/current/active/files\n")
    os.chroot(root)
    os.chdir("/")


def forge_instance(args, instance):
    """Writes $XDG_RUNTIME_DIR/.flatpak/<instance>/bwrapinfo.json naming this process."""
    folder = os.path.join(args.runtime, ".flatpak", instance)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "bwrapinfo.json"), "w", encoding="utf-8") as file:
        json.dump({"child-pid": os.getpid(), "mnt-namespace": 0, "pid-namespace": 0}, file)


def forged_honest_phase(args, requests):
    instance = "4242424242"
    make_own_root(args, args.honest_id, instance)
    peer = Peer(args.bus)
    honest = args.honest_id
    # 8: without a running instance, the file alone is refused.
    peer.attempt("forged-no-instance-connect", "Connect", "sa{sv}", [honest, no_options()])
    forge_instance(args, instance)
    # With a forged instance it is identified as the honest app, sandboxed: still no takeover.
    peer.attempt("forged-instance-connect", "Connect", "sa{sv}", [honest, no_options()])
    peer.attempt("forged-instance-pending", "PendingRequests", "s", [honest])
    peer.attempt("forged-instance-delivered", "DeliveredNotifications", "s", [honest])
    peer.attempt("forged-instance-take-responses", "TakeResponses", "s", [honest])
    peer.attempt("forged-instance-add", "Add", "sa{sv}", [honest, requests.plain("forged-instance")])
    peer.attempt("forged-instance-status", "Status", "", [])
    # 6: a sandboxed caller claiming other ids: each refused, nothing made.
    start = time.monotonic()
    refusals = {}
    for index in range(args.claimed_ids):
        try:
            peer.call("Connect", "sa{sv}", [f"org.example.Claimed.App{index}", no_options()])
            refusals["ok"] = refusals.get("ok", 0) + 1
        except dbus.exceptions.DBusException as error:
            refusals[error.get_dbus_name()] = refusals.get(error.get_dbus_name(), 0) + 1
    report("sandboxed-claims-other-ids", "bounded", time.monotonic() - start,
           f"tried={args.claimed_ids} outcomes={json.dumps(refusals, sort_keys=True)}")


def sandboxed_phase(args, requests):
    instance = "5151515151"
    own = args.app_id
    make_own_root(args, own, instance)
    forge_instance(args, instance)
    peer = Peer(args.bus)
    victim = args.victim_home
    # 10: an icon path makes the server read a host file for the app: refused.
    peer.attempt("sandboxed-icon-path", "Connect", "sa{sv}", [own, {"icon": os.path.join(victim, "secret.txt")}])
    peer.attempt("sandboxed-connect", "Connect", "sa{sv}", [own, {"name": "Sandboxed", "icon": "dialog-information"}])
    # 11: Status names the caller's own app only.
    peer.attempt("sandboxed-status", "Status", "", [])
    # 4: host paths, existing or not: refused before anything is opened, the same words for both.
    for name, path in [("bashrc", os.path.join(victim, ".bashrc")), ("secret", os.path.join(victim, "secret.txt")),
                       ("missing", os.path.join(victim, "missing.txt")), ("folder", os.path.join(victim, "big"))]:
        peer.attempt(f"sandboxed-host-path-{name}", "Add", "sa{sv}", [own, requests.attached(f"host-{name}", [path])])
        peer.attempt(f"sandboxed-host-path-batch-{name}", "AddRequests", "saa{sv}",
                     [own, records([requests.attached(f"hostb-{name}", [path])])])
    # 4: a localized text's bundle named by path, which the agent would open to look it up:
    # refused before anything is opened, the same words for a folder that exists and one that does not.
    for name, path in [("home", victim), ("missing", os.path.join(victim, "missing.bundle"))]:
        lookup = record({"key": dbus.String("greeting"), "bundlePath": dbus.String(path)})
        peer.attempt(f"sandboxed-bundle-path-{name}", "Add", "sa{sv}",
                     [own, requests.plain(f"bundle-{name}", localizations=record({"title": lookup}))])
    # 1, 3: a FIFO and a folder as descriptors; a regular file as a descriptor is taken.
    fifo = os.path.join(args.scratch, "sandbox-fifo")
    os.mkfifo(fifo, 0o600)
    peer.attempt("sandboxed-fifo-descriptor", "AddFiles", "sa{sv}ah",
                 [own, requests.attached("s-fifo", [fifo]), [dbus.types.UnixFd(os.open(fifo, os.O_RDWR | os.O_NONBLOCK))]])
    peer.attempt("sandboxed-folder-descriptor", "AddFiles", "sa{sv}ah",
                 [own, requests.attached("s-folder", [fifo]), [fd(os.path.join(victim, "big"), os.O_RDONLY | os.O_DIRECTORY)]])
    regular = os.path.join(args.scratch, "sandbox-picture.png")
    with open(regular, "wb") as file:
        file.write(b"\x89PNG\r\n\x1a\n" + b"\1" * 2048)
    peer.attempt("sandboxed-regular-descriptor", "AddFiles", "sa{sv}ah", [own, requests.attached("s-regular", [regular]), [fd(regular)]])
    # Calls for the honest app.
    peer.attempt("sandboxed-other-app-pending", "PendingRequests", "s", [args.honest_id])
    peer.attempt("sandboxed-version-at-end", "Version", "", [])


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--phase", required=True, choices=["host", "triggers", "forged-honest", "sandboxed"])
    parser.add_argument("--bus", required=True, help="the private bus's address")
    parser.add_argument("--request-bytes", type=int, required=True, help="AgentLimits.requestBytes")
    parser.add_argument("--batch-bytes", type=int, required=True, help="AgentInterface.maximumBatchBytes")
    parser.add_argument("--scratch", required=True, help="a folder of the attacker's own")
    parser.add_argument("--victim-home", required=True, help="the user's home, whose files must not change")
    parser.add_argument("--runtime", required=True, help="the agent's XDG_RUNTIME_DIR")
    parser.add_argument("--honest-id", required=True)
    parser.add_argument("--app-id", default="org.example.Hostile")
    parser.add_argument("--junk-ids", type=int, default=200)
    parser.add_argument("--claimed-ids", type=int, default=60)
    args = parser.parse_args()
    requests = Requests(args.request_bytes, args.batch_bytes)
    phases = {"host": host_phase, "triggers": trigger_phase, "forged-honest": forged_honest_phase, "sandboxed": sandboxed_phase}
    phases[args.phase](args, requests)
    print("DONE", flush=True)


if __name__ == "__main__":
    main()

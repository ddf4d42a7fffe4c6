import Foundation
import FreedesktopNotifications
import NotifyCLI
import Testing
import UserNotificationsTesting

/// The built `notify` binary given hostile input from every side: payloads, peers on the bus,
/// files in its folders, the keyboard and its own command line. Each ends in a clear error or
/// a safe rendering, never a crash, a hang, or a process left behind.
@Suite("notify under hostile input")
struct NotifyHostileInputTests {
    /// An environment with no session bus (so the terminal fallback is used) and a temporary
    /// folder of its own, where the fallback's private bus keeps its files.
    static func fallbackEnvironment(temporary: URL) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=/nonexistent/notify-tests/bus"
        environment["TMPDIR"] = temporary.path
        return environment
    }

    /// The processes whose command line mentions `text` (a private bus names its folder).
    static func processes(mentioning text: String) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> pid_t? in
            guard let pid = pid_t(entry), pid != getpid(),
                  let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline")
            else { return nil }
            let command = String(decoding: data.map { $0 == 0 ? 32 : $0 }, as: UTF8.self)
            return command.contains(text) ? pid : nil
        }
    }

    /// Waits at most 10 s until no process mentions `folder`; kills (by PID) and returns any
    /// left after that, so a failing test leaves nothing running.
    static func leftoverProcesses(in folder: URL) async -> [pid_t] {
        let deadline = ContinuousClock.now + .seconds(10)
        while !processes(mentioning: folder.path).isEmpty && ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(50))
        }
        let left = processes(mentioning: folder.path)
        for pid in left { kill(pid, SIGKILL) }
        return left
    }

    // MARK: - Payloads

    @Test("notify push with a loc-key naming a huge argument position shows the rest of the text and exits 0")
    func hugeLocalizedPosition() async throws {
        let folder = try NotifyCommandTests.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let payload = folder.appendingPathComponent("payload.json")
        try Data(#"{"aps": {"alert": {"title": "T", "loc-key": "a%9223372036854775807$@b%100000000$@c", "loc-args": ["x"]}}}"#.utf8)
            .write(to: payload)
        let bus = try await TestBus()
        let server = try await FakeNotificationServer.start(on: bus.bus)
        var environment = bus.environment
        environment["XDG_STATE_HOME"] = folder.path
        let pushed = try await ChildProcess(executable: NotifyCommandTests.executable(), arguments: ["push", payload.path], environment: environment)
            .result(timeout: .seconds(15))
        #expect(pushed.status == .exited(0), "\(pushed.standardError)")
        #expect(server.notifications.map(\.request.body) == ["abc"])
        await server.stop()
        await bus.stop()
    }

    // MARK: - The keyboard

    @Test("typing 1 in the terminal fallback for a notification without buttons is no crash, and the private bus is stopped")
    func numberWithoutButtons() async throws {
        let folder = try NotifyCommandTests.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let keys = folder.appendingPathComponent("keys")
        try Data("1\n".utf8).write(to: keys)
        let temporary = folder.appendingPathComponent("tmp", isDirectory: true)
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        let result = try await NotifyCommandTests.run(
            in: folder, ["-w", "No buttons"], stdin: keys, environment: Self.fallbackEnvironment(temporary: temporary))
        #expect(result.status == .exited(0), "\(result.standardError)")
        #expect(result.standardError.contains("[answer with an empty line]"))
        #expect(await Self.leftoverProcesses(in: temporary).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).isEmpty)
    }

    @Test("the terminal fallback's private bus is stopped even when notify is killed", arguments: [SIGKILL, SIGTERM, SIGHUP])
    func killedFallback(signal: Int32) async throws {
        let folder = try NotifyCommandTests.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let temporary = folder.appendingPathComponent("tmp", isDirectory: true)
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        // A keyboard that stays open: the presenter waits for an answer.
        let keys = folder.appendingPathComponent("keys").path
        try #require(mkfifo(keys, 0o600) == 0)
        let keyboard = open(keys, O_RDWR | O_CLOEXEC)
        try #require(keyboard >= 0)
        defer { close(keyboard) }
        let waiting = try ChildProcess(
            executable: URL(fileURLWithPath: "/bin/sh"),
            arguments: ["-c", "exec \"$0\" -w Waiting < \"$1\"", try NotifyCommandTests.executable().path, keys],
            environment: Self.fallbackEnvironment(temporary: temporary))
        let deadline = ContinuousClock.now + .seconds(15)
        while !waiting.standardError.contains("│ Waiting") && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        try #require(waiting.standardError.contains("│ Waiting"), "\(waiting.standardError)")
        #expect(!Self.processes(mentioning: temporary.path).isEmpty, "the private bus runs while notify waits")
        #expect(waiting.send(signal))
        #expect(await waiting.waitForExit(timeout: .seconds(10)) == .signaled(signal))
        #expect(await Self.leftoverProcesses(in: temporary).isEmpty)
    }

    // MARK: - What is printed

    static let hostileSummary = "Sum\u{1B}[2J\u{1B}]0;owned\u{07}mary\u{9B}8m\u{202E}gpj.exe"

    /// `text` has no C0 control but newline and tab, no DEL, no C1 control, no bidi override.
    static func isNeutral(_ text: String) -> Bool {
        !text.unicodeScalars.contains { scalar in
            (scalar.value < 0x20 && scalar != "\n" && scalar != "\t") || (0x7F...0x9F).contains(scalar.value)
                || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
        }
    }

    @Test("notify server prints a peer's escape sequences neutralised")
    func serverNeutralises() async throws {
        let bus = try await TestBus()
        let serving = try NotifyCommandTests.start(["server"], bus: bus)
        try await bus.waitForName(NotificationsInterface.busName, ownedBy: serving)
        let client = NotificationsClient(bus: bus.bus)
        _ = try await client.notify(NotifyRequest(
            appName: "App\u{1B}[1A", summary: Self.hostileSummary, body: "body\u{1B}[8m", actions: [NotificationAction(key: "k", label: "L\u{0D}abel")]))
        #expect(await serving.waitForOutput(containing: "abel", timeout: .seconds(10)))
        #expect(Self.isNeutral(serving.standardOutput), "\(serving.standardOutput.debugDescription)")
        #expect(serving.standardOutput.contains("│ Sum^[[2J^[]0;owned^Gmary<U+009B>8m<U+202E>gpj.exe\n"))
        await client.disconnect()
        #expect(serving.interrupt())
        #expect(await serving.waitForExit(timeout: .seconds(10)) == .exited(0))
        await bus.stop()
    }

    @Test("the terminal fallback prints the notification's escape sequences neutralised")
    func fallbackNeutralises() async throws {
        let folder = try NotifyCommandTests.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let shown = try ChildProcess(
            executable: NotifyCommandTests.executable(), arguments: ["-a", "A\u{1B}c", Self.hostileSummary, "one\u{1B}[2K\\ntwo"],
            environment: Self.fallbackEnvironment(temporary: folder))
        let result = try await shown.result(timeout: .seconds(15))
        #expect(result.status == .exited(0), "\(result.standardError)")
        #expect(Self.isNeutral(result.standardError), "\(result.standardError.debugDescription)")
        #expect(result.standardError.contains("│ one^[[2K\n│ two\n"))
    }

    @Test("notify list prints remembered summaries neutralised, on one line each")
    func listNeutralises() async throws {
        let state = try NotifyCommandTests.scratchFolder()
        defer { try? FileManager.default.removeItem(at: state) }
        let bus = try await TestBus()
        let server = try await FakeNotificationServer.start(on: bus.bus)
        var environment = bus.environment
        environment["XDG_STATE_HOME"] = state.path
        let shown = try await ChildProcess(executable: NotifyCommandTests.executable(), arguments: ["--id", "x", Self.hostileSummary], environment: environment)
            .result(timeout: .seconds(15))
        #expect(shown.status == .exited(0), "\(shown.standardError)")
        let listed = try await ChildProcess(executable: NotifyCommandTests.executable(), arguments: ["list"], environment: environment)
            .result(timeout: .seconds(15))
        #expect(listed.status == .exited(0), "\(listed.standardError)")
        #expect(Self.isNeutral(listed.standardOutput), "\(listed.standardOutput.debugDescription)")
        #expect(listed.standardOutput.hasSuffix("\tSum^[[2J^[]0;owned^Gmary<U+009B>8m<U+202E>gpj.exe\n"))
        await server.stop()
        await bus.stop()
    }

    // MARK: - The command line

    @Test("a --timeout too long to count exits 1 with a message, whichever parser reads it", arguments: [
        ["--timeout", "1e17", "-w", "Too long"], ["--timeout", "1e17", "--in", "1h", "Too long"], ["--timeout=1e300", "Too long"],
    ])
    func hugeTimeout(arguments: [String]) async throws {
        let bus = try await TestBus()
        let server = try await FakeNotificationServer.start(on: bus.bus)
        let result = try await NotifyCommandTests.run(arguments, bus: bus)
        #expect(result.status == .exited(1), "\(result.standardError)")
        #expect(result.standardError.contains("--timeout accepts at most"), "\(result.standardError)")
        #expect(server.notifications.isEmpty)
        await server.stop()
        await bus.stop()
    }

    @Test("a command line past the argument limit exits 1 at once, before any parser reads it")
    func tooManyArguments() async throws {
        let bus = try await TestBus()
        let server = try await FakeNotificationServer.start(on: bus.bus)
        let words = ["--bogus"] + Array(repeating: ["-A", "a=b"], count: 4_000).flatMap { $0 } + ["Title"]
        let result = try await NotifyCommandTests.run(words, bus: bus)
        #expect(result.status == .exited(1), "\(result.standardError)")
        #expect(result.standardError.contains("too many arguments (8002); at most 1024"), "\(result.standardError)")
        #expect(server.notifications.isEmpty)
        await server.stop()
        await bus.stop()
    }

    // MARK: - Records of scheduled notifications

    /// Writes a record `id` to the records folder as `fields` over plausible values, and
    /// locks it from this process, as a waiting process would; returns the descriptor.
    static func plantRecord(_ id: String, in setup: NotifySchedulingTests.Setup, _ fields: [String: Any]) throws -> Int32 {
        let now = Date().timeIntervalSince1970
        var record: [String: Any] = [
            "format": 2, "id": id, "pid": Int(getpid()), "summary": "Planted", "appName": "notify", "created": now,
            "schedule": ["trigger": ["timeInterval": ["_0": 3_600, "repeats": false]], "anchor": now],
        ]
        record.merge(fields) { $1 }
        try FileManager.default.createDirectory(at: setup.records, withIntermediateDirectories: true)
        let path = setup.records.appendingPathComponent("\(id).json").path
        try JSONSerialization.data(withJSONObject: record).write(to: URL(fileURLWithPath: path))
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        try #require(descriptor >= 0)
        try #require(flock(descriptor, LOCK_EX | LOCK_NB) == 0)
        return descriptor
    }

    @Test("a record with times out of range is reported as unreadable by notify pending and left out, never a crash or a hang", arguments: [
        #"{"schedule": {"anchor": 4102444800, "trigger": {"timeInterval": {"_0": 1e300, "repeats": true}}}}"#,
        #"{"schedule": {"anchor": 4102444800, "trigger": {"timeInterval": {"_0": 1e-300, "repeats": true}}}}"#,
        #"{"schedule": {"anchor": -1e300, "trigger": {"timeInterval": {"_0": 1, "repeats": true}}}}"#,
        #"{"schedule": {"anchor": 1e300, "trigger": {"timeInterval": {"_0": 60, "repeats": false}}}}"#,
        #"{"schedule": {"anchor": 4102444800, "trigger": {"timeInterval": {"_0": 60, "repeats": false, "anchorDate": 1e300}}}}"#,
        #"{"schedule": {"anchor": -1e300, "everyDays": 9223372036854775807, "trigger": {"calendar": {"_0": {"hour": 0, "minute": 0, "second": 0}, "repeats": true}}}}"#,
        #"{"schedule": {"anchor": 4102444800, "everyDays": 9223372036854775807, "trigger": {"calendar": {"_0": {"hour": 0, "minute": 0, "second": 0}, "repeats": true}}}}"#,
        #"{"schedule": {"anchor": 4102444800, "everyDays": 1, "trigger": {"calendar": {"_0": {"hour": 9223372036854775807, "minute": 0, "second": 0}, "repeats": true}}}}"#,
        #"{"schedule": {"anchor": 4102444800, "trigger": {"calendar": {"_0": {"year": -9223372036854775807, "month": 1, "day": 1, "hour": 0, "minute": 0, "second": 0}, "repeats": false}}}}"#,
        #"{"schedule": {"anchor": 4102444800, "everyDays": 1, "trigger": {"calendar": {"_0": {"hour": 8, "minute": 0, "second": 0, "weekdayOrdinal": 99999999}, "repeats": true}}}}"#,
        #"{"schedule": {"anchor": 4102444800, "trigger": {"push": {}}}}"#,
        #"{"created": 1e300}"#,
    ])
    func outOfRangeRecord(fields: String) async throws {
        let setup = try await NotifySchedulingTests.Setup()
        let values = try #require(try JSONSerialization.jsonObject(with: Data(fields.utf8)) as? [String: Any])
        let held = try Self.plantRecord("0ddba110", in: setup, values)
        defer { close(held) }
        for arguments in [["pending"], ["pending", "--json"]] {
            let listed = try await setup.run(arguments)
            #expect(listed.status == .exited(0), "\(listed.standardError)")
            #expect(listed.standardError.contains("skipping 0ddba110.json"), "\(listed.standardError)")
            #expect(!listed.standardOutput.contains("Planted"))
        }
        await setup.stop()
    }

    @Test("a planted record with plausible values is listed by notify pending: the out-of-range cases test the ranges, not the layout")
    func plausibleRecordIsListed() async throws {
        let setup = try await NotifySchedulingTests.Setup()
        let held = try Self.plantRecord("0ddba111", in: setup, [:])
        defer { close(held) }
        let listed = try await setup.run(["pending"])
        #expect(listed.status == .exited(0), "\(listed.standardError)")
        #expect(listed.standardOutput.hasPrefix("0ddba111\t") && listed.standardOutput.contains("Planted"), "\(listed.standardOutput)")
        #expect(listed.standardError.isEmpty, "\(listed.standardError)")
        await setup.stop()
    }

    @Test("notify cancel never signals a process that does not hold the record's lock, however the record names it")
    func plantedRecord() async throws {
        let setup = try await NotifySchedulingTests.Setup()
        let bystander = try ChildProcess(executable: URL(fileURLWithPath: "/usr/bin/sleep"), arguments: ["60"])
        // The record names the bystander; its lock is held by this process.
        let held = try Self.plantRecord("feedf00d", in: setup, ["pid": Int(bystander.pid)])
        defer { close(held) }
        let all = try await setup.run(["cancel", "--all"])
        let one = try await setup.run(["cancel", "feedf00d"])
        try await Task.sleep(for: .milliseconds(200))
        #expect(bystander.isRunning, "cancel --all: \(all.standardError) cancel ID: \(one.standardError)")
        #expect(one.status == .exited(1))
        #expect(await bystander.kill() == .signaled(SIGKILL))
        await setup.stop()
    }

    @Test("a descriptor limit that leaves the D-Bus I/O thread no descriptor ends in an error, never a trap")
    func descriptorLimit() async throws {
        let bus = try await TestBus()
        let server = try await FakeNotificationServer.start(on: bus.bus)
        let notify = try NotifyCommandTests.executable().path
        // With room to spare the same command line shows the notification: the limit is what fails.
        // The low limits run ten times each: libdispatch's main-queue descriptor raced with the
        // bus connection's, and lost (a trap) about one run in eight at a limit of 6.
        let limits = Array(repeating: [6, 7, 8, 9, 10, 12], count: 10).flatMap { $0 } + [256]
        for limit in limits {
            let result = try await ChildProcess(
                executable: URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", "ulimit -n \(limit) && exec \"$0\" Summary", notify],
                environment: bus.environment
            ).result(timeout: .seconds(15))
            guard case .exited(let code) = result.status else {
                Issue.record("at a limit of \(limit) descriptors notify ended with \(result.status): \(result.standardError)")
                continue
            }
            if limit == 256 { #expect(code == 0, "\(result.standardError)") }
            if limit < DescriptorFloor.minimum {
                #expect(code == 1 && result.standardError.contains("the open-file limit (ulimit -n) is \(limit)"), "\(result.standardError)")
            }
        }
        #expect(server.notifications.map(\.request.summary).last == "Summary")
        await server.stop()
        await bus.stop()
    }
}

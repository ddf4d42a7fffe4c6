import Foundation
import FreedesktopNotifications
import Testing
import UserNotifications
import UserNotificationsTesting
@testable import NotifyCLI

/// End-to-end tests of `notify --in/--at/--every`, `notify pending` and `notify cancel`: the
/// built binary against ``FakeNotificationServer`` on a private ``TestBus``, each test with a
/// runtime folder of its own (`XDG_RUNTIME_DIR`), so tests running in parallel never see each
/// other's scheduled notifications.
///
/// Timing: the lower bounds are tight (a notification never comes early), the upper bounds
/// generous (a loaded two-core machine runs the tests in parallel).
@Suite("notify scheduling")
struct NotifySchedulingTests {
    /// A bus, a fake server and a runtime folder for one test.
    struct Setup {
        let bus: TestBus
        let server: FakeNotificationServer
        let runtime: URL
        var environment: [String: String]

        init(personality: ServerPersonality = .gnome, timeZone: String? = nil) async throws {
            bus = try await TestBus()
            server = try await FakeNotificationServer.start(on: bus.bus, personality: personality)
            runtime = try NotifyCommandTests.scratchFolder()
            environment = bus.environment
            environment["XDG_RUNTIME_DIR"] = runtime.path
            environment["XDG_STATE_HOME"] = runtime.appendingPathComponent("state").path
            if let timeZone { environment["TZ"] = timeZone }
        }

        /// The folder of the records.
        var records: URL { runtime.appendingPathComponent("notify/scheduled") }

        /// The files in the records folder (none when it does not exist).
        var recordFiles: [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: records.path)) ?? []).sorted()
        }

        func start(_ arguments: [String]) throws -> ChildProcess {
            try ChildProcess(executable: NotifyCommandTests.executable(), arguments: arguments, environment: environment)
        }

        func run(_ arguments: [String]) async throws -> CommandResult {
            try await start(arguments).result(timeout: .seconds(15))
        }

        /// `notify pending --json`, decoded.
        func pending() async throws -> [[String: Any]] {
            let result = try await run(["pending", "--json"])
            try #require(result.status == .exited(0), "\(result.standardError)")
            return try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [[String: Any]])
        }

        /// Polls `notify pending --json` until the process `pid` is listed (it lists itself
        /// once it has started), at most 10 s; returns its entry.
        func waitUntilPending(pid: Int32) async throws -> [String: Any]? {
            let deadline = ContinuousClock.now + .seconds(10)
            while ContinuousClock.now < deadline {
                if let entry = try await pending().first(where: { $0["pid"] as? Int == Int(pid) }) { return entry }
                try await Task.sleep(for: .milliseconds(50))
            }
            return nil
        }

        func stop() async {
            await server.stop()
            await bus.stop()
            try? FileManager.default.removeItem(at: runtime)
        }
    }

    /// Reads the `nextFire` of `notify pending --json`.
    static func date(_ text: Any?) -> Date? {
        guard let text = text as? String else { return nil }
        return ISO8601DateFormatter().date(from: text)
    }

    // MARK: - Delivery

    @Test("--in 2s shows nothing at once, then the same Notify as without --in, after at least 2 s; the process exits 0")
    func delayedDelivery() async throws {
        let setup = try await Setup(personality: .kde)
        let arguments = ["-u", "critical", "-a", "Scheduler", "-i", "alarm-clock", "-c", "reminder", "-h", "int:x:5", "-t", "4000",
                         "Tea", "The tea is\\nready"]
        let immediate = try await setup.run(arguments)
        #expect(immediate.status == .exited(0), "\(immediate.standardError)")

        let started = ContinuousClock.now
        let scheduled = try setup.start(["--in", "2s"] + arguments)
        try await Task.sleep(for: .seconds(1))
        // Looked at before the time: on a machine loaded enough that the sleep overran the
        // 2 s, the look proves nothing (the elapsed check below still holds the time).
        let shownAtLook = setup.server.notifications.count
        let runningAtLook = scheduled.isRunning
        if ContinuousClock.now - started < .milliseconds(1900) {
            #expect(shownAtLook == 1, "nothing is shown before the time")
            #expect(runningAtLook)
        }
        let id = try #require(await setup.server.waitForNotify(count: 2, timeout: .seconds(15)), "\(scheduled.standardError)")
        let elapsed = ContinuousClock.now - started
        #expect(elapsed >= .milliseconds(1950), "shown after \(elapsed)")
        #expect(elapsed <= .seconds(15))
        let result = try await scheduled.result(timeout: .seconds(10))
        #expect(result.status == .exited(0), "\(result.standardError)")
        #expect(result.standardOutput.isEmpty)
        let posted = setup.server.notifications
        try #require(posted.count == 2)
        #expect(posted[1].id == id)
        #expect(NotifyCommandTests.normalized(posted[1].request) == NotifyCommandTests.normalized(posted[0].request))
        #expect(posted[1].request.hints[raw: "sender-pid"] == .int64(Int64(scheduled.pid)))
        #expect(setup.recordFiles.isEmpty, "\(setup.recordFiles)")
        #expect(try await setup.pending().isEmpty)
        await setup.stop()
    }

    @Test("--at HH:MM:SS a few seconds ahead (local time from TZ) fires then; -p and --json keep working")
    func atTimeOfDay() async throws {
        let setup = try await Setup(timeZone: "Asia/Kolkata")
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "Asia/Kolkata"))
        // Whole seconds: the fire time is the start of the second 5 s from now.
        let now = Date()
        let fire = Date(timeIntervalSince1970: (now.timeIntervalSince1970 + 5).rounded(.down))
        let parts = calendar.dateComponents([.hour, .minute, .second], from: fire)
        let time = String(format: "%02d:%02d:%02d", parts.hour!, parts.minute!, parts.second!)
        let scheduled = try setup.start(["--at", time, "-p", "--json", "At a time"])
        let entry = try #require(try await setup.waitUntilPending(pid: scheduled.pid), "\(scheduled.standardError)")
        #expect(Self.date(entry["nextFire"]) == fire)
        #expect((entry["nextFire"] as? String)?.hasSuffix("+05:30") == true, "\(entry)")
        let id = try #require(await setup.server.waitForNotify(timeout: .seconds(15)), "\(scheduled.standardError)")
        #expect(Date() >= fire)
        let result = try await scheduled.result(timeout: .seconds(10))
        #expect(result.status == .exited(0), "\(result.standardError)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        #expect(object["id"] as? Int == Int(id))
        await setup.stop()
    }

    @Test("--every 1s delivers again and again, each a full Notify; notify cancel stops it and nothing more comes")
    func everySecond() async throws {
        let setup = try await Setup()
        let started = ContinuousClock.now
        let repeating = try setup.start(["--every", "1s", "-p", "-a", "Ticker", "Tick"])
        let third = try #require(await setup.server.waitForNotify(count: 3, timeout: .seconds(15)), "\(repeating.standardError)")
        let elapsed = ContinuousClock.now - started
        #expect(elapsed >= .milliseconds(2950), "three deliveries after \(elapsed)")
        #expect(repeating.isRunning)
        let entry = try #require(try await setup.waitUntilPending(pid: repeating.pid))
        #expect(entry["every"] as? String == "1s")
        let scheduleID = try #require(entry["id"] as? String)

        let cancelled = try await setup.run(["cancel", scheduleID])
        #expect(cancelled.status == .exited(0), "\(cancelled.standardError)")
        let result = try await repeating.result(timeout: .seconds(10))
        #expect(result.status == .exited(0), "\(result.standardError)")
        let shown = setup.server.notifications
        #expect(shown.count >= 3)
        #expect(shown.allSatisfy { $0.request.summary == "Tick" && $0.request.appName == "Ticker" })
        // -p printed each id it was given.
        let printed = result.standardOutput.split(separator: "\n").compactMap { UInt32($0) }
        #expect(printed.count == shown.count)
        #expect(printed.contains(third))
        try await Task.sleep(for: .milliseconds(1500))
        #expect(setup.server.notifications.count == shown.count, "nothing comes after cancel")
        #expect(setup.recordFiles.isEmpty, "\(setup.recordFiles)")
        await setup.stop()
    }

    // MARK: - pending and cancel

    @Test("notify pending lists each waiting process (text and --json): id, next fire, repeat, pid, summary")
    func pendingLists() async throws {
        let setup = try await Setup(timeZone: "UTC")
        let started = Date()
        let once = try setup.start(["--in", "60", "-a", "App", "--id", "tea", "Tea\tin a minute"])
        // An hour ago on the clock: tomorrow, about 23 hours ahead (TZ is UTC here).
        let hourAgo = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: started.addingTimeInterval(-3_600))
        let daily = try setup.start(["--at", String(format: "%02d:%02d", hourAgo.hour!, hourAgo.minute!), "--every", "1d", "Daily"])
        let hourly = try setup.start(["--in", "10m", "--every", "1h30m", "Hourly"])
        let onceEntry = try #require(try await setup.waitUntilPending(pid: once.pid), "\(once.standardError)")
        let dailyEntry = try #require(try await setup.waitUntilPending(pid: daily.pid), "\(daily.standardError)")
        let hourlyEntry = try #require(try await setup.waitUntilPending(pid: hourly.pid), "\(hourly.standardError)")

        #expect(onceEntry["summary"] as? String == "Tea\tin a minute")
        #expect(onceEntry["appName"] as? String == "App")
        #expect(onceEntry["identifier"] as? String == "tea")
        #expect(onceEntry["every"] is NSNull)
        let onceID = try #require(onceEntry["id"] as? String)
        #expect(onceID.count == 8 && onceID.allSatisfy(\.isHexDigit))
        let onceFire = try #require(Self.date(onceEntry["nextFire"]))
        #expect(onceFire >= started.addingTimeInterval(59) && onceFire <= Date().addingTimeInterval(61))
        #expect(dailyEntry["every"] as? String == "1d")
        let dailyFire = try #require(Self.date(dailyEntry["nextFire"]))
        #expect(dailyFire > started.addingTimeInterval(22 * 3_600) && dailyFire <= started.addingTimeInterval(23 * 3_600))
        #expect(hourlyEntry["every"] as? String == "1h30m")

        // Text: one line per process, earliest first, tab-separated.
        let text = try await setup.run(["pending"])
        #expect(text.status == .exited(0), "\(text.standardError)")
        let lines = text.standardOutput.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        try #require(lines.count == 3, "\(text.standardOutput)")
        #expect(lines[0] == [onceID, lines[0][1], "-", "\(once.pid)", "Tea in a minute"])
        #expect(lines[0][1].count == 19, "local date and time: \(lines[0][1])")
        #expect(lines[1][0] == hourlyEntry["id"] as? String && lines[1][2] == "1h30m" && lines[1][4] == "Hourly")
        #expect(lines.map { $0[3] }.contains("\(daily.pid)"))
        #expect(setup.recordFiles.count == 3, "\(setup.recordFiles)")

        let all = try await setup.run(["cancel", "--all"])
        #expect(all.status == .exited(0), "\(all.standardError)")
        for process in [once, daily, hourly] {
            let result = try await process.result(timeout: .seconds(10))
            #expect(result.status == .exited(0), "\(result.standardError)")
            #expect(result.standardError.isEmpty, "cancelled silently: \(result.standardError)")
        }
        #expect(setup.server.notifications.isEmpty)
        #expect(try await setup.pending().isEmpty)
        #expect(setup.recordFiles.isEmpty, "\(setup.recordFiles)")
        await setup.stop()
    }

    @Test("notify cancel ID ends the waiting process (exit 0) and no Notify is ever sent; an unknown id exits 1")
    func cancelOne() async throws {
        let setup = try await Setup()
        let started = ContinuousClock.now
        let kept = try setup.start(["--in", "60s", "Kept"])
        let doomed = try setup.start(["--in", "8s", "-w", "Never shown"])
        let keptID = try #require(try await setup.waitUntilPending(pid: kept.pid)?["id"] as? String)
        let doomedID = try #require(try await setup.waitUntilPending(pid: doomed.pid)?["id"] as? String)
        let cancelled = try await setup.run(["cancel", doomedID])
        #expect(cancelled.status == .exited(0), "\(cancelled.standardError)")
        #expect(cancelled.standardOutput.isEmpty)
        let result = try await doomed.result(timeout: .seconds(10))
        #expect(result.status == .exited(0), "\(result.standardError)")
        #expect(result.standardOutput.isEmpty)
        // Past the time it would have fired: still nothing.
        try await Task.sleep(until: started + .seconds(9))
        #expect(setup.server.notifications.isEmpty)
        #expect(setup.server.calls.isEmpty)
        #expect(try await setup.pending().map { $0["id"] as? String } == [keptID])

        let again = try await setup.run(["cancel", doomedID])
        #expect(again.status == .exited(1))
        #expect(again.standardError.contains("No scheduled notification \"\(doomedID)\" is waiting"))
        let bogus = try await setup.run(["cancel", "../../x"])
        #expect(bogus.status == .exited(1))
        let nothing = try await setup.run(["cancel"])
        #expect(nothing.status == .exited(1))
        #expect(nothing.standardError.contains("--all"))
        #expect(kept.isRunning)
        #expect(try await setup.run(["cancel", keptID]).status == .exited(0))
        #expect(try await kept.result(timeout: .seconds(10)).status == .exited(0))
        await setup.stop()
    }

    // MARK: - Signals and stale records

    @Test("SIGINT or SIGTERM while waiting to fire: exit 0, nothing shown, no record left", arguments: [SIGINT, SIGTERM])
    func signalWhileWaiting(signal: Int32) async throws {
        let setup = try await Setup()
        let waiting = try setup.start(["--in", "60s", "--every", "1h", "Interrupted"])
        #expect(try await setup.waitUntilPending(pid: waiting.pid) != nil, "\(waiting.standardError)")
        #expect(setup.recordFiles.count == 1)
        #expect(waiting.send(signal))
        let result = try await waiting.result(timeout: .seconds(10))
        #expect(result.status == .exited(0), "\(result.standardError)")
        #expect(result.standardError.contains("Scheduled notification cancelled"))
        #expect(setup.recordFiles.isEmpty, "\(setup.recordFiles)")
        #expect(try await setup.pending().isEmpty)
        #expect(setup.server.notifications.isEmpty)
        await setup.stop()
    }

    @Test("SIGINT during a repeat's --wait closes that notification as notify -w does, and no repeat follows")
    func interruptDuringRepeatWait() async throws {
        let setup = try await Setup()
        let repeating = try setup.start(["--every", "1s", "-w", "Waited on"])
        let id = try #require(await setup.server.waitForNotify(timeout: .seconds(15)), "\(repeating.standardError)")
        let sender = try #require(setup.server.notifications.first?.sender)
        #expect(repeating.interrupt())
        let result = try await repeating.result(timeout: .seconds(10))
        #expect(result.status == .exited(0), "\(result.standardError)")
        #expect(result.standardError.contains("Wait cancelled"))
        #expect(setup.server.calls.contains(.closeNotification(id: id, sender: sender)))
        try await Task.sleep(for: .milliseconds(1500))
        #expect(setup.server.notifications.count == 1)
        #expect(setup.recordFiles.isEmpty, "\(setup.recordFiles)")
        await setup.stop()
    }

    @Test("a record whose process was killed (lock free) and garbage files are removed by pending; a locked unreadable one is skipped")
    func staleAndGarbage() async throws {
        let setup = try await Setup()
        let killed = try setup.start(["--in", "1h", "Killed"])
        let killedID = try #require(try await setup.waitUntilPending(pid: killed.pid)?["id"] as? String)
        #expect(killed.send(SIGKILL))
        #expect(await killed.waitForExit(timeout: .seconds(10)) == .signaled(SIGKILL))
        #expect(setup.recordFiles == ["\(killedID).json"], "the record outlives a SIGKILL")

        try Data("not json".utf8).write(to: setup.records.appendingPathComponent("0badf00d.json"))
        try Data([0xFF, 0x00, 0x7B]).write(to: setup.records.appendingPathComponent("whatever.json"))
        try Data(#"{"format":1,"id":"12345678","pid":-3}"#.utf8).write(to: setup.records.appendingPathComponent("12345678.json"))
        // A file whose lock someone holds, but that is no record: skipped, with a warning.
        let lockedPath = setup.records.appendingPathComponent("abcdef01.json").path
        try Data(#"{"format":99}"#.utf8).write(to: URL(fileURLWithPath: lockedPath))
        let held = open(lockedPath, O_RDONLY | O_CLOEXEC)
        try #require(held >= 0)
        defer { close(held) }
        try #require(flock(held, LOCK_EX | LOCK_NB) == 0)

        let live = try setup.start(["--in", "1h", "Alive"])
        let liveID = try #require(try await setup.waitUntilPending(pid: live.pid)?["id"] as? String)
        let listed = try await setup.run(["pending"])
        #expect(listed.status == .exited(0), "\(listed.standardError)")
        #expect(listed.standardOutput.hasPrefix("\(liveID)\t"))
        #expect(listed.standardOutput.split(separator: "\n").count == 1)
        #expect(listed.standardError.contains("skipping abcdef01.json"))
        #expect(setup.recordFiles == ["\(liveID).json", "abcdef01.json"].sorted(), "\(setup.recordFiles)")
        let stale = try await setup.run(["cancel", killedID])
        #expect(stale.status == .exited(1))
        #expect(try await setup.run(["cancel", liveID]).status == .exited(0))
        #expect(try await live.result(timeout: .seconds(10)).status == .exited(0))
        #expect(setup.server.notifications.isEmpty)
        await setup.stop()
    }

    // MARK: - Bad values

    @Test("bad durations and times exit 1 with a message on standard error, and nothing is scheduled or shown", arguments: [
        (["--in", "0"], "--in needs a duration above 0"),
        (["--in=-5m"], "--in needs a duration above 0"),
        (["--in", "soon"], "--in needs a duration such as 90s, 10m, 1h30m or 2d"),
        (["--in", "1h30"], "--in needs a duration such as"),
        (["--every", "0s"], "--every needs a duration above 0"),
        (["--every", "0.5"], "--every needs at least 1 second"),
        (["--every", "5x"], "--every needs a duration such as"),
        (["--at", "25:00"], "--at needs a time such as 18:30"),
        (["--at", "tomorrow"], "--at needs a time such as 18:30"),
        (["--at", "2001-01-01T00:00"], "--at 2001-01-01T00:00 is in the past."),
        (["--at", "2020-06-01T12:00:00Z"], "is in the past."),
        (["--at", "2031-02-30T10:00"], "is not a date that exists"),
        (["--in", "1m", "--at", "10:00"], "--in and --at cannot be used together"),
    ])
    func badValues(arguments: [String], message: String) async throws {
        let setup = try await Setup()
        let result = try await setup.run(arguments + ["Summary"])
        #expect(result.status == .exited(1))
        #expect(result.standardError.contains(message), "\(result.standardError)")
        #expect(result.standardError.hasSuffix("\n"))
        #expect(result.standardOutput.isEmpty)
        #expect(setup.server.notifications.isEmpty)
        #expect(setup.recordFiles.isEmpty)
        await setup.stop()
    }

    @Test("--at resolves local dates through the library's calendar trigger: a time skipped by DST fires after the gap, a repeated one at its first occurrence")
    func atAcrossDaylightSaving() async throws {
        let setup = try await Setup(timeZone: "Europe/Berlin")
        // 29 March 2037: Berlin springs from 02:00 to 03:00. 25 October 2037: back from 03:00 to 02:00.
        let cases = [
            ("2037-03-29T02:30", "2037-03-29T03:00:00+02:00"),
            ("2037-10-25T02:30", "2037-10-25T02:30:00+02:00"),
            ("2037-12-24T18:30:15", "2037-12-24T18:30:15+01:00"),
            ("2037-12-24 18:30Z", "2037-12-24T19:30:00+01:00"),
            ("2037-12-24T18:30-05:00", "2037-12-25T00:30:00+01:00"),
        ]
        var processes: [ChildProcess] = []
        for (time, expected) in cases {
            let process = try setup.start(["--at", time, "Later"])
            processes.append(process)
            let entry = try #require(try await setup.waitUntilPending(pid: process.pid), "\(time): \(process.standardError)")
            #expect(entry["nextFire"] as? String == expected, "--at \(time)")
        }
        #expect(try await setup.run(["cancel", "--all"]).status == .exited(0))
        for process in processes {
            #expect(try await process.result(timeout: .seconds(10)).status == .exited(0))
        }
        await setup.stop()
    }

    // MARK: - Help, manual, completion

    @Test("pending and cancel have help, are in notify --help, the completion scripts and the manual's description")
    func helpAndCompletion() async throws {
        let setup = try await Setup()
        let help = try await setup.run(["help", "pending"])
        #expect(help.status == .exited(0))
        #expect(help.standardOutput.contains("USAGE: notify pending"))
        let cancelHelp = try await setup.run(["cancel", "--help"])
        #expect(cancelHelp.standardOutput.contains("USAGE: notify cancel"))
        let root = try await setup.run(["--help"])
        for word in ["--in <DURATION>", "--at <TIME>", "--every <DURATION>", "notify pending", "notify cancel"] {
            #expect(root.standardOutput.contains(word), "\(word) missing from --help")
        }
        let bash = try await setup.run(["--generate-completion-script", "bash"])
        for word in ["pending", "cancel", "--every", "--at"] {
            #expect(bash.standardOutput.contains(word), "\(word) missing from the bash script")
        }
        let dump = try await setup.run(["--experimental-dump-help"])
        let tool = try #require(try JSONSerialization.jsonObject(with: Data(dump.standardOutput.utf8)) as? [String: Any])
        let command = try #require(tool["command"] as? [String: Any])
        let names = (command["subcommands"] as? [[String: Any]] ?? []).compactMap { $0["commandName"] as? String }
        #expect(names.contains("pending") && names.contains("cancel"))
        #expect(setup.server.notifications.isEmpty)
        await setup.stop()
    }

    // MARK: - Parsing and date arithmetic (pure functions, fixed now and time zone)

    /// The Gregorian calendar in Los Angeles (PST/PDT), where the pure tests live.
    static let losAngeles: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "America/Los_Angeles")!
        return calendar
    }()

    /// The instant an ISO 8601 UTC text such as 2024-03-10T04:00:00Z names.
    static func utc(_ text: String) -> Date {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)!
    }

    static func schedule(in delay: String? = nil, at time: String? = nil, every: String? = nil, now: Date) throws -> Schedule {
        try #require(try Schedule.make(delay: delay, time: time, every: every, now: now, calendar: losAngeles))
    }

    /// The first `count` deliveries, each computed as the process does: after the previous one.
    static func deliveries(_ schedule: Schedule, count: Int) throws -> [Date] {
        var dates = [try #require(schedule.first)]
        while dates.count < count, let last = dates.last, let next = schedule.nextFireDate(after: last) {
            dates.append(next)
        }
        return dates
    }

    @Test("durations: units d h m s, plain seconds, fractions; days stay calendar days; text round-trips", arguments: [
        ("90s", 90.0, nil as Int?, "1m30s"), ("10m", 600, nil, "10m"), ("1h30m", 5_400, nil, "1h30m"), ("2d", 172_800, 2, "2d"),
        ("45", 45, nil, "45s"), ("1.5h", 5_400, nil, "1h30m"), ("1H5S", 3_605, nil, "1h5s"), ("24h", 86_400, nil, "24h"),
        ("1d12h", 129_600, nil, "36h"), ("0.5", 0.5, nil, "0.5s"), (" 7d ", 604_800, 7, "7d"), ("1d0h", 86_400, 1, "1d"),
    ])
    func durations(text: String, seconds: Double, days: Int?, normalized: String) throws {
        let duration = try ScheduleDuration.parse(text, option: "--in")
        #expect(duration.seconds == seconds)
        #expect(duration.days == days)
        #expect(duration.text == normalized)
        #expect(try ScheduleDuration.parse(normalized, option: "--in") == duration)
    }

    @Test("bad durations are errors naming the option, never crashes", arguments: [
        "", "0", "0s", "0d0h", "-5m", "-1", "abc", "1h30", "30m1h", "1m1m", "1e3", "1 h", "h", ".", "1..5s", "3651d", "99999999999999999999d", "nan", "inf",
    ])
    func badDurations(text: String) {
        #expect(throws: ScheduleError.self) { try ScheduleDuration.parse(text, option: "--every") }
        do {
            _ = try ScheduleDuration.parse(text, option: "--every")
        } catch {
            #expect(error.description.hasPrefix("--every "))
        }
    }

    @Test("times: HH:MM, HH:MM:SS, ISO 8601 with or without seconds, fraction and offset")
    func times() throws {
        #expect(try ScheduleTime.parse("18:30", option: "--at") == .timeOfDay(hour: 18, minute: 30, second: 0))
        #expect(try ScheduleTime.parse("7:05:09", option: "--at") == .timeOfDay(hour: 7, minute: 5, second: 9))
        #expect(try ScheduleTime.parse("00:00", option: "--at") == .timeOfDay(hour: 0, minute: 0, second: 0))
        #expect(try ScheduleTime.parse("2026-12-24T18:30", option: "--at") == .local(year: 2026, month: 12, day: 24, hour: 18, minute: 30, second: 0))
        #expect(try ScheduleTime.parse("2026-12-24 18:30:15", option: "--at") == .local(year: 2026, month: 12, day: 24, hour: 18, minute: 30, second: 15))
        #expect(try ScheduleTime.parse("2028-02-29T08:00:00.250", option: "--at") == .local(year: 2028, month: 2, day: 29, hour: 8, minute: 0, second: 0))
        #expect(try ScheduleTime.parse("2026-12-24T18:30Z", option: "--at") == .instant(Self.utc("2026-12-24T18:30:00Z")))
        #expect(try ScheduleTime.parse("2026-12-24T18:30:05+01:00", option: "--at") == .instant(Self.utc("2026-12-24T17:30:05Z")))
        #expect(try ScheduleTime.parse("2026-12-24T18:30-0530", option: "--at") == .instant(Self.utc("2026-12-25T00:00:00Z")))
        #expect(try ScheduleTime.parse("2026-12-24T18:30+09", option: "--at") == .instant(Self.utc("2026-12-24T09:30:00Z")))
        #expect(try ScheduleTime.parse("2000-03-01T00:00:00Z", option: "--at") == .instant(Self.utc("2000-03-01T00:00:00Z")))
        for bad in ["24:00", "18:60", "18:30:60", "18", "1830", "18:3", "018:30", "2026-12-24", "2026-12-24T", "2026-12-24T18",
                    "2026-12-24T18:30+1", "2026-12-24T18:30 UTC", "26-12-24T18:30", "2026-12-24T18:30:00.", "noon", ""] {
            #expect(throws: ScheduleError.self, "\(bad)") { try ScheduleTime.parse(bad, option: "--at") }
        }
        for missing in ["2026-02-29T10:00", "2026-13-01T10:00", "2026-04-31T10:00", "2026-00-10T10:00"] {
            #expect(throws: ScheduleError(description: "--at: \"\(missing)\" is not a date that exists."), "\(missing)") {
                try ScheduleTime.parse(missing, option: "--at")
            }
        }
    }

    @Test("--at HH:MM is today when still ahead, else tomorrow; across the spring-forward night a skipped time fires after the gap")
    func timeOfDayRollover() throws {
        // Saturday 9 March 2024, 20:00 in Los Angeles (PST, UTC-8); DST starts at 02:00 on the 10th.
        let now = Self.utc("2024-03-10T04:00:00Z")
        #expect(try Self.schedule(at: "21:00", now: now).first == Self.utc("2024-03-10T05:00:00Z"))
        #expect(try Self.schedule(at: "20:00", now: now).first == Self.utc("2024-03-11T03:00:00Z"), "now is not ahead: tomorrow, in PDT")
        #expect(try Self.schedule(at: "18:30", now: now).first == Self.utc("2024-03-11T01:30:00Z"))
        #expect(try Self.schedule(at: "02:30", now: now).first == Self.utc("2024-03-10T10:00:00Z"), "02:30 does not exist: 03:00 PDT")
        #expect(try Self.schedule(at: "20:00:01", now: now).first == Self.utc("2024-03-10T04:00:01Z"))
    }

    @Test("--every Nd keeps the local time of day across DST; --every in hours counts elapsed time")
    func repeatsAcrossDaylightSaving() throws {
        let now = Self.utc("2024-03-09T04:00:00Z")  // Friday 8 March, 20:00 PST
        let daily = try Self.schedule(at: "02:30", every: "1d", now: now)
        #expect(try Self.deliveries(daily, count: 4) == [
            Self.utc("2024-03-09T10:30:00Z"),  // Sat 02:30 PST
            Self.utc("2024-03-10T10:00:00Z"),  // Sun: 02:30 skipped, 03:00 PDT
            Self.utc("2024-03-11T09:30:00Z"),  // Mon 02:30 PDT
            Self.utc("2024-03-12T09:30:00Z"),
        ])
        let hourly = try Self.schedule(at: "00:30", every: "1h", now: now)
        let elapsed = try Self.deliveries(hourly, count: 5)
        #expect(elapsed.first == Self.utc("2024-03-09T08:30:00Z"))
        #expect(zip(elapsed, elapsed.dropFirst()).allSatisfy { $1.timeIntervalSince($0) == 3_600 })
        let noon = try Self.schedule(at: "12:00", every: "24h", now: now)
        let across = try Self.deliveries(noon, count: 2)
        #expect(across == [Self.utc("2024-03-09T20:00:00Z"), Self.utc("2024-03-10T20:00:00Z")], "24h is elapsed time: 13:00 PDT on the 10th")

        // Fall back, 3 November 2024: 01:30 happens twice; the first (PDT) is the one.
        let autumn = Self.utc("2024-11-02T19:00:00Z")  // Saturday noon PDT
        let early = try Self.schedule(at: "01:30", every: "1d", now: autumn)
        #expect(try Self.deliveries(early, count: 3) == [
            Self.utc("2024-11-03T08:30:00Z"),  // Sun 01:30 PDT
            Self.utc("2024-11-04T09:30:00Z"),  // Mon 01:30 PST
            Self.utc("2024-11-05T09:30:00Z"),
        ])

        let weekly = try Self.schedule(at: "2024-03-01T09:00", every: "7d", now: Self.utc("2024-02-29T00:00:00Z"))
        #expect(try Self.deliveries(weekly, count: 3) == [
            Self.utc("2024-03-01T17:00:00Z"), Self.utc("2024-03-08T17:00:00Z"), Self.utc("2024-03-15T16:00:00Z"),
        ])
    }

    @Test("--in, --every alone, ISO dates: first times, past dates rejected, missed repeats not made up")
    func firstTimesAndCatchingUp() throws {
        let now = Self.utc("2024-03-09T04:00:00Z")
        #expect(try Self.schedule(in: "10m", now: now).first == now.addingTimeInterval(600))
        #expect(try Self.schedule(in: "10m", now: now).every == nil)
        #expect(try Self.schedule(in: "10m", now: now).trigger == NotificationTriggerSnapshot(UNTimeIntervalNotificationTrigger(timeInterval: 600, repeats: false)))
        #expect(try Self.schedule(every: "90s", now: now).first == now.addingTimeInterval(90))
        #expect(try Self.schedule(every: "1d", now: now).first == Self.utc("2024-03-10T04:00:00Z"), "--every 1d alone: 20:00 tomorrow")
        let saturday = Self.utc("2024-03-10T04:00:00Z")
        #expect(try Self.schedule(every: "1d", now: saturday).first == Self.utc("2024-03-11T03:00:00Z"), "20:00 on Sunday is PDT: 23 h later")
        #expect(try Self.schedule(at: "2024-03-10T02:30", now: now).first == Self.utc("2024-03-10T10:00:00Z"))
        #expect(try Self.schedule(at: "2024-03-09T12:00Z", now: now).first == Self.utc("2024-03-09T12:00:00Z"))
        #expect(try Schedule.make(delay: nil, time: nil, every: nil, now: now, calendar: Self.losAngeles) == nil)
        for past in ["2024-03-08T19:59", "2024-03-09T03:59:59Z", "1969-12-31T23:00"] {
            #expect(throws: ScheduleError.self, "\(past)") {
                try Schedule.make(delay: nil, time: past, every: nil, now: now, calendar: Self.losAngeles)
            }
        }

        // After a suspend of 250 s, a 60 s repeat anchored at `first` resumes on its grid.
        let minutely = try Self.schedule(in: "60", every: "60", now: now)
        let minutelyFirst = try #require(minutely.first)
        #expect(minutely.nextFireDate(after: minutelyFirst.addingTimeInterval(250)) == minutelyFirst.addingTimeInterval(300))
        #expect(minutely.upcoming(at: now) == minutelyFirst)
        // A single delivery has nothing after it; while it is shown, it is the one listed.
        let once = try Self.schedule(in: "5s", now: now)
        let onceFirst = try #require(once.first)
        #expect(once.nextFireDate(after: onceFirst) == nil)
        #expect(once.upcoming(at: onceFirst.addingTimeInterval(1)) == onceFirst)
        // Daily, a week asleep: the next one is the next 09:00, not the seven missed ones.
        let daily = try Self.schedule(at: "09:00", every: "1d", now: now)
        let week = try #require(daily.first).addingTimeInterval(7 * 86_400 + 3_600)
        #expect(daily.nextFireDate(after: week) == Self.utc("2024-03-17T16:00:00Z"))
    }

    @Test("each option is a library trigger: --in a time interval, --at a calendar match, --every E an anchored repeating interval, --every Nd a time of day every N-th day")
    func triggers() throws {
        let now = Self.utc("2024-03-09T04:00:00Z")  // Friday 8 March, 20:00 PST
        let once = try Self.schedule(in: "10m", now: now)
        #expect(once.anchor == now)
        let at = try Self.schedule(at: "21:00", now: now)
        guard case .calendar(let components, repeats: false) = at.trigger else {
            Issue.record("--at is a one-shot calendar trigger: \(at.trigger)")
            return
        }
        #expect(components.hour == 21 && components.minute == 0 && components.second == 0)
        #expect(components.timeZone == Self.losAngeles.timeZone && at.every == nil)

        let hourly = try Self.schedule(in: "10m", every: "1h30m", now: now)
        #expect(hourly.trigger == NotificationTriggerSnapshot(UNTimeIntervalNotificationTrigger(timeInterval: 5_400, repeats: true)))
        #expect(try Self.deliveries(hourly, count: 2) == [now.addingTimeInterval(600), now.addingTimeInterval(6_000)])
        #expect(hourly.every == "1h30m")

        // Every other day at 02:30, across the spring-forward night.
        let everyOther = try Self.schedule(at: "02:30", every: "2d", now: now)
        #expect(everyOther.every == "2d")
        #expect(try Self.deliveries(everyOther, count: 3) == [
            Self.utc("2024-03-09T10:30:00Z"), Self.utc("2024-03-11T09:30:00Z"), Self.utc("2024-03-13T09:30:00Z"),
        ])
        // Alone: two days from now at 20:00, which is PDT by then.
        #expect(try Self.deliveries(Self.schedule(every: "2d", now: now), count: 2) == [
            Self.utc("2024-03-11T03:00:00Z"), Self.utc("2024-03-13T03:00:00Z"),
        ])
        // After --in: daily at the time of the first delivery, 21:30.
        #expect(try Self.deliveries(Self.schedule(in: "90m", every: "1d", now: now), count: 3) == [
            Self.utc("2024-03-09T05:30:00Z"), Self.utc("2024-03-10T05:30:00Z"), Self.utc("2024-03-11T04:30:00Z"),
        ])

        // As a record keeps it: the same dates after a round trip, and plausible.
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        let restored = try decoder.decode(Schedule.self, from: encoder.encode(everyOther))
        #expect(restored == everyOther && restored.isPlausible)
        #expect(try Self.deliveries(restored, count: 3) == Self.deliveries(everyOther, count: 3))
        for schedule in [once, at, hourly] { #expect(schedule.isPlausible) }
    }
}

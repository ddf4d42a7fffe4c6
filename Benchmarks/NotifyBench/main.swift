// notify-bench: the release-mode benchmark harness. It takes the bus from
// DBUS_SESSION_BUS_ADDRESS (run it beside the peers with ../shared/bench/bench.sh, or alone
// with ../shared/bench/run-bus.sh, whose null server answers at once) and prints one RESULT
// line per row, in the format of ../shared/bench/README.md, with the median of the samples.
//
//   notify-bench [--rows client-seq,un-seq,un-seq-plain,un-seq-loop,un-pipe,un-action,un-withdraw,sched-100k,idle,agent-seq,un-kept,agent-idle,agent-idle-stay,agent-100k,
//                        agent-100k-floor,agent-100k-batch,agent-100k-center,gnome-seq,
//                        region-10k,portal-seq,portal-files,portal-kept,push-decrypt]
//                [-n N] [--samples K] [--fake-server] [--agent PATH] [--idle-seconds S] [--counting] [--agent-pid PID]
//
// --fake-server serves org.freedesktop.Notifications from this process with the test
// suite's FakeNotificationServer (taking the name from whoever has it) before the rows run.
//
// The idle row connects a center and then sleeps 10 s, for counting wake-ups with strace.
//
// un-withdraw shows up to 500 notifications (-n), then times removeAllDeliveredNotifications
// until the server has closed every one (NotificationClosed with reason 3, counted by an
// observer connection of this process); run it on a bus whose server clicks nothing.
//
// gnome-seq is un-seq through the GNOME engine, against the test kit's FakeGtkNotifications
// served from this process on the same bus, each notification with two buttons: three
// action targets (the archived response) are encoded per add.
//
// The agent rows (AgentRows.swift) start `notify agent --foreground` (--agent PATH, by default
// the notify beside this executable) on the same bus with a state folder of their own, and
// stop it by its PID: agent-seq is un-seq through the agent (un-kept, in process, is the same
// adds with the state kept as the agent keeps it); agent-idle prints the agent's RSS
// after start and after 100 adds and removals, then, holding one request a day ahead, waits
// for the agent (--idle-exit 5) to hand its wait to its waiter and prints the waiter's RSS
// and context switches over --idle-seconds (default 60); agent-idle-stay is the same with
// the agent started with --stay (as the systemd unit runs it), its own switches; agent-100k adds 100,000 pending requests over 100 apps
// through Agent1, pipelined from one connection, and prints the time and the agent's RSS;
// agent-100k-floor sends the same calls to a responder in this process that answers each at
// once: the bus's own cost, under any agent taking one call per request; agent-100k-batch
// sends them as one AddRequests call per app (1,000 requests each); agent-100k-center adds them
// through 100 centers, each adding its 1,000 at once, packed by the centers into AddRequests.
//
// region-10k (LocationRows.swift) times the region monitor: 1,000 fixes against 10,000 regions.
// The portal rows (PortalRows.swift) serve a fake notification portal (version 2) from this
// process: portal-seq adds text, portal-files an image and a sound as sealed memory files,
// portal-kept with the state kept, saved in bursts as the engine saves it.
// push-decrypt (PushRows.swift) decrypts RFC 8291's example message N times, in process.
import DBus
import Foundation
import Synchronization
import FreedesktopNotifications
import UserNotifications
import UserNotificationsTesting

struct Options {
    var rows = ["client-seq", "un-seq", "un-pipe", "un-action", "sched-100k"]
    var count = 5000
    var samples = 5
    var fakeServer = false
    var agentPath: String?
    var idleSeconds = 60
    /// `--counting`: the rows do only what they time (agent-seq does not poll the delivered list
    /// until the agent has shown each chunk), so that an instruction count repeats.
    var counting = false
    /// `--agent-pid PID`: agent-seq uses the agent the caller started (and stops) on the bus.
    var agentPID: pid_t?

    init(_ arguments: [String]) throws {
        var iterator = arguments.dropFirst().makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--rows": rows = (iterator.next() ?? "").split(separator: ",").map(String.init)
            case "-n": count = Int(iterator.next() ?? "") ?? count
            case "--samples": samples = Int(iterator.next() ?? "") ?? samples
            case "--fake-server": fakeServer = true
            case "--agent": agentPath = iterator.next()
            case "--idle-seconds": idleSeconds = Int(iterator.next() ?? "") ?? idleSeconds
            case "--counting": counting = true
            case "--agent-pid": agentPID = (iterator.next()).flatMap { pid_t($0) }
            default:
                throw BenchError(
                    "unknown argument \(argument); usage: notify-bench [--rows a,b] [-n N] [--samples K] [--agent PATH] [--idle-seconds S] [--counting] [--agent-pid PID]")
            }
        }
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// One measured sample: wall and CPU time for `count` operations.
struct Sample {
    var seconds: Double
    var cpuSeconds: Double
}

func cpuTime() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

func peakRSSMegabytes() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_maxrss) / 1024
}

@MainActor
func measure(_ work: () async throws -> Void) async rethrows -> Sample {
    let cpu = cpuTime()
    let start = ContinuousClock.now
    try await work()
    return Sample(seconds: seconds(ContinuousClock.now - start), cpuSeconds: cpuTime() - cpu)
}

/// `duration` in seconds.
func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? .nan : sorted[sorted.count / 2]
}

func report(_ label: String, count: Int, samples: [Sample], extra: String = "") {
    let wall = median(samples.map(\.seconds))
    let cpu = median(samples.map(\.cpuSeconds))
    let line = String(
        format: "RESULT label=%@ n=%d secs=%.6f us_per_op=%.3f cpu_us_per_op=%.3f samples=%d",
        label, count, wall, wall / Double(count) * 1e6, cpu / Double(count) * 1e6, samples.count)
    print(line + (extra.isEmpty ? "" : " " + extra))
    fflush(nil)
}

@Sendable
func content(_ title: String, category: String = "") -> UNMutableNotificationContent {
    let content = UNMutableNotificationContent()
    content.title = title
    content.body = "body text"
    content.categoryIdentifier = category
    return content
}

/// Counts responses and lets one waiter at a time wait for the next, from any thread.
final class ResponseGate: Sendable {
    private struct State {
        var arrived = 0
        var waiter: CheckedContinuation<Bool, Never>?
        var failed = false
    }
    private let state = Mutex(State())

    /// A response arrived.
    func signal() {
        let waiter: CheckedContinuation<Bool, Never>? = state.withLock { state in
            guard let waiter = state.waiter else {
                state.arrived += 1
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume(returning: true)
    }

    /// Ends every wait, now and later, with `false`.
    func fail() {
        let waiter = state.withLock { state in
            state.failed = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: false)
    }

    /// Waits for the next response; `false` after ``fail()``.
    func next() async -> Bool {
        await withCheckedContinuation { continuation in
            let ready: Bool? = state.withLock { state in
                if state.failed { return false }
                if state.arrived > 0 {
                    state.arrived -= 1
                    return true
                }
                state.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}

/// The delegate: shows everything, and hands each response to the gate.
@MainActor
final class BenchDelegate: NSObject, UNUserNotificationCenterDelegate {
    let responses = ResponseGate()

    func userNotificationCenter(_ center: UNUserNotificationCenter, willPresent notification: UNNotification) async -> UNNotificationPresentationOptions {
        [.banner, .list]
    }

    func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async {
        responses.signal()
    }
}

/// A center with the bench delegate, connected and past its first notification. The caller
/// keeps the delegate (the center holds it weakly).
@MainActor
func warmCenter(identity: ApplicationIdentity) async throws -> (UNUserNotificationCenter, BenchDelegate) {
    let center = UNUserNotificationCenter(identity: identity, persistent: false)
    let delegate = BenchDelegate()
    center.delegate = delegate
    try await center.add(UNNotificationRequest(identifier: "warm-up", content: content("warm-up"), trigger: nil))
    return (center, delegate)
}

@MainActor
func run() async throws {
    let options = try Options(CommandLine.arguments)
    let fake = options.fakeServer ? try await FakeNotificationServer.start(on: .session, personality: .kde) : nil
    defer { _ = fake }
    let identity = ApplicationIdentity(id: "org.desktopnotifications.Bench", displayName: "bench")
    let n = options.count

    for row in options.rows {
        switch row {
        case "client-seq":
            let client = NotificationsClient()
            _ = try await client.notify(NotifyRequest(appName: "bench", summary: "warm-up"))
            var samples: [Sample] = []
            for _ in 0..<options.samples {
                samples.append(try await measure {
                    // Off the main actor, like un-seq: a loop on the main actor would pay two
                    // executor hops per call that the C client does not.
                    try await Task.detached {
                        for _ in 0..<n { _ = try await client.notify(NotifyRequest(appName: "bench", summary: "bench", body: "body text")) }
                    }.value
                })
            }
            report(row, count: n, samples: samples)

        case "un-seq", "un-seq-plain", "un-seq-loop":
            let (center, delegate) = try await warmCenter(identity: identity)
            defer { withExtendedLifetime(delegate) {} }
            // The plain row has no delegate: what the engine costs without the delegate's hops.
            // The loop row is the plain one with its loop on the D-Bus I/O thread (a task
            // preferring `DBusLoopExecutor`): each reply resumes the loop on the thread that
            // read it, so no other thread wakes, as in a blocking C client. No app runs its
            // code there; the row measures what the thread switches of the others cost.
            if row != "un-seq" { center.delegate = nil }
            let executor: (any TaskExecutor)? = row == "un-seq-loop" ? DBusLoopExecutor.shared : nil
            var samples: [Sample] = []
            for sample in 0..<options.samples {
                samples.append(try await measure {
                    // Off the main actor, as a tool or a server calls it; the delegate still
                    // runs on the main actor.
                    try await Task.detached(executorPreference: executor) {
                        for index in 0..<n {
                            try await center.add(UNNotificationRequest(identifier: "s\(sample)-\(index)", content: content("bench"), trigger: nil))
                        }
                    }.value
                })
            }
            report(row, count: n, samples: samples)

        case "un-pipe":
            let (center, delegate) = try await warmCenter(identity: identity)
            defer { withExtendedLifetime(delegate) {} }
            // All n in flight at once, as libdbus-pipe sends its n before it awaits them.
            let concurrent = n
            var samples: [Sample] = []
            for sample in 0..<options.samples {
                samples.append(try await measure {
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        for index in 0..<concurrent {
                            group.addTask {
                                try await center.add(UNNotificationRequest(identifier: "p\(sample)-\(index)", content: content("bench"), trigger: nil))
                            }
                        }
                        try await group.waitForAll()
                    }
                })
            }
            report(row, count: concurrent, samples: samples)

        case "un-action":
            let center = UNUserNotificationCenter(identity: identity, persistent: false)
            let delegate = BenchDelegate()
            center.delegate = delegate
            let ok = UNNotificationAction(identifier: "ok", title: "OK", options: [])
            center.setNotificationCategories([UNNotificationCategory(identifier: "act", actions: [ok], intentIdentifiers: [], options: [])])
            let rounds = max(n / 4, 1)
            var samples: [Sample] = []
            let gate = delegate.responses
            for sample in 0..<options.samples {
                // One watchdog per sample: the null server must invoke an action for each
                // Notify with actions (NULL_SERVER_INVOKE_ACTION=1).
                let watchdog = Task {
                    try await Task.sleep(for: .seconds(60))
                    gate.fail()
                }
                samples.append(try await measure {
                    try await Task.detached {
                        for index in 0..<rounds {
                            try await center.add(UNNotificationRequest(identifier: "a\(sample)-\(index)", content: content("act", category: "act"), trigger: nil))
                            guard await gate.next() else { throw BenchError("no response within 60 s: does the server invoke actions?") }
                        }
                    }.value
                })
                watchdog.cancel()
            }
            report(row, count: rounds, samples: samples)

        case "sched-100k":
            let total = 100_000
            var samples: [Sample] = []
            for sample in 0..<options.samples {
                let center = UNUserNotificationCenter(identity: identity, persistent: false)
                samples.append(try await measure {
                    try await Task.detached {
                        for index in 0..<total {
                            let trigger = UNTimeIntervalNotificationTrigger(timeInterval: 86_400 + Double(index), repeats: false)
                            try await center.add(UNNotificationRequest(identifier: "k\(sample)-\(index)", content: content("later"), trigger: trigger))
                        }
                    }.value
                })
                center.removeAllPendingNotificationRequests()
            }
            let lateness = try await firingLateness(identity: identity)
            report(row, count: total, samples: samples, extra: String(format: "rss_mb=%.1f late_us_p50=%.0f", peakRSSMegabytes(), lateness))

        case "un-withdraw":
            // removeAllDeliveredNotifications over `shown` notifications, timed until the server
            // has closed every one: what clearing a full list costs, whose CloseNotification
            // calls the center makes after it has returned. An observer of this process counts
            // the server's NotificationClosed signals (the null server sends one per close).
            let center = UNUserNotificationCenter(identity: identity, persistent: false, engine: .inProcess)
            let observer = NotificationsClient()
            _ = try await observer.connect()
            let closes = observer.events()
            var closed = closes.makeAsyncIterator()
            let shown = min(n, 500)
            var samples: [Sample] = []
            for sample in 0..<options.samples {
                for index in 0..<shown {
                    try await center.add(UNNotificationRequest(identifier: "w\(sample)-\(index)", content: content("bench"), trigger: nil))
                }
                let (cpu, start) = (cpuTime(), ContinuousClock.now)
                center.removeAllDeliveredNotifications()
                var seen = 0
                while seen < shown {
                    guard let event = await closed.next() else { throw BenchError("the observer's events ended") }
                    if case .closed(_, .closedByCall, _) = event { seen += 1 }
                }
                samples.append(Sample(seconds: seconds(ContinuousClock.now - start), cpuSeconds: cpuTime() - cpu))
            }
            report(row, count: shown, samples: samples)

        case "idle":
            // Connected and subscribed, nothing pending: for `strace -f -c` over the quiet part.
            let center = UNUserNotificationCenter(identity: identity, persistent: false)
            _ = await center.notificationSettings()
            print("IDLE pid=\(getpid()) seconds=10")
            fflush(nil)
            // A blocking sleep: Task.sleep itself ticks a 1 s dispatch timer on Linux.
            sleep(10)

        case "gnome-seq":
            try await gnomeSequential(options, identity: identity)

        case "agent-seq":
            try await AgentRows.sequential(options, identity: identity)
        case "un-kept":
            try await AgentRows.sequentialKept(options, identity: identity)

        case "agent-idle":
            try await AgentRows.idle(options, stay: false)
        case "agent-idle-stay":
            try await AgentRows.idle(options, stay: true)

        case "agent-100k":
            try await AgentRows.hundredThousand(options)
        case "agent-100k-floor":
            try await AgentRows.hundredThousandFloor(options)
        case "agent-100k-batch":
            try await AgentRows.hundredThousandBatched(options)
        case "agent-100k-center":
            try await AgentRows.hundredThousandCenters(options)

        case "region-10k":
            try await LocationRows.regions(options)
        case "portal-seq", "portal-files", "portal-kept":
            try await PortalRows.run(row, options)

        case "push-decrypt":
            try PushRows.decrypt(options)

        default:
            throw BenchError("unknown row \(row)")
        }
    }
}

/// Schedules 50 requests 0.5 to 1.5 s ahead and returns the median delay between each
/// trigger date and the moment the delegate was asked about it, in microseconds.
@MainActor
func firingLateness(identity: ApplicationIdentity) async throws -> Double {
    final class Probe: NSObject, UNUserNotificationCenterDelegate {
        var delays: [Double] = []
        func userNotificationCenter(_ center: UNUserNotificationCenter, willPresent notification: UNNotification) async -> UNNotificationPresentationOptions {
            delays.append(Date().timeIntervalSince(notification.date) * 1e6)
            return []
        }
    }
    let center = UNUserNotificationCenter(identity: identity, persistent: false)
    let probe = Probe()
    center.delegate = probe
    for index in 0..<50 {
        let trigger = UNTimeIntervalNotificationTrigger(timeInterval: 0.5 + Double(index) / 50, repeats: false)
        try await center.add(UNNotificationRequest(identifier: "late-\(index)", content: content("late"), trigger: trigger))
    }
    let deadline = ContinuousClock.now + .seconds(5)
    while probe.delays.count < 50, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
    return median(probe.delays)
}

// The rows run in a task while the main thread turns the run loop (which drains the main
// queue, so the main actor runs there), not from an async top level: that parks the main
// thread in `dispatchMain`, and valgrind 3.19, which counts the instructions of
// Benchmarks/instructions.sh, crashes on the threads started after it.
Task { @MainActor in
    do {
        try await run()
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("notify-bench: \(error)\n".utf8))
        exit(1)
    }
}
while true {
    _ = RunLoop.main.run(mode: .default, before: .distantFuture)
}

/// The gnome-seq row: `n` adds in a row through the GNOME engine, each with two buttons.
@MainActor
func gnomeSequential(_ options: Options, identity: ApplicationIdentity) async throws {
    let gtk = try await FakeGtkNotifications.start(on: .session, knownApps: [identity.id])
    let center = UNUserNotificationCenter(identity: identity, persistent: false, engine: .gnome)
    let delegate = BenchDelegate()
    center.delegate = delegate
    let actions = [UNNotificationAction(identifier: "yes", title: "Yes"), UNNotificationAction(identifier: "no", title: "No")]
    center.setNotificationCategories([UNNotificationCategory(identifier: "choice", actions: actions, intentIdentifiers: [])])
    try await center.add(UNNotificationRequest(identifier: "warm-up", content: content("warm-up", category: "choice"), trigger: nil))
    let n = options.count
    var samples: [Sample] = []
    for sample in 0..<options.samples {
        samples.append(try await measure {
            try await Task.detached {
                for index in 0..<n {
                    try await center.add(UNNotificationRequest(identifier: "g\(sample)-\(index)", content: content("bench", category: "choice"), trigger: nil))
                }
            }.value
        })
    }
    report("gnome-seq", count: n, samples: samples)
    withExtendedLifetime(delegate) {}
    await gtk.stop()
}

import DBus
import Foundation
import UserNotifications

/// The rows that measure the per-user agent: each starts the built `notify agent --foreground`
/// on the bench's bus (``AgentProcess``) and stops it by its PID.
enum AgentRows {
    /// The most notifications the agent-seq row leaves shown before it withdraws them: the agent
    /// refuses an app's Add past its live cap (1,000), so a sample posts in chunks of this size,
    /// timed, with the withdrawal between them untimed.
    static let chunk = 500

    /// agent-seq: `n` sequential adds through a center whose engine is the agent, with the bench
    /// delegate (asked by the center before each Add, which carries its answer to an agent of
    /// protocol version 2; an older agent asks WillPresent back), as un-seq does in process.
    ///
    /// The agent answers an Add once it accepted the request and shows it after, so the timed
    /// part is what the app waits for; `shown_us_per_op` also counts the wait, after each chunk,
    /// until the agent lists every notification of the chunk as delivered (the server took them),
    /// except with `--counting`.
    @MainActor
    static func sequential(_ options: Options, identity: ApplicationIdentity) async throws {
        let bus = try await DBusConnection.connect(to: .session)
        let agent = if let pid = options.agentPID {
            try await AgentProcess.running(pid, on: bus)
        } else {
            try await AgentProcess.start(AgentProcess.executable(options.agentPath), on: bus)
        }
        defer { agent.stop() }
        let center = UNUserNotificationCenter(identity: identity, persistent: false, engine: .agent)
        let delegate = BenchDelegate()
        center.delegate = delegate
        defer { withExtendedLifetime(delegate) {} }
        guard await center.engineKind == .agent else { throw BenchError("the center did not take the agent as its engine") }
        try await center.add(UNNotificationRequest(identifier: "warm-up", content: content("warm-up"), trigger: nil))
        let n = options.count
        var samples: [Sample] = []
        var shown: [Double] = []
        var agentCPU: [Double] = []
        var agentSwitches: [Double] = []
        for sample in 0..<options.samples {
            var total = Sample(seconds: 0, cpuSeconds: 0)
            var untilShown = 0.0
            var agentSeconds = 0.0
            var switches = 0
            for start in stride(from: 0, to: n, by: chunk) {
                let end = min(start + chunk, n)
                let agentBefore = agent.cpuSeconds
                let switchesBefore = agent.contextSwitches.values.reduce(0, +)
                let part = try await addChunk(start..<end, named: "g\(sample)-", to: center)
                let agentAfterAdds = agent.cpuSeconds
                switches += max(0, agent.contextSwitches.values.reduce(0, +) - switchesBefore)
                let drain = try await measure {
                    while !options.counting, await center.deliveredNotifications().count < end - start {
                        try await Task.sleep(for: .milliseconds(1))
                    }
                }
                total.seconds += part.seconds
                total.cpuSeconds += part.cpuSeconds
                untilShown += part.seconds + drain.seconds
                agentSeconds += agentAfterAdds - agentBefore
                try await withdrawChunk(from: center)
            }
            samples.append(total)
            shown.append(untilShown)
            agentCPU.append(agentSeconds)
            agentSwitches.append(Double(switches))
        }
        // agent_cpu_us_per_op: the agent's CPU time while the app waited for its adds (the
        // timed part; the deliveries still under way at its end, about one add's worth, are
        // left out with the polling of the delivered list that follows), which a loaded
        // machine moves far less than the wall times. agent_switches_per_op: the context
        // switches of the agent's threads over the same part (a thread that ended meanwhile
        // takes its count with it).
        report("agent-seq", count: n, samples: samples, extra: String(
            format: "shown_us_per_op=%.3f agent_cpu_us_per_op=%.3f agent_switches_per_op=%.2f agent_rss_mb=%.1f",
            median(shown) / Double(n) * 1e6, median(agentCPU) / Double(n) * 1e6, median(agentSwitches) / Double(n),
            agent.residentMegabytes))
    }

    /// un-kept: agent-seq's adds in process, with the state kept in a folder of the row's own
    /// (saved as the agent saves each app's), in the same chunks of ``chunk`` withdrawn
    /// between them: what the agent's adds cost beyond keeping the state, which un-seq
    /// (`persistent: false`) does not pay.
    @MainActor
    static func sequentialKept(_ options: Options, identity: ApplicationIdentity) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("notify-bench-kept-\(getpid())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let center = UNUserNotificationCenter(identity: identity, persistent: true, stateDirectory: folder, engine: .inProcess)
        let delegate = BenchDelegate()
        center.delegate = delegate
        defer { withExtendedLifetime(delegate) {} }
        try await center.add(UNNotificationRequest(identifier: "warm-up", content: content("warm-up"), trigger: nil))
        let n = options.count
        var samples: [Sample] = []
        for sample in 0..<options.samples {
            var total = Sample(seconds: 0, cpuSeconds: 0)
            for start in stride(from: 0, to: n, by: chunk) {
                let end = min(start + chunk, n)
                let part = try await addChunk(start..<end, named: "k\(sample)-", to: center)
                total.seconds += part.seconds
                total.cpuSeconds += part.cpuSeconds
                try await withdrawChunk(from: center)
            }
            samples.append(total)
        }
        report("un-kept", count: n, samples: samples)
    }

    /// Adds the immediate requests `prefix` + each index of `indices` one after the other, off
    /// the main actor (the delegate still runs on it), and returns the time it took.
    static func addChunk(_ indices: Range<Int>, named prefix: String, to center: UNUserNotificationCenter) async throws -> Sample {
        try await measure {
            try await Task.detached {
                for index in indices {
                    try await center.add(UNNotificationRequest(identifier: "\(prefix)\(index)", content: content("bench"), trigger: nil))
                }
            }.value
        }
    }

    /// Withdraws a chunk's notifications, untimed, and lets the CloseNotification calls to the
    /// server settle before the next chunk.
    static func withdrawChunk(from center: UNUserNotificationCenter) async throws {
        center.removeAllDeliveredNotifications()
        guard await center.deliveredNotifications().isEmpty else { throw BenchError("notifications were kept after removing all") }
        try await Task.sleep(for: .milliseconds(100))
    }

    /// The idle period agent-idle starts the agent with: the agent holding only a request a
    /// day ahead hands its wait to its waiter this long after the last call.
    static let idleExit = 5

    /// agent-idle (`stay` false) and agent-idle-stay (true): the agent's resident memory after
    /// start and after 100 adds and removals from one app (half shown now, half pending), then,
    /// with one request pending a day ahead and nothing due, the context switches, summed over
    /// every thread, over `idleSeconds`: of the waiter the agent becomes (agent-idle; its
    /// resident memory too, and how long after the last call it took its place), or of the
    /// agent itself started with `--stay` (agent-idle-stay, as the systemd unit runs it).
    @MainActor
    static func idle(_ options: Options, stay: Bool) async throws {
        let bus = try await DBusConnection.connect(to: .session)
        let agent = try await AgentProcess.start(
            AgentProcess.executable(options.agentPath), on: bus, arguments: ["--idle-exit", String(idleExit)] + (stay ? ["--stay"] : []))
        defer { agent.stop() }
        try await Task.sleep(for: .seconds(1))
        let startRSS = agent.residentMegabytes
        let client = try await DBusConnection.connect(to: .session)
        let appID = "org.desktopnotifications.BenchIdle"
        try await call(client, "Connect", appID, [.variantDictionary([("name", .string("bench"))])])
        let rounds = 100
        let work = try await measure {
            for index in 0..<rounds {
                let trigger = index.isMultiple(of: 2) ? nil : UNTimeIntervalNotificationTrigger(timeInterval: 3600, repeats: false)
                let request = UNNotificationRequest(identifier: "idle-\(index)", content: content("idle"), trigger: trigger)
                try await call(client, "Add", appID, [try AgentPayload.encode(request).dbusValue])
                let member = trigger == nil ? "RemoveDeliveredNotifications" : "RemovePendingRequests"
                try await call(client, member, appID, [.stringArray([request.identifier]), .boolean(false)])
            }
        }
        // One request a day ahead: the agent holds something (an idle exit does not end it)
        // and its timer is armed, with nothing due in the window.
        let later = UNNotificationRequest(
            identifier: "tomorrow", content: content("tomorrow"), trigger: UNTimeIntervalNotificationTrigger(timeInterval: 86_400, repeats: false))
        try await call(client, "Add", appID, [try AgentPayload.encode(later).dbusValue])
        await client.close()
        let closed = ContinuousClock.now
        try await Task.sleep(for: .seconds(2))
        let afterRSS = agent.residentMegabytes
        var waiter = ""
        if !stay {
            let deadline = closed + .seconds(idleExit + 15)
            while !agent.commandLine.contains("--wait-until") {
                guard ContinuousClock.now < deadline else { throw BenchError("the agent did not hand its wait to a waiter: \(agent.commandLine)") }
                try await Task.sleep(for: .milliseconds(20))
            }
            let handedOff = ContinuousClock.now - closed
            guard try await bus.nameOwner(of: AgentInterface.busName) == nil else { throw BenchError("the waiter owns the agent's name") }
            // The waiter's start-up settles first.
            try await Task.sleep(for: .seconds(1))
            waiter = String(
                format: " handoff_s=%.2f waiter_rss_mb=%.1f",
                seconds(handedOff), agent.residentMegabytes)
        }
        let row = stay ? "agent-idle-stay" : "agent-idle"
        print("IDLE \(row) pid=\(agent.pid) seconds=\(options.idleSeconds)")
        fflush(nil)
        let before = agent.contextSwitches
        // A blocking sleep, so that nothing of this process touches the bus in the window.
        sleep(UInt32(options.idleSeconds))
        let after = agent.contextSwitches
        guard stay || agent.commandLine.contains("--wait-until") else { throw BenchError("the waiter did not wait: \(agent.commandLine)") }
        let switches = after.reduce(0) { $0 + $1.value - (before[$1.key] ?? 0) }
        report(row, count: rounds, samples: [work], extra: String(
            format: "rss_start_mb=%.1f rss_after_mb=%.1f idle_s=%d idle_switches=%d threads=%d",
            startRSS, afterRSS, options.idleSeconds, switches, after.count) + waiter)
    }

    /// agent-100k: 100,000 pending requests over 100 apps, added through `Agent1` from one
    /// connection with up to `window` calls in flight; the time from the first call to the last
    /// reply, the agent's CPU time over it, and its resident memory at the end.
    @MainActor
    static func hundredThousand(_ options: Options) async throws {
        let messages = try hundredThousandAdds()
        try await runHundredThousand("agent-100k", options, window: window) { client in try await addPipelined(messages, on: client) }
    }

    /// Starts an agent per sample, connects the 100 apps from one connection, times `send` on
    /// it, checks that the agent holds every request, and reports `row` with the agent's CPU
    /// time and resident memory (at the end, and 3 s later), and `window` when `send` pipelines
    /// one call per request.
    @MainActor
    static func runHundredThousand(
        _ row: String, _ options: Options, window: Int? = nil, send: @escaping @Sendable (DBusConnection) async throws -> Void
    ) async throws {
        let appIDs = (0..<apps).map(appID)
        var samples: [Sample] = []
        var agentCPU: [Double] = []
        var rss: [Double] = []
        var settledRSS: [Double] = []
        for _ in 0..<options.samples {
            let bus = try await DBusConnection.connect(to: .session)
            let agent = try await AgentProcess.start(AgentProcess.executable(options.agentPath), on: bus)
            defer { agent.stop() }
            let client = try await DBusConnection.connect(to: .session)
            for appID in appIDs {
                try await call(client, "Connect", appID, [.variantDictionary([("name", .string("bench"))])])
            }
            let cpu = agent.cpuSeconds
            samples.append(try await measure { try await send(client) })
            agentCPU.append(agent.cpuSeconds - cpu)
            rss.append(agent.residentMegabytes)
            let pending = try await pendingTotal(client)
            guard pending == total else { throw BenchError("the agent holds \(pending) pending requests, not \(total)") }
            try await Task.sleep(for: .seconds(3))
            settledRSS.append(agent.residentMegabytes)
            await client.close()
        }
        report(row, count: total, samples: samples, extra: (window.map { "window=\($0) " } ?? "") + String(
            format: "apps=%d agent_cpu_s=%.3f rss_mb=%.1f rss_settled_mb=%.1f",
            apps, median(agentCPU), median(rss), median(settledRSS)))
    }

    /// agent-100k-batch: agent-100k's requests sent as `AddRequests` calls 
    /// of ``perApp`` requests each, one per app, all in flight at once; every request's answer
    /// is checked.
    @MainActor
    static func hundredThousandBatched(_ options: Options) async throws {
        let messages = try hundredThousandAdds()
        var grouped: [String: [AgentPayload.Record]] = [:]
        for (appID, record) in messages { grouped[appID, default: []].append(record) }
        let perApp = grouped
        try await runHundredThousand("agent-100k-batch", options) { client in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (appID, records) in perApp {
                    group.addTask {
                        let reply = try await call(client, "AddRequests", appID, [records.dbusValue])
                        guard case .array(_, let results)? = try reply.arguments("a(ss)").first, results.count == records.count,
                            results.allSatisfy({ $0 == .structure([.string(""), .string("")]) })
                        else { throw BenchError("the agent refused requests of \(appID)'s AddRequests") }
                    }
                }
                try await group.waitForAll()
            }
        }
    }

    /// agent-100k-center: agent-100k's requests added through 100 centers (one per app, engine
    /// the agent), each adding its 1,000 requests at once from a task group: the centers pack
    /// the adds made while one is on its way into `AddRequests` calls.
    @MainActor
    static func hundredThousandCenters(_ options: Options) async throws {
        var samples: [Sample] = []
        var agentCPU: [Double] = []
        var rss: [Double] = []
        var calls: [Double] = []
        for sample in 0..<options.samples {
            let bus = try await DBusConnection.connect(to: .session)
            let agent = try await AgentProcess.start(AgentProcess.executable(options.agentPath), on: bus)
            defer { agent.stop() }
            var centers: [UNUserNotificationCenter] = []
            for index in 0..<apps {
                let center = UNUserNotificationCenter(
                    identity: ApplicationIdentity(id: appID(index), displayName: "bench"), persistent: false, engine: .agent)
                guard await center.engineKind == .agent else { throw BenchError("a center did not take the agent as its engine") }
                centers.append(center)
            }
            let requests = (0..<perApp).map { index in
                UNNotificationRequest(
                    identifier: "c\(sample)-\(index)", content: content("later"),
                    trigger: UNTimeIntervalNotificationTrigger(timeInterval: 86_400 + Double(index), repeats: false))
            }
            let cpu = agent.cpuSeconds
            samples.append(try await measure {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for center in centers {
                        for request in requests {
                            group.addTask { try await center.add(request) }
                        }
                    }
                    try await group.waitForAll()
                }
            })
            agentCPU.append(agent.cpuSeconds - cpu)
            rss.append(agent.residentMegabytes)
            var sent = 0
            for center in centers { sent += await center.agentAddCounts?.calls ?? 0 }
            calls.append(Double(sent))
            let client = try await DBusConnection.connect(to: .session)
            let pending = try await pendingTotal(client)
            await client.close()
            guard pending == total else { throw BenchError("the agent holds \(pending) pending requests, not \(total)") }
        }
        // calls: the add calls the centers sent for the 100,000 requests (Add or AddRequests).
        report("agent-100k-center", count: total, samples: samples, extra: String(
            format: "apps=%d calls=%.0f agent_cpu_s=%.3f rss_mb=%.1f", apps, median(calls), median(agentCPU), median(rss)))
    }

    /// agent-100k-floor: the same 100,000 `Add` calls, bodies and window as agent-100k, answered
    /// at once by a responder on a second connection of this process that owns the agent's name
    /// (no agent running): what the bus daemon and this D-Bus layer cost alone, the floor under
    /// any agent that takes one call per request.
    @MainActor
    static func hundredThousandFloor(_ options: Options) async throws {
        let messages = try hundredThousandAdds()
        let responder = try await DBusConnection.connect(to: .session)
        let object = DBusExportedObject(path: AgentInterface.path, interfaces: [
            try DBusExportedInterface(name: AgentInterface.name, introspectionXML: "") { $0.reply([]) },
        ])
        let export = responder.export(object)
        guard try await responder.requestName(AgentInterface.busName) == .primaryOwner else {
            throw BenchError("\(AgentInterface.busName) has another owner: stop the agent first")
        }
        let client = try await DBusConnection.connect(to: .session)
        var samples: [Sample] = []
        for _ in 0..<options.samples {
            samples.append(try await measure { try await addPipelined(messages, on: client) })
        }
        export.unexport()
        await client.close()
        await responder.close()
        report("agent-100k-floor", count: total, samples: samples, extra: String(format: "apps=%d window=%d", apps, window))
    }

    /// The apps of agent-100k and its floor, and the requests each adds.
    static let apps = 100
    static let perApp = 1_000
    static let total = apps * perApp
    /// The most `Add` calls in flight at once.
    static let window = 2_048

    /// The app id of app `index`.
    static func appID(_ index: Int) -> String { "org.desktopnotifications.Bench.App\(index)" }

    /// agent-100k's calls: (app id, request record), the apps taken in turn, each request due a
    /// day ahead at a time of its own.
    static func hundredThousandAdds() throws -> [(String, AgentPayload.Record)] {
        var bodies: [(String, AgentPayload.Record)] = []
        bodies.reserveCapacity(total)
        for index in 0..<total {
            let trigger = UNTimeIntervalNotificationTrigger(timeInterval: 86_400 + Double(index), repeats: false)
            let request = UNNotificationRequest(identifier: "k\(index / apps)", content: content("later"), trigger: trigger)
            bodies.append((appID(index % apps), try AgentPayload.encode(request)))
        }
        return bodies
    }

    /// Sends an `Add` for each of `messages` from `client`, at most ``window`` in flight, and
    /// returns once every one is answered.
    static func addPipelined(_ messages: [(String, AgentPayload.Record)], on client: DBusConnection) async throws {
        try await Task.detached {
            try await withThrowingTaskGroup(of: Void.self) { group in
                var next = 0
                while next < min(window, messages.count) {
                    let (appID, record) = messages[next]
                    group.addTask { try await call(client, "Add", appID, [record.dbusValue]) }
                    next += 1
                }
                while try await group.next() != nil, next < messages.count {
                    let (appID, record) = messages[next]
                    group.addTask { try await call(client, "Add", appID, [record.dbusValue]) }
                    next += 1
                }
                try await group.waitForAll()
            }
        }.value
    }

    /// Calls `member` of `Agent1` for `appID` and waits for the reply (at most 60 s: a slow
    /// agent shows as a slow row, not as a failure).
    @discardableResult
    static func call(_ connection: DBusConnection, _ member: String, _ appID: String, _ body: [DBusValue]) async throws -> DBusMessage {
        try await connection.call(try DBusMessage.methodCall(
            destination: AgentInterface.busName, path: AgentInterface.path, interface: AgentInterface.name, member: member,
            body: [.string(appID)] + body), timeout: .seconds(60))
    }

    /// The pending requests of every app, from `Status`.
    static func pendingTotal(_ connection: DBusConnection) async throws -> Int {
        struct Status: Decodable {
            struct App: Decodable { var pending: Int }
            var apps: [App]
        }
        let reply = try await connection.call(try DBusMessage.methodCall(
            destination: AgentInterface.busName, path: AgentInterface.path, interface: AgentInterface.name, member: "Status"))
        let json = try reply.arguments("s").first?.stringValue ?? ""
        return try JSONDecoder().decode(Status.self, from: Data(json.utf8)).apps.reduce(0) { $0 + $1.pending }
    }
}

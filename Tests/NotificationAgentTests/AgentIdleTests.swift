import DBus
import Foundation
import FreedesktopNotifications
import Testing
import UserNotifications
import UserNotificationsTesting

/// `notify agent --idle-exit`: the built agent exits when it holds nothing, stays while it
/// holds a pending request, and comes back by activation with its state.
@Suite("The agent's idle exit")
struct AgentIdleTests {
    static let appID = "org.example.AgentIdle"
    let testBus: TestBus
    /// The agent's state home, removed when the test ends.
    let scratch: TemporaryFolder
    var stateHome: URL { scratch.url }

    init() async throws {
        testBus = try await TestBus(withServiceDirectory: true)
        scratch = try TemporaryFolder(prefix: "agent-idle", create: false)
    }

    @Test("an agent holding nothing exits with status 0 after its idle period")
    func exitsWhenIdle() async throws {
        let started = ContinuousClock.now
        let agent = try testBus.spawn(
            try BuiltProduct.url(named: "notify").path, ["agent", "--foreground", "--idle-exit", "2"],
            environment: ["XDG_STATE_HOME": stateHome.path])
        // result, not waitForExit: the check of what it printed needs every byte of it read.
        let result = try await agent.result(timeout: .seconds(20))
        #expect(result.status == .exited(0))
        #expect(ContinuousClock.now - started >= .seconds(2))
        #expect(!result.standardError.contains("error"), "\(result.standardError)")
    }

    @Test("--idle-exit 0 never exits; a bad value is refused")
    func neverOrRefused() async throws {
        let notify = try BuiltProduct.url(named: "notify").path
        let agent = try await testBus.startAgent(arguments: ["--idle-exit", "0"], environment: ["XDG_STATE_HOME": stateHome.path])
        #expect(await agent.waitForExit(timeout: .seconds(2)) == nil)
        _ = await agent.stop()
        let refused = try await testBus.run(notify, ["agent", "--foreground", "--idle-exit", "-1"])
        #expect(refused.status != .exited(0) && refused.standardError.contains("--idle-exit"))
    }

    @Test("a pending request due within its idle period keeps it; the notification it shows keeps it too, and once that is closed it exits; activation brings it back")
    func staysWhileHolding() async throws {
        let server = try await FakeNotificationServer.start(on: testBus.bus)
        let (first, _, _) = try await addThroughStartedAgent([AgentTestClient.request("later", after: 5)], idleExit: 3)
        // Idle for 3 s would end it; the request, due 2 s after that, holds it until it fires.
        try await Task.sleep(for: .seconds(4))
        #expect(try await testBus.ownerPID(of: AgentInterface.busName) == first)
        #expect(!Self.commandLine(of: first).contains("--wait-until"))
        let id = try #require(await server.waitForNotify(timeout: .seconds(10)))
        // A buttonless notification on screen can still be clicked (its body is the default
        // action): the agent stays past its idle period while it is shown.
        try await Task.sleep(for: .seconds(5))
        #expect(try await testBus.ownerPID(of: AgentInterface.busName) == first)
        server.close(id: id, reason: .dismissed)
        #expect(await eventually(timeout: .seconds(10)) { (try? await testBus.ownerPID(of: AgentInterface.busName)) == nil })
        let again = try await AgentTestClient.connect(testBus.bus)
        // The call starts a new agent by activation.
        try await again.call("Status")
        let second = try #require(try await testBus.ownerPID(of: AgentInterface.busName))
        #expect(second != first)
        await again.close()
        #expect(await eventually(timeout: .seconds(10)) { (try? await testBus.ownerPID(of: AgentInterface.busName)) == nil })
    }

    @Test("with GNOME 46's personality (a gone sender's notifications are closed), the agent's idle exit does not take down what it shows")
    func gnome46KeepsShown() async throws {
        let server = try await FakeNotificationServer.start(on: testBus.bus, personality: .gnome46)
        let (agent, _, _) = try await addThroughStartedAgent([AgentTestClient.request("shown")], idleExit: 1)
        let id = try #require(await server.waitForNotify(timeout: .seconds(10)))
        try await Task.sleep(for: .seconds(4))
        #expect(Self.isAlive(agent))
        #expect(server.liveIDs == [id])
        // GNOME sends the close to the poster alone, the app's engine in the agent.
        server.close(id: id, reason: .dismissed)
        #expect(await eventually(timeout: .seconds(15)) { !Self.isAlive(agent) })
    }

    @Test("holding only a request due later, it becomes a waiter without a bus name, which starts it again in the same process when due")
    func waitsInItsPlace() async throws {
        let server = try await FakeNotificationServer.start(on: testBus.bus)
        let (agent, log, added) = try await addThroughStartedAgent([AgentTestClient.request("later", after: 7)], idleExit: 1)
        // One idle second later the agent holds only a request 6 s ahead: it waits as a waiter.
        #expect(await eventually(timeout: .seconds(6)) {
            (try? await testBus.ownerPID(of: AgentInterface.busName)) == nil && Self.commandLine(of: agent).contains("--wait-until")
        })
        #expect(server.notifications.isEmpty)
        // When due, the waiter is the agent again (the same process), which fires the request.
        let id = await server.waitForNotify(timeout: .seconds(15))
        #expect(id != nil, "\((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
        #expect(Date().timeIntervalSince(added) >= 7)
        #expect(server.notifications.map(\.request.summary) == ["Title of later"])
        #expect(try await testBus.ownerPID(of: AgentInterface.busName) == agent)
        // It stays while the notification is shown; once that is closed it holds nothing, and exits.
        try await Task.sleep(for: .seconds(2))
        #expect(Self.isAlive(agent))
        if let id { server.close(id: id, reason: .dismissed) }
        #expect(await eventually(timeout: .seconds(15)) { !Self.isAlive(agent) })
    }

    @Test("a call while the waiter waits starts a new agent, and the waiter ends; the request fires once")
    func callWhileWaiting() async throws {
        let server = try await FakeNotificationServer.start(on: testBus.bus)
        let (first, _, _) = try await addThroughStartedAgent([AgentTestClient.request("later", after: 9)], idleExit: 1)
        #expect(await eventually(timeout: .seconds(6)) {
            (try? await testBus.ownerPID(of: AgentInterface.busName)) == nil && Self.commandLine(of: first).contains("--wait-until")
        })
        let again = try await AgentTestClient.connect(testBus.bus)
        let status = try await again.call("Status").first?.stringValue ?? ""
        #expect(status.contains(Self.appID) && status.contains("\"pending\":1"))
        let second = try #require(try await testBus.ownerPID(of: AgentInterface.busName))
        #expect(second != first)
        await again.close()
        #expect(await eventually(timeout: .seconds(5)) { !Self.isAlive(first) })
        #expect(await server.waitForNotify(timeout: .seconds(15)) != nil)
        // Another waiter (or agent) firing the same request again would show it twice.
        try await Task.sleep(for: .seconds(2))
        #expect(server.notifications.map(\.request.summary) == ["Title of later"])
    }

    @Test("a shown request not taken by a server yet keeps the agent itself, with a request due later beside it")
    func undeliveredKeepsAgent() async throws {
        // No notification server: the immediate request is accepted and kept for one.
        let (agent, _, _) = try await addThroughStartedAgent([AgentTestClient.request("now"), AgentTestClient.request("later", after: 3600)], idleExit: 1)
        try await Task.sleep(for: .seconds(3))
        #expect(try await testBus.ownerPID(of: AgentInterface.busName) == agent)
        #expect(!Self.commandLine(of: agent).contains("--wait-until"))
        #expect(kill(agent, SIGTERM) == 0)
    }

    @Test("with --stay, a request due later keeps the agent itself, with its name")
    func staysWhenAsked() async throws {
        let (agent, _, _) = try await addThroughStartedAgent([AgentTestClient.request("later", after: 3600)], idleExit: 1, arguments: ["--stay"])
        try await Task.sleep(for: .seconds(3))
        #expect(try await testBus.ownerPID(of: AgentInterface.busName) == agent)
        #expect(!Self.commandLine(of: agent).contains("--wait-until"))
        #expect(kill(agent, SIGTERM) == 0)
    }

    @Test("with --wake-unit, holding only a request due later, it arms a systemd timer for the unit at the due time and exits; the agent the timer starts fires it once")
    func wakeUnitTimer() async throws {
        let server = try await FakeNotificationServer.start(on: testBus.bus)
        let systemd = try await FakeSystemd()
        let (agent, log, added) = try await addThroughStartedAgent(
            [AgentTestClient.request("later", after: 7)], idleExit: 1, arguments: ["--wake-unit", "test-agent.service"],
            environment: ["PATH": systemd.path])
        // One idle second later it holds only a request 6 s ahead: it arms the timer and exits,
        // leaving no waiter.
        #expect(await eventually(timeout: .seconds(6)) { !Self.isAlive(agent) })
        #expect(try await testBus.ownerPID(of: AgentInterface.busName) == nil)
        let calls = systemd.calls
        #expect(calls.map(\.program) == ["systemctl", "systemd-run"])
        #expect(calls.first?.arguments == ["--user", "stop", "test-agent.timer"])
        let run = try #require(calls.last?.arguments)
        #expect(run.count == 5)
        #expect(Array(run.prefix(2)) == ["--user", "--unit=test-agent.service"])
        #expect(Array(run.suffix(2)) == ["--timer-property=AccuracySec=1s", "--timer-property=RemainAfterElapse=no"])
        // The due time, in UTC, rounded up to the second.
        let event = try #require(run.first { $0.hasPrefix("--on-calendar=") }?.dropFirst("--on-calendar=".count))
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.timeZone = TimeZone(identifier: "UTC")
        format.dateFormat = "yyyy-MM-dd HH:mm:ss 'UTC'"
        let due = try #require(format.date(from: String(event)), "\(event)")
        #expect(due.timeIntervalSince(added) >= 7 && due.timeIntervalSince(added) < 9, "\(event), added \(added)")
        #expect(server.notifications.isEmpty)
        // The timer elapses: systemd starts the unit, here the bus does; the request fires once.
        try await Task.sleep(for: .seconds(max(0, due.timeIntervalSinceNow)))
        let again = try await AgentTestClient.connect(testBus.bus)
        _ = try await again.call("Status")
        #expect(await server.waitForNotify(timeout: .seconds(10)) != nil, "\((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
        try await Task.sleep(for: .seconds(1))
        #expect(server.notifications.map(\.request.summary) == ["Title of later"])
        await again.close()
    }

    @Test("with --wake-unit, a timer that cannot be armed keeps the agent itself, which says why; it does not try again until it is next idle")
    func wakeUnitFailure() async throws {
        let systemd = try await FakeSystemd(runStatus: 1, message: "Failed to start transient timer unit: Unit test-agent.timer was already loaded\u{1B}[0m")
        let (agent, log, _) = try await addThroughStartedAgent(
            [AgentTestClient.request("later", after: 3600)], idleExit: 1, arguments: ["--wake-unit", "test-agent.service"],
            environment: ["PATH": systemd.path])
        #expect(await eventually(timeout: .seconds(6)) { systemd.calls.contains { $0.program == "systemd-run" } })
        try await Task.sleep(for: .seconds(3))
        #expect(try await testBus.ownerPID(of: AgentInterface.busName) == agent)
        #expect(!Self.commandLine(of: agent).contains("--wait-until"))
        #expect(systemd.calls.filter { $0.program == "systemd-run" }.count == 1)
        let printed = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        #expect(printed.contains("no systemd timer to start test-agent.service"), "\(printed)")
        #expect(printed.contains("exited with status 1: Failed to start transient timer unit"), "\(printed)")
        #expect(!printed.contains("\u{1B}"), "\(printed)")
        // A sign of work, then idle again: it tries again.
        let app = try await AgentTestClient.connect(testBus.bus)
        _ = try await app.call("Status")
        await app.close()
        #expect(await eventually(timeout: .seconds(6)) { systemd.calls.filter { $0.program == "systemd-run" }.count == 2 })
        #expect(kill(agent, SIGTERM) == 0)
    }

    @Test("--wake-unit takes a service unit name, with --foreground, and neither --stay nor --wait-until")
    func wakeUnitRefused() async throws {
        let notify = try BuiltProduct.url(named: "notify").path
        for bad in [
            ["--foreground", "--wake-unit", "agent"], ["--foreground", "--wake-unit", "-x.service"], ["--foreground", "--wake-unit", ".service"],
            ["--foreground", "--wake-unit", "a b.service"], ["--foreground", "--wake-unit", "a\u{1B}.service"],
            ["--foreground", "--wake-unit", String(repeating: "a", count: 248) + ".service"],
            ["--wake-unit", "a.service"], ["--foreground", "--stay", "--wake-unit", "a.service"],
            ["--foreground", "--wait-until", "0", "--wake-unit", "a.service"],
        ] {
            let refused = try await testBus.run(notify, ["agent"] + bad)
            #expect(refused.status == .exited(1), "\(bad): \(refused.status) \(refused.standardError)")
            #expect(refused.standardError.contains("--wake-unit"), "\(bad): \(refused.standardError)")
            #expect(!refused.standardError.contains("\u{1B}"), "\(bad): \(refused.standardError)")
        }
    }

    @Test("a waiter ends when another process owns the agent's name, and when the bus closes")
    func waiterEnds() async throws {
        let notify = try BuiltProduct.url(named: "notify").path
        let later = String(Int64(Date().addingTimeInterval(3600).timeIntervalSince1970) * 1_000_000_000)
        let waiting = ["agent", "--foreground", "--idle-exit", "1", "--wait-until", later]
        let agent = try await testBus.startAgent(arguments: ["--idle-exit", "0"], environment: ["XDG_STATE_HOME": stateHome.path])
        let replaced = try await testBus.run(notify, waiting, environment: ["XDG_STATE_HOME": stateHome.path])
        #expect(replaced.status == .exited(0), "\(replaced.standardError)")
        _ = await agent.stop()
        #expect(await eventually(timeout: .seconds(5)) { (try? await testBus.ownerPID(of: AgentInterface.busName)) == nil })
        let waiter = try testBus.spawn(notify, waiting, environment: ["XDG_STATE_HOME": stateHome.path])
        // It waits (an hour), owning nothing, until its bus goes away.
        #expect(await waiter.waitForExit(timeout: .seconds(2)) == nil)
        #expect(try await testBus.ownerPID(of: AgentInterface.busName) == nil)
        // A call to it is refused at once, not left to time out.
        let peer = try await DBusConnection.connect(to: .address(testBus.address))
        let unique = try #require(try await Self.uniqueName(of: waiter.pid, on: peer))
        let started = ContinuousClock.now
        do {
            _ = try await peer.call(
                try DBusMessage.methodCall(destination: unique, path: DBusObjectPath("/"), interface: "org.example.Nothing", member: "Call"),
                timeout: .seconds(10))
            Issue.record("the waiter answered a call")
        } catch {
            #expect("\(error)".contains("UnknownObject"), "\(error)")
        }
        #expect(ContinuousClock.now - started < .seconds(5))
        await peer.close()
        #expect(waiter.isRunning)
        await testBus.stop()
        #expect(await waiter.waitForExit(timeout: .seconds(10)) == .exited(0))
    }

    @Test("a waiter whose time has passed starts the agent at once; a bad time is refused")
    func waiterPastDue() async throws {
        let notify = try BuiltProduct.url(named: "notify").path
        let waiter = try testBus.spawn(
            notify, ["agent", "--foreground", "--idle-exit", "0", "--wait-until", "0"], environment: ["XDG_STATE_HOME": stateHome.path])
        try await testBus.waitForName(AgentInterface.busName, ownedBy: waiter)
        #expect(!Self.commandLine(of: waiter.pid).contains("--wait-until"))
        _ = await waiter.stop()
        for bad in [["--wait-until", "-5"], ["--wait-until", "soon"], ["--wait-until", "1e9"], ["--wait-until", "9223372036854775808"]] {
            let refused = try await testBus.run(notify, ["agent", "--foreground"] + bad)
            #expect(refused.status != .exited(0), "\(bad): \(refused.status) \(refused.standardError)")
            #expect(refused.standardError.contains("--wait-until"), "\(bad): \(refused.standardError)")
        }
    }

    /// Serves the agent as ``writeAgentService(idleExit:_:)`` does, connects the app (the call
    /// that starts the agent), adds `requests` and leaves: the agent's process ID, the file of
    /// its standard error, and when the last add was sent.
    func addThroughStartedAgent(
        _ requests: [UNNotificationRequest], idleExit: Int, arguments: [String] = [], environment: [String: String] = [:]
    ) async throws -> (pid: Int32, log: URL, lastAdd: Date) {
        let log = try await writeAgentService(idleExit: idleExit, arguments, environment: environment)
        let app = try await AgentTestClient.connect(testBus.bus)
        _ = try await app.connection.callBus("ReloadConfig")
        try await app.connectApp(Self.appID)
        var lastAdd = Date()
        for request in requests {
            lastAdd = Date()
            try await app.add(request, for: Self.appID)
        }
        let pid = try #require(try await testBus.ownerPID(of: AgentInterface.busName))
        await app.close()
        return (pid, log, lastAdd)
    }

    /// Serves the agent through the test bus's service folder, with `--idle-exit idleExit`,
    /// `arguments`, and this suite's state folder.
    @discardableResult
    func writeAgentService(idleExit: Int, _ arguments: [String] = [], environment: [String: String] = [:]) async throws -> URL {
        try await testBus.serveAgent(
            arguments: ["--idle-exit", String(idleExit)] + arguments,
            environment: environment.merging(["XDG_STATE_HOME": stateHome.path]) { _, ours in ours })
    }

    /// The unique bus name of the connection of process `pid`.
    static func uniqueName(of pid: Int32, on connection: DBusConnection) async throws -> String? {
        let names = try await connection.callBus("ListNames").arguments("as").first?.stringArrayValue ?? []
        for name in names where name.hasPrefix(":") {
            let owner = try? await connection.callBus("GetConnectionUnixProcessID", [.string(name)]).arguments("u").first?.uint32Value
            if owner == UInt32(pid) { return name }
        }
        return nil
    }

    /// The words of a process's command line, joined by spaces; empty once it is gone.
    static func commandLine(of pid: Int32) -> String {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return "" }
        return String(decoding: data, as: UTF8.self).split(separator: "\0").joined(separator: " ")
    }

    /// Whether a process runs (a zombie, exited but not yet reaped, does not).
    static func isAlive(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return false }
        return stat.split(separator: ")").last?.split(separator: " ").first != "Z"
    }
}

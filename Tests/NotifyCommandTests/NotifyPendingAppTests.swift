import DBus
import DesktopNotificationsSupport
import Foundation
import Testing
import UserNotifications
import UserNotificationsTesting

/// `notify pending --app ID` and `notify cancel --app ID`: the requests the agent holds for an
/// app that notify did not hand over itself, with the built `notify` as the agent on a
/// private bus.
@Suite("notify pending and cancel --app")
struct NotifyPendingAppTests {
    /// The agent's well-known name (`AgentInterface.busName`).
    static let agentName = "org.desktopnotifications.Agent"

    let bus: TestBus
    let folder: URL
    var environment: [String: String?] {
        ["XDG_STATE_HOME": folder.appendingPathComponent("state").path, "XDG_RUNTIME_DIR": folder.appendingPathComponent("runtime").path]
    }

    init() async throws {
        bus = try await TestBus()
        folder = try NotifyCommandTests.scratchFolder()
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("runtime"), withIntermediateDirectories: true)
    }

    func notify(_ arguments: [String]) async throws -> CommandResult {
        try await bus.run(try NotifyCommandTests.executable().path, arguments, environment: environment, timeout: .seconds(20))
    }

    /// Hands `summary` to the agent for `app` an hour from now, then forgets that notify did
    /// (its record in `agent-apps`), as if the app had scheduled it itself; returns the id.
    func schedule(_ summary: String, app: String) async throws -> String {
        let handed = try await notify(["--in", "1h", "-a", app, summary])
        try #require(handed.status == .exited(0), "\(handed.standardError)")
        let id = handed.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        try #require(id.hasPrefix("agent-"), "\(handed.standardOutput)")
        try FileManager.default.removeItem(at: folder.appendingPathComponent("state/notify/agent-apps/\(app)"))
        return id
    }

    @Test("--app lists and cancels another app's requests in the agent, which plain pending does not show; a bad id exits 1")
    func otherApp() async throws {
        let agent = try bus.spawn(try NotifyCommandTests.executable().path, ["agent", "--foreground"], environment: environment)
        try await bus.waitForName(Self.agentName, ownedBy: agent)
        let tea = try await schedule("Tea", app: "org.example.Other")
        let coffee = try await schedule("Coffee", app: "org.example.Other")

        let plain = try await notify(["pending"])
        #expect(plain.status == .exited(0), "\(plain.standardError)")
        #expect(plain.standardOutput.isEmpty)
        let listed = try await notify(["pending", "--app", "org.example.Other"])
        #expect(listed.status == .exited(0), "\(listed.standardError)")
        let lines = listed.standardOutput.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.contains { $0.hasPrefix("\(tea)\t") && $0.hasSuffix("\t-\tagent\tTea") }, "\(listed.standardOutput)")
        #expect(lines.contains { $0.hasPrefix("\(coffee)\t") && $0.hasSuffix("\t-\tagent\tCoffee") }, "\(listed.standardOutput)")
        let json = try await notify(["pending", "--json", "--app=org.example.Other"])
        let objects = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: Any]])
        #expect(objects.map { $0["appName"] as? String } == ["org.example.Other", "org.example.Other"])

        let nothing = try await notify(["pending", "--app", "org.example.Nothing"])
        #expect(nothing.status == .exited(0) && nothing.standardOutput.isEmpty, "\(nothing.standardError)")
        let bad = try await notify(["pending", "--app", "not an id"])
        #expect(bad.status == .exited(1))
        #expect(bad.standardError.hasPrefix("notify pending: "))

        let unknown = try await notify(["cancel", "--app", "org.example.Other", "agent-00000000"])
        #expect(unknown.status == .exited(1))
        #expect(unknown.standardError.contains("holds no pending request \"agent-00000000\" for org.example.Other"))
        let one = try await notify(["cancel", "--app", "org.example.Other", tea])
        #expect(one.status == .exited(0), "\(one.standardError)")
        let left = try await notify(["pending", "--app", "org.example.Other"])
        #expect(left.standardOutput.hasPrefix("\(coffee)\t") && left.standardOutput.split(separator: "\n").count == 1)
        let all = try await notify(["cancel", "--app", "org.example.Other", "--all"])
        #expect(all.status == .exited(0), "\(all.standardError)")
        #expect(try await notify(["pending", "--app", "org.example.Other"]).standardOutput.isEmpty)
        _ = await agent.kill()
        await bus.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    @Test("--app with an agent of another interface version (one left running by another install) exits 1, says to restart it, and asks it nothing after Connect")
    func otherAgentVersion() async throws {
        // A stand-in agent answering Status with one pending request for the app, and Connect
        // with a version notify does not speak; it records what it is asked.
        let members = Locked<[String]>([])
        let connection = try await DBusConnection.connect(to: bus.bus)
        let status = #"{"apps":[{"appID":"org.example.Other","pending":1,"delivered":0,"queued":0,"connected":false}]}"#
        let interface = try DBusExportedInterface(
            name: "org.desktopnotifications.Agent1", introspectionXML: #"<interface name="org.desktopnotifications.Agent1"/>"#
        ) { invocation in
            members.withLock { $0.append(invocation.message.member ?? "") }
            switch invocation.message.member {
            case "Status": invocation.reply([.string(status)])
            case "Connect": invocation.reply([.uint32(AgentInterface.version + 1)])
            case "PendingRequests": invocation.reply([.string("[]")])
            default: invocation.fail(name: "org.freedesktop.DBus.Error.UnknownMethod", message: "not served")
            }
        }
        connection.export(DBusExportedObject(path: try DBusObjectPath("/org/desktopnotifications/Agent"), interfaces: [interface]))
        _ = try await connection.requestName(Self.agentName)

        let listed = try await notify(["pending", "--app", "org.example.Other"])
        #expect(listed.status == .exited(1))
        #expect(listed.standardError.contains("interface version \(AgentInterface.version + 1)"), "\(listed.standardError)")
        #expect(listed.standardError.contains("restart the agent"), "\(listed.standardError)")
        let cancelled = try await notify(["cancel", "--app", "org.example.Other", "--all"])
        #expect(cancelled.status == .exited(1))
        #expect(members.withLock { $0 } == ["Status", "Connect", "Status", "Connect"])
        await connection.close()
        await bus.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Calls the agent's `member` on `connection`.
    static func call(_ member: String, _ body: [DBusValue], on connection: DBusConnection) async throws -> DBusMessage {
        let message = try DBusMessage.methodCall(
            destination: agentName, path: try DBusObjectPath("/org/desktopnotifications/Agent"), interface: "org.desktopnotifications.Agent1",
            member: member, body: body)
        return try await connection.call(message, timeout: .seconds(10))
    }

    @Test("--app while the app runs says so (exit 1); once it quit, listing it keeps the name and icon it gave the agent, which a restarted agent posts with")
    func runningAppAndItsName() async throws {
        let server = try await FakeNotificationServer.start(on: bus.bus)
        let agent = try bus.spawn(try NotifyCommandTests.executable().path, ["agent", "--foreground"], environment: environment)
        try await bus.waitForName(Self.agentName, ownedBy: agent)
        // The app: connected under its own name, with a request due in 3 s.
        let app = try await DBusConnection.connect(to: bus.bus)
        _ = try await Self.call("Connect", [.string("org.example.Tea"), .variantDictionary([("name", .string("Tea Timer")), ("icon", .string("tea"))])], on: app)
        let content = UNMutableNotificationContent()
        content.title = "Tea is ready"
        let request = UNNotificationRequest(
            identifier: "tea", content: content, trigger: UNTimeIntervalNotificationTrigger(timeInterval: 3, repeats: false))
        _ = try await Self.call("Add", [.string("org.example.Tea"), try AgentPayload.encode(request).dbusValue], on: app)

        let running = try await notify(["pending", "--app", "org.example.Tea"])
        #expect(running.status == .exited(1))
        #expect(running.standardError.contains("org.example.Tea is running"), "\(running.standardError)")
        await app.close()
        // The agent sees the app leave the bus: then notify may ask for it.
        var listed = try await notify(["pending", "--app", "org.example.Tea"])
        let deadline = ContinuousClock.now + .seconds(10)
        while listed.status != .exited(0) && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
            listed = try await notify(["pending", "--app", "org.example.Tea"])
        }
        #expect(listed.status == .exited(0), "\(listed.standardError)")
        #expect(listed.standardOutput.hasPrefix("tea\t") && listed.standardOutput.hasSuffix("\tagent\tTea is ready\n"), "\(listed.standardOutput)")
        // The name and icon the agent keeps for the app are what a later agent posts with.
        _ = await agent.kill()
        let restarted = try bus.spawn(try NotifyCommandTests.executable().path, ["agent", "--foreground"], environment: environment)
        try await bus.waitForName(Self.agentName, ownedBy: restarted)
        let shown = await server.waitForNotify(timeout: .seconds(10))
        #expect(shown != nil)
        #expect(server.notifications.first?.request.appName == "Tea Timer")
        #expect(server.notifications.first?.request.appIcon == "tea")
        await server.stop()
        _ = await restarted.kill()
        await bus.stop()
        try? FileManager.default.removeItem(at: folder)
    }
}

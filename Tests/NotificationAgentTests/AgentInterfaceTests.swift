import DBus
import Foundation
import Testing
import UserNotifications
import UserNotificationsTesting

@Suite("The agent's interface files")
struct AgentInterfaceTests {
    static func stored(_ name: String) throws -> [String] {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("dbus/\(name)")
        return try String(contentsOf: file, encoding: .utf8).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// The `<interface>` element of the file `name` in dbus/, cut from its text: from the start of
    /// the line of `<interface` to the end of `</interface>`.
    static func interfaceElement(_ name: String) throws -> String {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("dbus/\(name)")
        let text = try String(contentsOf: file, encoding: .utf8)
        let start = try #require(text.range(of: "<interface "))
        let end = try #require(text.range(of: "</interface>"))
        let lineStart = text[..<start.lowerBound].lastIndex(of: "\n").map { text.index(after: $0) } ?? text.startIndex
        return String(text[lineStart..<end.upperBound])
    }

    /// What `Introspect` answers for `path` of `destination`, asked over `bus`.
    static func introspect(_ destination: String, _ path: DBusObjectPath, on bus: DBusBus) async throws -> String {
        let connection = try await DBusConnection.connect(to: bus)
        defer { Task { await connection.close() } }
        let reply = try await connection.call(.methodCall(
            destination: destination, path: path, interface: "org.freedesktop.DBus.Introspectable", member: "Introspect"))
        return try #require(reply.body.first?.stringValue)
    }

    @Test("the agent serves exactly the interface elements of dbus/ for Agent1 and AgentPush1")
    func agentServesTheFiles() async throws {
        let fixture = try await AgentServiceFixture(prefix: "agent-introspect")
        let agent = try await fixture.startAgent()
        let served = try await Self.introspect(AgentInterface.busName, AgentInterface.path, on: fixture.testBus.bus)
        for file in ["org.desktopnotifications.Agent1.xml", "org.desktopnotifications.AgentPush1.xml"] {
            let element = try Self.interfaceElement(file)
            #expect(served.components(separatedBy: element + "\n").count == 2, "\(file) is not served as written:\n\(served)")
        }
        await agent.stop()
    }

    @Test("a center on the agent serves exactly the interface element of dbus/ for AgentClient1")
    func centerServesTheFile() async throws {
        let fixture = try await AgentServiceFixture(prefix: "center-introspect")
        _ = try await FakeNotificationServer.start(on: fixture.testBus.bus)
        let agent = try await fixture.startAgent()
        let center = UNUserNotificationCenter(
            identity: ApplicationIdentity(id: "org.example.Introspected", displayName: "Introspected"),
            bus: .address(fixture.testBus.address), engine: .agent)
        #expect(await center.engineKind == .agent)
        _ = await center.pendingNotificationRequests()
        // The center's connection is the one the agent's app is bound to: the bus's names that
        // serve the client object, asked one by one.
        let connection = try await DBusConnection.connect(to: fixture.testBus.bus)
        let names = try await connection.call(.methodCall(
            destination: "org.freedesktop.DBus", path: DBusObjectPath("/org/freedesktop/DBus"), interface: "org.freedesktop.DBus",
            member: "ListNames")).body.first?.stringArrayValue ?? []
        var served: [String] = []
        for name in names where name.hasPrefix(":") && name != connection.uniqueName {
            if let xml = try? await Self.introspect(name, AgentInterface.clientPath, on: fixture.testBus.bus), xml.contains(AgentInterface.clientName) {
                served.append(xml)
            }
        }
        let element = try Self.interfaceElement("org.desktopnotifications.AgentClient1.xml")
        #expect(served.count == 1)
        #expect(served.first?.components(separatedBy: element + "\n").count == 2, "\(served)")
        await agent.stop()
    }

    @Test("the agent routes each Agent1 method of the file and refuses any other signature with the file's")
    func routesTheFileSignatures() async throws {
        let fixture = try await AgentServiceFixture(prefix: "agent-signatures")
        let agent = try await fixture.startAgent()
        let app = try await AgentTestClient.connect(fixture.testBus.bus)
        #expect(Agent1Spec.Method.allCases.count == 18)
        for method in Agent1Spec.Method.allCases {
            do {
                try await app.call(method.rawValue, [.int32(1)])
                Issue.record("\(method.rawValue)(i) was taken")
            } catch DBusError.remote(let name, let message) {
                #expect(name == "org.desktopnotifications.Agent1.Error.InvalidArgument")
                #expect(message == "\(method.rawValue) takes (\(method.inputSignature)), not (i)")
            }
        }
        #expect(await app.errorName(of: "Response", [.string("a"), .string("b"), .string("c")]) == "org.freedesktop.DBus.Error.UnknownMethod")
        #expect(try await app.call(Agent1Spec.Method.version.rawValue) == [.uint32(AgentInterface.version)])
        await app.close()
        await agent.stop()
    }

    @Test("the service file template names the agent, runs notify agent from @bindir@ and names the systemd user unit")
    func serviceTemplate() throws {
        let lines = try Self.stored("org.desktopnotifications.Agent.service.in")
        #expect(lines == [
            "[D-BUS Service]", "Name=\(AgentInterface.busName)", "Exec=@bindir@/notify agent --foreground",
            "SystemdService=desktopnotifications-agent.service",
        ])
    }

    @Test("an agent error and a UNError survive the trip through a D-Bus error name")
    func errorNames() {
        for error in [
            NotificationAgentError.notAllowed("x"), .limitReached("y"), .invalidArgument("z"), .unknownApp("w"),
            .incompatibleVersion(agent: 4),
        ] {
            let (name, message) = AgentErrorName.encode(error)
            #expect(name.hasPrefix("org.desktopnotifications.Agent1.Error."))
            #expect(AgentErrorName.decode(DBusError.remote(name: name, message: message)) as? NotificationAgentError == error)
        }
        let (name, message) = AgentErrorName.encode(UNError(.notificationInvalidNoContent))
        #expect(name == "org.desktopnotifications.Agent1.Error.UNError1401")
        #expect(AgentErrorName.decode(DBusError.remote(name: name, message: message)) as? UNError == UNError(.notificationInvalidNoContent))
    }

    @Test("the payload refuses records over 1 MiB and records of the wrong shape, with a typed error")
    func boundedPayload() throws {
        let huge: AgentPayload.Record = ["identifier": .string(String(repeating: "x", count: AgentInterface.maximumArgumentBytes + 1))]
        #expect(throws: NotificationAgentError.self) { try AgentPayload.request(from: huge) }
        #expect(throws: NotificationAgentError.self) { try AgentPayload.request(from: ["identifier": .uint32(3)]) }
        #expect(throws: NotificationAgentError.self) { try AgentPayload.categories(from: [["actions": .string("[")]]) }
        // Just under the bound is taken.
        var body = ""
        var fits: AgentPayload.Record = [:]
        repeat {
            body += String(repeating: "y", count: 4096)
            fits = try AgentPayload.encode(UNNotificationRequest(identifier: "big", content: Self.content(body: body), trigger: nil))
        } while AgentPayload.size(of: fits) + 4096 <= AgentInterface.maximumArgumentBytes
        #expect(try AgentPayload.request(from: fits).content.body == body)
    }

    static func content(body: String) -> UNNotificationContent {
        let content = UNMutableNotificationContent()
        content.body = body
        return content
    }
}

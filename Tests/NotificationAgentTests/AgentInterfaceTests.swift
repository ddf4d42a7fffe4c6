import DBus
import Foundation
import Testing
import UserNotifications

@Suite("The agent's interface files")
struct AgentInterfaceTests {
    static func stored(_ name: String) throws -> [String] {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("dbus/\(name)")
        return try String(contentsOf: file, encoding: .utf8).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    }

    static func lines(_ xml: String) -> [String] {
        xml.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    }

    @Test("the XML in dbus/ is the text the agent and the center serve", arguments: [
        ("org.desktopnotifications.Agent1.xml", AgentInterface.introspectionXML),
        ("org.desktopnotifications.AgentClient1.xml", AgentInterface.clientIntrospectionXML),
        ("org.desktopnotifications.AgentPush1.xml", AgentPushInterface.introspectionXML),
    ])
    func files(name: String, served: String) throws {
        let stored = try Self.stored(name)
        #expect(stored.count == Self.lines(served).count + 4)
        #expect(Array(stored[3..<(stored.count - 1)]) == Self.lines(served))
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

    @Test("the payload refuses text over 1 MiB and JSON of the wrong shape, with a typed error")
    func boundedPayload() {
        let huge = String(repeating: "x", count: AgentInterface.maximumArgumentBytes + 1)
        #expect(throws: NotificationAgentError.self) { try AgentPayload.request(from: huge) }
        #expect(throws: NotificationAgentError.self) { try AgentPayload.request(from: "{\"identifier\": 3}") }
        #expect(throws: NotificationAgentError.self) { try AgentPayload.categories(from: "[") }
    }
}

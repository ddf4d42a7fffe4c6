import DBus
import Foundation
import NotificationAgent
import Testing
@testable import UserNotifications
import UserNotificationsTesting

@Suite("The center's calls to the agent, shaped by the interface file")
struct AgentCallShapeTests {
    @Test("a call is built from the file's typed arguments, and a body of another signature does not read")
    func callShape() async throws {
        let fixture = try await AgentServiceFixture(prefix: "agent-call-shape")
        let agent = try await fixture.startAgent()
        let identity = ApplicationIdentity(id: "org.example.CallShape", displayName: "Call Shape")
        let connection = try await DBusConnection.connect(to: fixture.testBus.bus)
        let engine = try await AgentEngine.start(identity: identity, connection: connection, host: EngineHostReference())

        let add = try engine.message(.add(.init(appID: identity.id, request: ["identifier": .string("a")])))
        #expect(add.member == "Add" && add.interface == "org.desktopnotifications.Agent1")
        #expect(add.bodySignature == Agent1Spec.Method.add.inputSignature)
        #expect(add.body == [.string(identity.id), .dictionary(key: .string, value: .variant, [DBusDictionaryEntry(.string("identifier"), .variant(.string("a")))])])
        let remove = try engine.message(.removePendingRequests(.init(appID: identity.id, identifiers: ["a"], all: false)))
        #expect(remove.member == "RemovePendingRequests" && remove.bodySignature == "sasb")
        #expect(remove.body == [.string(identity.id), .stringArray(["a"]), .boolean(false)])

        // What the agent reads a call with: the same types, each value checked.
        let read = try Agent1Spec.Call(.removePendingRequests, remove.body)
        guard case .removePendingRequests(let arguments) = read else { Issue.record("read as \(read.method)"); return }
        #expect(arguments.appID == identity.id && arguments.identifiers == ["a"] && !arguments.all)
        #expect(throws: DBusError.unexpectedSignature(expected: "sa{sv}", found: "suu")) {
            try Agent1Spec.Call(.add, [.string(identity.id), .uint32(1), .uint32(2)])
        }
        #expect(throws: DBusError.typeMismatch(expected: "a{sv}", found: "u")) { try Agent1Spec.Call(.add, [.string(identity.id), .uint32(1)]) }
        #expect(throws: DBusError.typeMismatch(expected: "a(ss)", found: "as")) {
            try Agent1Spec.AddRequestsReply([.stringArray(["x"])])
        }
        engine.close()
        await agent.stop()
    }

    @Test("a message is read as a call of the interface, or refused with the D-Bus error a server answers")
    func readFromMessage() throws {
        let path = try DBusObjectPath("/org/desktopnotifications/Agent")
        let message = try Agent1Spec.Call.setBadgeCount(.init(appID: "org.example.A", count: 3)).message(to: nil, path: path)
        guard case .setBadgeCount(let arguments) = try Agent1Spec.Call(message) else { Issue.record("not SetBadgeCount"); return }
        #expect(arguments.appID == "org.example.A" && arguments.count == 3)

        let unknown = try DBusMessage.methodCall(destination: nil, path: path, interface: Agent1Spec.name, member: "Explode")
        #expect(throws: DBusCallRefusal.unknownMethod(interface: "org.desktopnotifications.Agent1", member: "Explode")) {
            try Agent1Spec.Call(unknown)
        }
        let wrong = try DBusMessage.methodCall(
            destination: nil, path: path, interface: Agent1Spec.name, member: "SetBadgeCount", body: [.string("org.example.A")])
        do {
            _ = try Agent1Spec.Call(wrong)
            Issue.record("a body without the count was read")
        } catch {
            #expect(error == .invalidArguments(member: "SetBadgeCount", expected: "si", found: "s"))
            #expect(error.errorName == "org.freedesktop.DBus.Error.InvalidArgs")
            #expect(error.description == "SetBadgeCount takes (si), not (s)")
            // The agent and a center answer it as the agent's typed InvalidArgument.
            #expect(AgentErrorName.encode(error) == (AgentErrorName.prefix + "InvalidArgument", "SetBadgeCount takes (si), not (s)"))
        }
        #expect(AgentErrorName.encode(DBusCallRefusal.unknownMethod(interface: Agent1Spec.name, member: "Explode")) == (
            "org.freedesktop.DBus.Error.UnknownMethod", "org.desktopnotifications.Agent1 has no method Explode"))
    }
}

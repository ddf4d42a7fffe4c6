import DBus
import Foundation
import NotificationAgent
import Testing
@testable import UserNotifications
import UserNotificationsTesting

@Suite("The center's calls to the agent, shaped by the interface file")
struct AgentCallShapeTests {
    @Test("a call is built with the file's member name and input signature, and a body of another signature is refused")
    func callShape() async throws {
        let fixture = try await AgentServiceFixture(prefix: "agent-call-shape")
        let agent = try await fixture.startAgent()
        let identity = ApplicationIdentity(id: "org.example.CallShape", displayName: "Call Shape")
        let connection = try await DBusConnection.connect(to: fixture.testBus.bus)
        let engine = try await AgentEngine.start(identity: identity, connection: connection, host: EngineHostReference())

        let add = try engine.message(.add, [.string("{}")])
        #expect(add.member == "Add" && add.interface == "org.desktopnotifications.Agent1")
        #expect(add.bodySignature == Agent1Spec.Method.add.inputSignature)
        #expect(add.body == [.string(identity.id), .string("{}")])
        let remove = try engine.message(.removePendingRequests, [.stringArray(["a"]), .boolean(false)])
        #expect(remove.member == "RemovePendingRequests" && remove.bodySignature == "sasb")

        #expect(throws: NotificationAgentError.failed("Add takes (ss), not (su)")) { try engine.message(.add, [.uint32(1)]) }
        #expect(throws: NotificationAgentError.failed("SetBadgeCount takes (si), not (s)")) { try engine.message(.setBadgeCount, []) }
        engine.close()
        await agent.stop()
    }
}

import DBus
import DesktopNotificationsSupport
import Foundation
import NotificationAgent
import Testing
import UserNotifications
import UserNotificationsTesting

/// The calls a center sends without waiting for an answer (cancellations, withdrawals,
/// categories), refused with `UnknownApp` by an agent that no longer knows the app (it was
/// restarted, or the call itself started it, before the center saw the new owner).
@Suite("Calls refused by an agent that no longer knows the app")
struct AgentRestartCallsTests {
    /// An agent stand-in on the bus: it records every call and refuses the first call of each
    /// member in `refuseOnce` with `UnknownApp`; other calls get the empty answer of their
    /// signature.
    final class ScriptedAgent: Sendable {
        let calls = Locked<[String]>([])
        let refuseOnce: Locked<Set<String>>
        let connection: DBusConnection
        let export: DBusConnection.Export

        init(on bus: DBusBus, refusingOnce members: Set<String>) async throws {
            refuseOnce = Locked(members)
            connection = try await DBusConnection.connect(to: bus)
            let calls = self.calls
            let refuseOnce = self.refuseOnce
            let interface = try DBusExportedInterface(name: AgentInterface.name, introspectionXML: AgentInterface.introspectionXML) { invocation in
                let member = invocation.message.member ?? ""
                calls.withLock { $0.append(member) }
                if refuseOnce.withLock({ $0.remove(member) != nil }) {
                    let (name, text) = AgentErrorName.encode(NotificationAgentError.unknownApp("call Connect first"))
                    return invocation.fail(name: name, message: text)
                }
                switch member {
                case "Connect": invocation.reply([.uint32(AgentInterface.version)])
                case "TakeResponses": invocation.reply([.array(element: .structure([.string, .string]), [])])
                default: invocation.reply()
                }
            }
            export = connection.export(DBusExportedObject(path: AgentInterface.path, interfaces: [interface]))
            _ = try await connection.requestName(AgentInterface.busName)
        }

        func close() async {
            export.unexport()
            await connection.close()
        }
    }

    @Test("a refused cancellation, withdrawal or category change is sent once more, after the Connect its refusal brings")
    func resentAfterConnecting() async throws {
        let testBus = try await TestBus()
        let agent = try await ScriptedAgent(
            on: testBus.bus, refusingOnce: ["RemovePendingRequests", "RemoveDeliveredNotifications", "SetCategories"])
        let center = UNUserNotificationCenter(
            identity: ApplicationIdentity(id: "org.example.Refused", displayName: "Refused"), bus: .address(testBus.address),
            persistent: false, engine: .agent)
        #expect(await center.engineKind == .agent)
        #expect(await eventually { agent.calls.withLock { $0.contains("Connect") } })
        let connectsBefore = agent.calls.withLock { $0.count { $0 == "Connect" } }

        center.removePendingNotificationRequests(withIdentifiers: ["a"])
        center.removeDeliveredNotifications(withIdentifiers: ["b"])
        center.setNotificationCategories([UNNotificationCategory(identifier: "c", actions: [], intentIdentifiers: [])])

        let members = ["RemovePendingRequests", "RemoveDeliveredNotifications", "SetCategories"]
        #expect(await eventually { agent.calls.withLock { calls in members.allSatisfy { member in calls.count { $0 == member } == 2 } } })
        try await Task.sleep(for: .milliseconds(300))
        let calls = agent.calls.withLock { $0 }
        for member in members {
            #expect(calls.count { $0 == member } == 2, "\(calls)")
            // Each is sent again after a Connect that follows its refusal.
            let first = try #require(calls.firstIndex(of: member))
            let second = try #require(calls.lastIndex(of: member))
            #expect(calls[first..<second].contains("Connect"), "\(calls)")
        }
        #expect(calls.count { $0 == "Connect" } > connectsBefore)
        await agent.close()
    }
}

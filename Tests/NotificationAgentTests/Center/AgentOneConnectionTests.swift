import DBus
import Foundation
import FreedesktopNotifications
import NotificationAgent
import Testing
import UserNotifications
import UserNotificationsTesting

/// The agent serves every app from its one bus connection: the notifications of every app are
/// posted from the connection it serves `Agent1` from, and the server's signals, even those a
/// server sends to the poster alone, reach the app whose notification they name, and no other.
@Suite("The agent's one bus connection")
struct AgentOneConnectionTests {
    let fixture: AgentServiceFixture

    init() async throws {
        fixture = try await AgentServiceFixture(prefix: "agent-one-connection")
    }

    @Test("three apps post from the agent's own connection, and each click reaches its own app (signals sent to the poster alone)")
    func oneConnectionForEveryApp() async throws {
        let server = try await FakeNotificationServer.start(on: fixture.testBus.bus, personality: .dunst)
        let agent = try await fixture.startAgent()
        let appIDs = ["org.example.One", "org.example.Two", "org.example.Three"]
        var centers: [UNUserNotificationCenter] = []
        var recorders: [ResponseRecorder] = []
        for appID in appIDs {
            let center = UNUserNotificationCenter(
                identity: ApplicationIdentity(id: appID, displayName: appID), bus: .address(fixture.testBus.address), engine: .agent)
            let recorder = ResponseRecorder()
            center.delegate = recorder
            #expect(await center.engineKind == .agent)
            try await center.add(AgentTestClient.request("from-\(appID)"))
            centers.append(center)
            recorders.append(recorder)
        }
        #expect(await eventually { server.notifications.count == appIDs.count })
        let senders = Set(server.notifications.map(\.sender))
        #expect(senders == [agent.connection.uniqueName], "posted from \(senders.sorted()), not \(agent.connection.uniqueName)")

        // dunst sends ActionInvoked to the poster alone: the agent's connection hears every
        // app's, and hands each to the app that posted it.
        for (index, appID) in appIDs.enumerated().reversed() {
            let id = try #require(server.notifications.first { $0.request.summary == "Title of from-\(appID)" }?.id)
            server.invokeAction(id: id)
            #expect(await eventually { recorders[index].received == ["from-\(appID) \(UNNotificationDefaultActionIdentifier)"] })
        }
        try await Task.sleep(for: .milliseconds(200))
        for (index, appID) in appIDs.enumerated() {
            #expect(recorders[index].received == ["from-\(appID) \(UNNotificationDefaultActionIdentifier)"])
        }
        withExtendedLifetime(centers) {}
        await agent.stop()
    }
}

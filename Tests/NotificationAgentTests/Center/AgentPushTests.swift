import DBus
import DesktopNotificationsSupport
import Foundation
import FreedesktopNotifications
import NotificationAgent
import Testing
import UserNotifications
import UserNotificationsTesting

/// A delegate that keeps what `willPresent` was asked.
final class PresentationRecorder: NSObject, UNUserNotificationCenterDelegate, Sendable {
    private let seen = Locked<[(identifier: String, title: String, pushed: Bool)]>([])

    var presented: [(identifier: String, title: String, pushed: Bool)] { seen.withLock { $0 } }

    func userNotificationCenter(_ center: UNUserNotificationCenter, willPresent notification: UNNotification) async
        -> UNNotificationPresentationOptions
    {
        let request = notification.request
        seen.withLock { $0.append((request.identifier, request.content.title, request.trigger is UNPushNotificationTrigger)) }
        return [.banner, .list]
    }
}

@Suite("Remote notifications through the built agent")
struct AgentPushTests {
    static let appID = "org.example.AgentTestApp"
    let fixture: BuiltAgentFixture

    init() async throws {
        fixture = try await BuiltAgentFixture(appID: Self.appID, prefix: "agent-push")
    }

    @Test("a push for an app that is not running is shown with its name, and a click launches it: its delegate gets the pushed request")
    func appNotRunning() async throws {
        let server = try await FakeNotificationServer.start(on: fixture.testBus.bus, personality: .gnome46)
        let distributor = try await FakeUnifiedPushDistributor.start(on: fixture.testBus.bus)
        try fixture.writeDesktopEntry(arguments: ["--record-requests"])
        let agent = try await fixture.spawnAgent()
        let registration = try await fixture.registerTestApp()
        let kept = try #require(distributor.registrations.values.first)
        #expect(kept.service == AgentInterface.busName)
        #expect(kept.endpoint == registration.endpoint)
        // The agent holds the app's keys, 0600, in the app's agent folder.
        let keyFile = fixture.agentState.appendingPathComponent("desktopnotifications-agent/\(Self.appID)/push.json").path
        #expect((try FileManager.default.attributesOfItem(atPath: keyFile)[.posixPermissions] as? NSNumber)?.intValue == 0o600)

        // The app has exited; the push arrives.
        let message = try await WebPushTestSender.encrypt(
            Data(#"{"aps":{"alert":{"title":"Pushed","body":"while the app was away"}}}"#.utf8),
            p256dh: registration.p256dh, auth: registration.auth)
        try await distributor.send(message, to: kept.token, id: "away-1")
        #expect(await eventually { server.notifications.contains { $0.request.summary == "Pushed" } })
        let shown = try #require(server.notifications.first { $0.request.summary == "Pushed" })
        #expect(shown.request.appName == "Agent Test App")
        server.invokeAction(id: try #require(shown.id))
        #expect(await eventually(timeout: .seconds(20)) { fixture.recorded.count == 1 })
        // The relaunched delegate got the pushed request: `IDENTIFIER ACTION TRIGGER TITLE`.
        let words = try #require(fixture.recorded.first).split(separator: " ", maxSplits: 3).map(String.init)
        #expect(words.count == 4 && !words[0].isEmpty, "\(fixture.recorded)")
        #expect(Array(words.dropFirst()) == [UNNotificationDefaultActionIdentifier, "push", "Pushed"], "\(fixture.recorded)")
        _ = await agent.kill()
    }

    @Test("with the app running the agent hands the push to it: its delegate's willPresent sees a push trigger; unregistering reaches the distributor")
    func appRunning() async throws {
        _ = try await FakeNotificationServer.start(on: fixture.testBus.bus)
        let distributor = try await FakeUnifiedPushDistributor.start(on: fixture.testBus.bus)
        let agent = try await fixture.spawnAgent()
        let (center, recorder) = fixture.pushedCenter()
        let registration = try await center.registerForRemoteNotifications(description: "running")
        let kept = try #require(distributor.registrations.values.first)
        #expect(kept.endpoint == registration.endpoint.absoluteString && kept.description == "running")
        try await distributor.push("Live", p256dh: registration.p256dh, auth: registration.auth, to: kept.token)
        #expect(await eventually { recorder.presented.map(\.title) == ["Live"] })
        #expect(recorder.presented.first?.pushed == true)

        try await center.unregisterForRemoteNotifications()
        #expect(await eventually { distributor.registrations.isEmpty })
        _ = await agent.kill()
    }

    @Test("an agent killed and restarted takes the pushes of an app registered before, and shows them")
    func agentRestart() async throws {
        let server = try await FakeNotificationServer.start(on: fixture.testBus.bus)
        let distributor = try await FakeUnifiedPushDistributor.start(on: fixture.testBus.bus)
        let agent = try await fixture.spawnAgent()
        let registration = try await fixture.registerTestApp()
        let token = try #require(distributor.registrations.keys.first)
        _ = await agent.kill()
        let restarted = try await fixture.spawnAgent()
        try await distributor.push("After restart", p256dh: registration.p256dh, auth: registration.auth, to: token)
        #expect(await eventually { server.notifications.contains { $0.request.summary == "After restart" } })
        _ = await restarted.kill()
    }

    @Test("an agent killed and restarted while the app's center stays connected shows the next push, and the center is connected again")
    func agentRestartWhileConnected() async throws {
        let server = try await FakeNotificationServer.start(on: fixture.testBus.bus)
        let distributor = try await FakeUnifiedPushDistributor.start(on: fixture.testBus.bus)
        let agent = try await fixture.spawnAgent()
        let (center, recorder) = fixture.pushedCenter()
        let registration = try await center.registerForRemoteNotifications()
        let token = try #require(distributor.registrations.keys.first)
        try await distributor.push("Before", p256dh: registration.p256dh, auth: registration.auth, to: token)
        #expect(await eventually { recorder.presented.map(\.title) == ["Before"] })
        // The kill comes once the first push is on the server: the agent answers the
        // distributor's Message as it takes it, so a kill before its Notify can lose that push
        // (what the restart test with a connected app tripped on), which is not what is tested.
        #expect(await eventually { server.notifications.contains { $0.request.summary == "Before" } })
        _ = await agent.kill()
        let restarted = try await fixture.spawnAgent()
        // The push comes as soon as the restarted agent owns its name: before or after the
        // center, still running, has connected again.
        try await distributor.push("While connected", p256dh: registration.p256dh, auth: registration.auth, to: token)
        let shown = await eventually { server.notifications.contains { $0.request.summary == "While connected" } }
        #expect(shown)
        #expect(server.notifications.filter { $0.request.summary == "While connected" }.count <= 1)
        // The center sees it among its app's notifications, kept by the restarted agent.
        #expect(await eventually { await center.deliveredNotifications().map(\.request.content.title).contains("While connected") })
        // Once the restarted agent has the center bound, a push asks its delegate again.
        let client = try await AgentTestClient.connect(fixture.testBus.bus)
        #expect(await eventually {
            let json = (try? await client.call("Status").first?.stringValue) ?? nil
            let status = json.flatMap { try? JSONDecoder().decode(AgentStatus.self, from: Data($0.utf8)) }
            return status?.apps.first { $0.appID == "org.example.Pushed" }?.connected == true
        })
        try await distributor.push("Bound again", p256dh: registration.p256dh, auth: registration.auth, to: token)
        #expect(await eventually { recorder.presented.map(\.title).last == "Bound again" })
        #expect(await eventually { server.notifications.contains { $0.request.summary == "Bound again" } })
        await client.close()
        _ = await restarted.kill()
        if !shown { Issue.record("the restarted agent's log:\n\(restarted.standardError)") }
    }

    @Test("a refusal through the agent reaches the app typed")
    func refusal() async throws {
        _ = try await FakeNotificationServer.start(on: fixture.testBus.bus)
        let distributor = try await FakeUnifiedPushDistributor.start(on: fixture.testBus.bus)
        distributor.refuseRegistrations(reason: "VAPID_REQUIRED")
        let agent = try await fixture.spawnAgent()
        let center = UNUserNotificationCenter(
            identity: ApplicationIdentity(id: "org.example.Refused", displayName: "Refused"), bus: .address(fixture.testBus.address),
            stateDirectory: fixture.folder.appendingPathComponent("center-state"), engine: .agent)
        await #expect(throws: RemoteNotificationRegistrationError.refused(reason: "VAPID_REQUIRED")) {
            try await center.registerForRemoteNotifications()
        }
        _ = await agent.kill()
    }
}

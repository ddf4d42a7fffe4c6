import DesktopNotificationsSupport
import Foundation
import Testing
import UserNotifications
import UserNotificationsTesting

/// A service extension for the agent's push tests: it records what it gets and retitles it,
/// never answers, or answers with content over the agent's 1 MiB argument limit. Not isolated,
/// as Apple's class is not: the center calls it on the main thread, the tests read it on theirs.
final class PushServiceExtension: UNNotificationServiceExtension, @unchecked Sendable {
    enum Mode { case retitle(String), neverAnswer, oversized }
    let mode: Mode
    private let record = Locked((received: [(title: String, pushed: Bool)](), expired: 0))
    var received: [(title: String, pushed: Bool)] { record.withLock { $0.received } }
    var expired: Int { record.withLock { $0.expired } }

    init(_ mode: Mode) {
        self.mode = mode
        super.init()
    }

    override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
        let pushed = request.trigger is UNPushNotificationTrigger
        record.withLock { $0.received.append((request.content.title, pushed)) }
        let content = request.content.mutableCopy() as! UNMutableNotificationContent
        switch mode {
        case .retitle(let title):
            content.title = title
            contentHandler(content)
        case .neverAnswer:
            break
        case .oversized:
            content.title = "Oversized"
            content.userInfo = ["padding": String(repeating: "x", count: 2 << 20)]
            contentHandler(content)
        }
    }

    override func serviceExtensionTimeWillExpire() {
        record.withLock { $0.expired += 1 }
    }
}

@Suite("Service extensions of pushes the built agent takes")
struct AgentPushExtensionTests {
    let fixture: BuiltAgentFixture

    init() async throws {
        fixture = try await BuiltAgentFixture(appID: "org.example.AgentTestApp", prefix: "agent-push-extension")
    }

    /// Starts a server, a distributor and the agent, and registers the in-process center of
    /// "org.example.Pushed" (connected to the agent) with `serviceExtension`.
    func connectedCenter(
        with serviceExtension: PushServiceExtension, deadline: Duration = .seconds(30)
    ) async throws -> Connected {
        let server = try await FakeNotificationServer.start(on: fixture.testBus.bus)
        let distributor = try await FakeUnifiedPushDistributor.start(on: fixture.testBus.bus)
        let agent = try await fixture.spawnAgent()
        let (center, recorder) = fixture.pushedCenter()
        center.setServiceExtension(serviceExtension, deadline: deadline)
        let registration = try await center.registerForRemoteNotifications()
        let token = try #require(distributor.registrations.keys.first)
        return Connected(
            server: server, distributor: distributor, agent: agent, center: center, recorder: recorder,
            p256dh: registration.p256dh, auth: registration.auth, token: token)
    }

    struct Connected {
        let server: FakeNotificationServer
        let distributor: FakeUnifiedPushDistributor
        let agent: ChildProcess
        let center: UNUserNotificationCenter
        let recorder: PresentationRecorder
        let p256dh: String
        let auth: String
        let token: String

        func push(_ title: String, mutable: Bool = true) async throws {
            try await distributor.push(title, mutable: mutable, p256dh: p256dh, auth: auth, to: token)
        }

        func shown(_ title: String) -> Bool {
            server.notifications.contains { $0.request.summary == title }
        }
    }

    @Test("a mutable push for a connected app goes through its service extension: the changed title is shown and presented; a plain push is not")
    func connectedChangesTitle() async throws {
        let serviceExtension = PushServiceExtension(.retitle("Changed"))
        let app = try await connectedCenter(with: serviceExtension)
        try await app.push("Sent")
        #expect(await eventually { app.shown("Changed") }, "\(app.server.notifications.map(\.request.summary))")
        #expect(!app.shown("Sent"))
        #expect(serviceExtension.received.map(\.title) == ["Sent"])
        #expect(serviceExtension.received.first?.pushed == true)
        #expect(await eventually { app.recorder.presented.map(\.title) == ["Changed"] })
        #expect(app.recorder.presented.first?.pushed == true)

        try await app.push("Plain", mutable: false)
        #expect(await eventually { app.shown("Plain") })
        #expect(serviceExtension.received.count == 1)
        _ = await app.agent.kill()
    }

    @Test("an extension that never calls its handler is told its time expires, and the push is shown as sent")
    func neverAnswers() async throws {
        let serviceExtension = PushServiceExtension(.neverAnswer)
        let app = try await connectedCenter(with: serviceExtension, deadline: .seconds(1))
        try await app.push("Sent")
        #expect(await eventually { app.shown("Sent") })
        #expect(serviceExtension.received.map(\.title) == ["Sent"])
        #expect(serviceExtension.expired == 1)
        _ = await app.agent.kill()
    }

    @Test("content over the agent's argument limit does not come back: the push is shown as sent, and the agent says why")
    func oversizedContent() async throws {
        let serviceExtension = PushServiceExtension(.oversized)
        let app = try await connectedCenter(with: serviceExtension)
        try await app.push("Sent")
        #expect(await eventually { app.shown("Sent") })
        #expect(!app.shown("Oversized"))
        #expect(serviceExtension.received.count == 1)
        #expect(await eventually { app.agent.standardError.contains("the app's service extension gave no content") }, "\(app.agent.standardError)")
        _ = await app.agent.kill()
    }

    @Test("a mutable push for an app that is not running is shown as sent: its service extension is in its process, and the agent says why")
    func appNotRunning() async throws {
        let server = try await FakeNotificationServer.start(on: fixture.testBus.bus)
        let distributor = try await FakeUnifiedPushDistributor.start(on: fixture.testBus.bus)
        let agent = try await fixture.spawnAgent()
        // The test app retitles mutable pushes while it runs; it exits once registered.
        let registration = try await fixture.registerTestApp(["--service-extension", "Changed"])
        let token = try #require(distributor.registrations.keys.first)
        try await distributor.push("Sent", mutable: true, p256dh: registration.p256dh, auth: registration.auth, to: token)
        #expect(await eventually { server.notifications.contains { $0.request.summary == "Sent" } })
        #expect(!server.notifications.contains { $0.request.summary == "Changed" })
        #expect(await eventually { agent.standardError.contains("the push is shown as sent") }, "\(agent.standardError)")
        _ = await agent.kill()
    }
}

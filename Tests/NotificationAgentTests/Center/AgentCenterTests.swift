import DBus
import Foundation
import FreedesktopNotifications
import NotificationAgent
import Testing
import UserNotifications
import UserNotificationsTesting

@Suite("A center whose engine is the agent")
struct AgentCenterTests {
    static let appID = "org.example.AgentCenter"
    let fixture: AgentServiceFixture

    init() async throws {
        fixture = try await AgentServiceFixture(prefix: "agent-center")
    }

    static let identity = ApplicationIdentity(id: appID, displayName: "Center App", icon: "dialog-information")

    /// A center with `engine`; with `nil` it chooses, and may keep state in the identity's own
    /// folder, which ``removeDefaultState()`` removes.
    func center(_ engine: NotificationEngineKind? = .agent) -> UNUserNotificationCenter {
        UNUserNotificationCenter(identity: Self.identity, bus: .address(fixture.testBus.address), engine: engine)
    }

    func removeDefaultState() {
        if let folder = try? Self.identity.stateDirectory { try? FileManager.default.removeItem(at: folder) }
    }

    @Test("posts reach the server with the app's name and desktop-entry, from the agent")
    func postsThroughTheAgent() async throws {
        let server = try await FakeNotificationServer.start(on: fixture.testBus.bus)
        let agent = try await fixture.startAgent()
        let center = center()
        #expect(await center.engineKind == .agent)
        try await center.add(AgentTestClient.request("now"))
        // The agent answers Add once it accepted the request; the server's Notify follows.
        _ = await server.waitForNotify()
        let posted = try #require(server.notifications.first)
        #expect(posted.request.appName == "Center App" && posted.request.hints.desktopEntry == Self.appID)
        #expect(posted.request.appIcon == "dialog-information")
        await agent.stop()
    }

    @Test("pending, delivered, removals and categories round trip through the agent in call order")
    func roundTrip() async throws {
        _ = try await FakeNotificationServer.start(on: fixture.testBus.bus)
        let agent = try await fixture.startAgent()
        let center = center()
        let category = UNNotificationCategory(
            identifier: "reply", actions: [UNNotificationAction(identifier: "ok", title: "OK")], intentIdentifiers: [])
        center.setNotificationCategories([category])
        try await center.add(AgentTestClient.request("later", after: 3600))
        try await center.add(AgentTestClient.request("shown", category: "reply"))
        #expect(await center.pendingNotificationRequests().map(\.identifier) == ["later"])
        #expect(await eventually { await center.deliveredNotifications().map(\.request.identifier) == ["shown"] })
        #expect(await center.notificationCategories().map(\.identifier) == ["reply"])
        center.removePendingNotificationRequests(withIdentifiers: ["later"])
        #expect(await center.pendingNotificationRequests().isEmpty)
        center.removeAllDeliveredNotifications()
        #expect(await center.deliveredNotifications().isEmpty)
        let status = try await agent.statusJSON()
        #expect(status.contains(Self.appID) && status.contains("\"connected\":true"))
        await agent.stop()
    }

    @Test("calls made while the engine is chosen wait for it, in call order")
    func callsWaitForTheChoice() async throws {
        _ = try await FakeNotificationServer.start(on: fixture.testBus.bus)
        let agent = try await fixture.startAgent()
        let center = center(nil)
        center.setNotificationCategories([UNNotificationCategory(identifier: "early", actions: [], intentIdentifiers: [])])
        async let added: Void = center.add(AgentTestClient.request("early", after: 3600))
        try await added
        center.removeAllPendingNotificationRequests()
        #expect(await center.pendingNotificationRequests().isEmpty)
        #expect(await center.notificationCategories().map(\.identifier) == ["early"])
        #expect(await center.engineKind == .agent)
        await agent.stop()
    }

    @Test("with no agent on the bus the center stays in process")
    func absentAgent() async throws {
        _ = try await FakeNotificationServer.start(on: fixture.testBus.bus)
        let center = center(nil)
        try await center.add(AgentTestClient.request("local"))
        #expect(await center.engineKind == .inProcess)
        #expect(await center.deliveredNotifications().map(\.request.identifier) == ["local"])
        removeDefaultState()
    }

    @Test("an agent that owns the name but never answers leaves the center in process within the deadline")
    func hangingAgent() async throws {
        _ = try await FakeNotificationServer.start(on: fixture.testBus.bus)
        let hanging = try await DBusConnection.connect(to: fixture.testBus.bus)
        let silent = try DBusExportedInterface(name: AgentInterface.name, introspectionXML: AgentInterface.introspectionXML) { _ in }
        hanging.export(DBusExportedObject(path: AgentInterface.path, interfaces: [silent]))
        #expect(try await hanging.requestName(AgentInterface.busName) == .primaryOwner)
        let start = ContinuousClock.now
        let center = center(nil)
        try await center.add(AgentTestClient.request("fallback"))
        #expect(await center.engineKind == .inProcess)
        // The 3 s Connect deadline, with room for a machine that runs every suite at once.
        #expect(ContinuousClock.now - start < .seconds(15))
        #expect(await center.deliveredNotifications().map(\.request.identifier) == ["fallback"])
        await hanging.close()
        removeDefaultState()
    }

    @Test("an immediate add asks the delegate before it leaves (AddPresented), whose answer applies; calls made meanwhile keep their order")
    func presentsBeforeAdding() async throws {
        let server = try await FakeNotificationServer.start(on: fixture.testBus.bus)
        let agent = try await fixture.startAgent()
        let center = center()
        let delegate = await PresentingDelegate()
        center.delegate = delegate
        #expect(await center.engineKind == .agent)
        try await center.add(AgentTestClient.request("shown"))
        try await center.add(AgentTestClient.request("hidden"))
        _ = await server.waitForNotify()
        #expect(server.notifications.map(\.request.summary) == ["Title of shown"])
        #expect(await eventually { await center.deliveredNotifications().map(\.request.identifier) == ["shown"] })
        #expect(await delegate.asked == ["shown", "hidden"])

        // The delegate holds "slow"; the removal made meanwhile reaches the agent after its Add.
        let slow = Task { try await center.add(AgentTestClient.request("slow")) }
        #expect(await eventually { await delegate.isHolding })
        center.removeDeliveredNotifications(withIdentifiers: ["slow"])
        await delegate.release([.banner, .list])
        try await slow.value
        _ = await server.waitForNotify(count: 2)
        #expect(await center.deliveredNotifications().map(\.request.identifier) == ["shown"])
        #expect(server.notifications.map(\.request.summary) == ["Title of shown", "Title of slow"])
        #expect(await delegate.asked == ["shown", "hidden", "slow"])
        await agent.stop()
    }

    @Test("a response while the center runs reaches didReceive once, and is acknowledged")
    func liveResponse() async throws {
        let server = try await FakeNotificationServer.start(on: fixture.testBus.bus)
        let agent = try await fixture.startAgent()
        let center = center()
        let recorder = ResponseRecorder()
        center.delegate = recorder
        try await center.add(AgentTestClient.request("tap"))
        let id = try #require(await server.waitForNotify())
        server.invokeAction(id: id)
        #expect(await eventually { recorder.received == ["tap \(UNNotificationDefaultActionIdentifier)"] })
        #expect(await eventually { (try? await agent.statusJSON())?.contains("\"queued\":0") == true })
        try await Task.sleep(for: .milliseconds(200))
        #expect(recorder.received.count == 1)
        await agent.stop()
    }
}

/// Shows every notification but "hidden", and holds "slow" until ``release(_:)``; records the
/// identifiers it is asked about.
@MainActor
private final class PresentingDelegate: NSObject, UNUserNotificationCenterDelegate {
    private(set) var asked: [String] = []
    private var held: CheckedContinuation<UNNotificationPresentationOptions, Never>?

    var isHolding: Bool { held != nil }

    func release(_ options: UNNotificationPresentationOptions) {
        held?.resume(returning: options)
        held = nil
    }

    func userNotificationCenter(
        _ center: UNUserNotificationCenter, willPresent notification: UNNotification
    ) async -> UNNotificationPresentationOptions {
        let identifier = notification.request.identifier
        asked.append(identifier)
        switch identifier {
        case "hidden": return []
        case "slow": return await withCheckedContinuation { held = $0 }
        default: return [.banner, .list]
        }
    }
}

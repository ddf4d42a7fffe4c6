import DBus
import Foundation
import Testing
@testable import UserNotifications
import UserNotificationsTesting

@Suite("Portal engine: the real xdg-desktop-portal frontend (Debian 12: 1.16, version 1) with a fake backend")
struct PortalFrontendTests {
    /// A private bus with the fake backend on it and the real frontend started, reading a portal
    /// file that names the backend.
    private static func startFrontend() async throws -> (TestBus, FakePortalBackend, ChildProcess) {
        let frontend = try ToolRequirement.require("/usr/libexec/xdg-desktop-portal")
        let testBus = try await TestBus(withServiceDirectory: true)
        let backend = try await FakePortalBackend.start(on: testBus.bus)
        let portals = testBus.directory.appendingPathComponent("portals", isDirectory: true)
        try FileManager.default.createDirectory(at: portals, withIntermediateDirectories: false)
        try FakePortalBackend.writePortalFile(in: portals)
        let process = try testBus.spawn(
            frontend.path, [],
            environment: ["XDG_DESKTOP_PORTAL_DIR": portals.path, "XDG_CURRENT_DESKTOP": FakePortalBackend.desktopName])
        try await testBus.waitForName("org.freedesktop.portal.Desktop", ownedBy: process)
        return (testBus, backend, process)
    }

    @Test("add, update by id, an action back to the delegate, remove")
    func endToEnd() async throws {
        let (testBus, backend, process) = try await Self.startFrontend()
        let fixtureClock = TestNotificationClock(now: Date(timeIntervalSince1970: 1_700_000_000))
        let center = UNUserNotificationCenter(
            identity: CenterFixture.identity, bus: .address(testBus.address), clock: fixtureClock, persistent: false, engine: .portal)
        let delegate = await RecordingDelegate()
        center.delegate = delegate
        center.setNotificationCategories(PortalFixture.categories)

        try await center.add(Self.request("a", title: "First"))
        try await center.add(Self.request("a", title: "Second"))
        try await center.add(Self.request("b", title: "Other"))
        #expect(await eventually { backend.calls.count == 3 })
        let adds = backend.calls.compactMap { if case .add(let appID, let id, let notification) = $0 { (appID, id, notification) } else { nil } }
        #expect(adds.map(\.1) == ["a", "a", "b"])
        #expect(adds.map { $0.2["title"] } == [.string("First"), .string("Second"), .string("Other")])
        // The frontend passes version 1 keys on; the engine sent no others to a version 1 portal.
        #expect(Set(adds[0].2.keys) == ["title", "body", "icon", "priority", "default-action", "buttons"])
        // A host (unsandboxed) caller's app id is what the frontend finds for it: "" here, or
        // a name from its systemd unit.
        let appID = adds[0].0

        try backend.invokeAction(appID: appID, id: "a", action: "action.0")
        let response = try #require(await delegate.responses.next())
        #expect(response.actionIdentifier == "later")
        #expect(response.notification.request.content.title == "Second")

        center.removeDeliveredNotifications(withIdentifiers: ["b"])
        #expect(await eventually { backend.calls.last == .remove(appID: appID, id: "b") })
        #expect(await center.deliveredNotifications().isEmpty)

        _ = await process.stop()
        await backend.stop()
        await testBus.stop()
    }

    @Test("an app serving org.freedesktop.Application: the frontend passes the app.* actions and their targets on, and relays a click on one back")
    func applicationActions() async throws {
        let (testBus, backend, process) = try await Self.startFrontend()
        let center = UNUserNotificationCenter(
            identity: PortalRelaunchTests.identity, bus: .address(testBus.address),
            clock: TestNotificationClock(now: Date(timeIntervalSince1970: 1_700_000_000)), persistent: false, engine: .portal)
        let delegate = await RecordingDelegate()
        center.delegate = delegate
        center.setNotificationCategories(PortalFixture.categories)
        try await center.serveApplicationInterface()

        try await center.add(Self.request("a", title: "First"))
        #expect(await eventually { backend.calls.count == 1 })
        guard case .add(_, let id, let notification)? = backend.calls.first else {
            Issue.record("no AddNotification reached the backend: \(backend.calls)")
            return
        }
        #expect(id == "a")
        #expect(notification["default-action"] == .string("app.notification-response"))
        let target = try #require(notification["default-action-target"]?.stringValue.flatMap(PortalResponseID.init(parsing:)))
        #expect(target.action == "default" && target.identifier == "a")
        let buttonTarget = "portal:action.0:\(target.nonce):a"
        let buttons = "\(notification["buttons"].map { "\($0)" } ?? "")"
        #expect(buttons.contains("app.notification-response") && buttons.contains(buttonTarget))

        // A backend's click on an app.* action: the 1.16 frontend relays it to the app as
        // ActionInvoked, with the target as the parameter's first element. A target with
        // another nonce is refused first.
        let forged = "portal:action.0:\(PortalResponseID.makeNonce()):a"
        try backend.invokeAction(appID: "", id: "a", action: "app.notification-response", parameter: [.string(forged)])
        try backend.invokeAction(appID: "", id: "a", action: "app.notification-response", parameter: [.string(buttonTarget)])
        let response = try #require(await delegate.responses.next())
        #expect(response.actionIdentifier == "later")
        #expect(response.notification.request.identifier == "a")
        #expect(await center.deliveredNotifications().isEmpty)

        _ = await process.stop()
        await backend.stop()
        await testBus.stop()
    }

    private static func request(_ identifier: String, title: String) -> UNNotificationRequest {
        let content = UNMutableNotificationContent()
        content.title = title
        content.body = "Body"
        content.categoryIdentifier = "message"
        return UNNotificationRequest(identifier: identifier, content: content, trigger: nil)
    }
}

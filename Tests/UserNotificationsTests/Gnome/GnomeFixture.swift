import DBus
import Foundation
@testable import UserNotifications
import UserNotificationsTesting

/// A private bus, a fake `org.gtk.Notifications`, and a center on it with the GNOME engine.
struct GnomeFixture {
    let testBus: TestBus
    let gtk: FakeGtkNotifications
    let center: UNUserNotificationCenter
    let delegate: RecordingDelegate
    let clock: TestNotificationClock

    static let identity = ApplicationIdentity(id: "org.example.GnomeEngineTests", displayName: "GNOME Engine Tests", icon: "dialog-information")

    /// The portal's tests' category: `later`, then the text-input `reply`.
    static let categories = PortalFixture.categories

    init(knownApps: Set<String> = [GnomeFixture.identity.id]) async throws {
        testBus = try await TestBus()
        gtk = try await FakeGtkNotifications.start(on: testBus.bus, knownApps: knownApps)
        clock = TestNotificationClock(now: Date(timeIntervalSince1970: 1_700_000_000))
        center = Self.makeCenter(testBus, clock)
        delegate = await RecordingDelegate()
        center.delegate = delegate
        center.setNotificationCategories(Self.categories)
    }

    /// Another center of the same app on the same bus, as an app relaunched would make.
    static func makeCenter(_ testBus: TestBus, _ clock: TestNotificationClock) -> UNUserNotificationCenter {
        UNUserNotificationCenter(identity: identity, bus: .address(testBus.address), clock: clock, persistent: false, engine: .gnome)
    }

    func post(
        _ identifier: String, title: String = "Ada", category: String = "message", userInfo: [AnyHashable: Any] = [:],
        trigger: UNNotificationTrigger? = nil
    ) async throws {
        let content = UNMutableNotificationContent()
        content.title = title
        content.subtitle = "Chat"
        content.body = "1 < 2 & more"
        content.categoryIdentifier = category
        content.userInfo = userInfo
        try await center.add(UNNotificationRequest(identifier: identifier, content: content, trigger: trigger))
    }

    func stop() async {
        await gtk.stop()
        await testBus.stop()
    }
}

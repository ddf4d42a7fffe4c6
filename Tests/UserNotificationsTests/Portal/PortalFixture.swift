import DBus
import Foundation
@testable import UserNotifications
import UserNotificationsTesting

/// A private bus, a fake notification portal, and a center on it with the portal engine.
struct PortalFixture {
    let testBus: TestBus
    let portal: FakeNotificationPortal
    let center: UNUserNotificationCenter
    let delegate: RecordingDelegate
    let clock: TestNotificationClock

    static let categories: Set<UNNotificationCategory> = [
        UNNotificationCategory(
            identifier: "message",
            actions: [
                UNNotificationAction(identifier: "later", title: "Later", options: []),
                UNTextInputNotificationAction(identifier: "reply", title: "Reply", options: [], textInputButtonTitle: "Send", textInputPlaceholder: "…"),
            ],
            intentIdentifiers: [], options: []),
    ]

    init(version: UInt32 = 2) async throws {
        testBus = try await TestBus()
        portal = try await FakeNotificationPortal.start(on: testBus.bus, version: version)
        clock = TestNotificationClock(now: Date(timeIntervalSince1970: 1_700_000_000))
        center = UNUserNotificationCenter(
            identity: CenterFixture.identity, bus: .address(testBus.address), clock: clock, persistent: false, engine: .portal)
        delegate = await RecordingDelegate()
        center.delegate = delegate
        center.setNotificationCategories(Self.categories)
    }

    func post(_ identifier: String, category: String = "message", trigger: UNNotificationTrigger? = nil) async throws {
        let content = UNMutableNotificationContent()
        content.title = "Ada"
        content.subtitle = "Chat"
        content.body = "1 < 2 & more"
        content.categoryIdentifier = category
        content.sound = .default
        try await center.add(UNNotificationRequest(identifier: identifier, content: content, trigger: trigger))
    }

    /// The unique name of the center's connection, as the portal saw it add.
    var appConnection: String? {
        portal.calls.lazy.compactMap { if case .add(_, _, let sender) = $0 { sender } else { nil } }.first
    }

    func stop() async {
        await portal.stop()
        await testBus.stop()
    }
}

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
    /// Where the app's state is kept; `nil` keeps none.
    let stateDirectory: URL?

    static let identity = ApplicationIdentity(id: "org.example.GnomeEngineTests", displayName: "GNOME Engine Tests", icon: "dialog-information")

    /// The portal's tests' category: `later`, then the text-input `reply`.
    static let categories = PortalFixture.categories

    init(knownApps: Set<String> = [GnomeFixture.identity.id], stateDirectory: URL? = nil) async throws {
        self.stateDirectory = stateDirectory
        testBus = try await TestBus()
        gtk = try await FakeGtkNotifications.start(on: testBus.bus, knownApps: knownApps)
        clock = TestNotificationClock(now: Date(timeIntervalSince1970: 1_700_000_000))
        center = Self.makeCenter(testBus, clock, stateDirectory: stateDirectory)
        delegate = await RecordingDelegate()
        center.delegate = delegate
        center.setNotificationCategories(Self.categories)
    }

    /// Another center of the same app on the same bus, as an app relaunched would make,
    /// keeping its state in `stateDirectory` when given.
    static func makeCenter(_ testBus: TestBus, _ clock: TestNotificationClock, stateDirectory: URL? = nil) -> UNUserNotificationCenter {
        UNUserNotificationCenter(
            identity: identity, bus: .address(testBus.address), clock: clock, persistent: stateDirectory != nil,
            stateDirectory: stateDirectory, engine: .gnome)
    }

    /// Another center of the same app on the same bus and state folder, as after a restart,
    /// on a clock of its own (so only its own scheduler fires when that clock moves).
    func relaunchedCenter(clock: TestNotificationClock) -> UNUserNotificationCenter {
        Self.makeCenter(testBus, clock, stateDirectory: stateDirectory)
    }

    func post(
        _ identifier: String, title: String = "Ada", category: String = "message", userInfo: [AnyHashable: Any] = [:],
        trigger: UNNotificationTrigger? = nil, attachments: [UNNotificationAttachment] = []
    ) async throws {
        let content = UNMutableNotificationContent()
        content.title = title
        content.subtitle = "Chat"
        content.body = "1 < 2 & more"
        content.categoryIdentifier = category
        content.userInfo = userInfo
        content.attachments = attachments
        try await center.add(UNNotificationRequest(identifier: identifier, content: content, trigger: trigger))
    }

    func stop() async {
        await gtk.stop()
        await testBus.stop()
    }
}

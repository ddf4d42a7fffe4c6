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

    /// The folder the centers keep state in (`nil`: none kept).
    let stateDirectory: URL?
    let identity: ApplicationIdentity

    /// A fixture whose portal answers `version` and, when given, `supportedOptions` (else the
    /// fake's default: the `im.received` and `alarm.ringing` categories and the reply purpose).
    init(
        version: UInt32 = 2, supportedOptions: DBusValue? = nil, stateDirectory: URL? = nil,
        identity: ApplicationIdentity = CenterFixture.identity
    ) async throws {
        testBus = try await TestBus()
        if let supportedOptions {
            portal = try await FakeNotificationPortal.start(on: testBus.bus, version: version, supportedOptions: supportedOptions)
        } else {
            portal = try await FakeNotificationPortal.start(on: testBus.bus, version: version)
        }
        clock = TestNotificationClock(now: Date(timeIntervalSince1970: 1_700_000_000))
        self.stateDirectory = stateDirectory
        self.identity = identity
        center = Self.makeCenter(bus: testBus, clock: clock, stateDirectory: stateDirectory, identity: identity)
        delegate = await RecordingDelegate()
        center.delegate = delegate
        center.setNotificationCategories(Self.categories)
    }

    /// A center with the portal engine on `bus`, keeping state in `stateDirectory` when given.
    static func makeCenter(
        bus: TestBus, clock: TestNotificationClock, stateDirectory: URL?, identity: ApplicationIdentity = CenterFixture.identity
    ) -> UNUserNotificationCenter {
        UNUserNotificationCenter(
            identity: identity, bus: .address(bus.address), clock: clock, persistent: stateDirectory != nil,
            stateDirectory: stateDirectory, engine: .portal)
    }

    /// Another center of the same app on the same bus and state folder, as after a restart,
    /// on a clock of its own (so only its own scheduler fires when that clock moves).
    func relaunchedCenter(clock: TestNotificationClock) -> UNUserNotificationCenter {
        Self.makeCenter(bus: testBus, clock: clock, stateDirectory: stateDirectory, identity: identity)
    }

    func post(
        _ identifier: String, category: String = "message", trigger: UNNotificationTrigger? = nil,
        attachments: [UNNotificationAttachment] = [], sound: UNNotificationSound? = .default, to center: UNUserNotificationCenter? = nil
    ) async throws {
        let content = UNMutableNotificationContent()
        content.title = "Ada"
        content.subtitle = "Chat"
        content.body = "1 < 2 & more"
        content.categoryIdentifier = category
        content.sound = sound
        content.attachments = attachments
        try await (center ?? self.center).add(UNNotificationRequest(identifier: identifier, content: content, trigger: trigger))
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

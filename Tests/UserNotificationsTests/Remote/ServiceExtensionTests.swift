import DesktopNotificationsSupport
import Foundation
@testable import UserNotifications
import Testing
import UserNotificationsTesting

/// Seed 000's service extension: appends a name to the body (its end-to-end decryption
/// example works the same way). Not isolated, as Apple's template is not: the center calls it
/// on the main thread, and the tests read its counts from theirs.
final class AppendingExtension: UNNotificationServiceExtension, @unchecked Sendable {
    enum Mode { case answerAtOnce, answerTwice, neverAnswer, answerWhenExpiring }
    let mode: Mode
    var contentHandler: ((UNNotificationContent) -> Void)?
    var bestAttemptContent: UNMutableNotificationContent?
    private let counts = Locked((received: 0, expired: 0))
    var received: Int { counts.withLock { $0.received } }
    var expired: Int { counts.withLock { $0.expired } }

    init(_ mode: Mode) {
        self.mode = mode
        super.init()
    }

    override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
        counts.withLock { $0.received += 1 }
        self.contentHandler = contentHandler
        bestAttemptContent = (request.content.mutableCopy() as? UNMutableNotificationContent)
        if let bestAttemptContent {
            bestAttemptContent.body = "\(bestAttemptContent.body), Andrew"
            switch mode {
            case .answerAtOnce:
                contentHandler(bestAttemptContent)
            case .answerTwice:
                contentHandler(bestAttemptContent)
                let second = bestAttemptContent.mutableCopy() as! UNMutableNotificationContent
                second.body = "second answer"
                contentHandler(second)
            case .neverAnswer, .answerWhenExpiring:
                break
            }
        }
    }

    override func serviceExtensionTimeWillExpire() {
        counts.withLock { $0.expired += 1 }
        if mode == .answerWhenExpiring, let contentHandler, let bestAttemptContent {
            contentHandler(bestAttemptContent)
        }
    }
}

@Suite("Service extensions")
struct ServiceExtensionTests {
    static let mutable = #"{"aps":{"alert":{"title":"Greetings","body":"Long time no see"},"mutable-content":1}}"#

    func deliver(_ fixture: CenterFixture, _ json: String = mutable) async throws {
        try await fixture.center.deliverRemoteNotification(try RemoteNotificationPayload(json: Data(json.utf8)))
    }

    @Test("the extension's content is what is shown")
    func changedContent() async throws {
        let fixture = try await CenterFixture()
        let serviceExtension = AppendingExtension(.answerAtOnce)
        fixture.center.setServiceExtension(serviceExtension)
        try await deliver(fixture)
        #expect(fixture.server.notifications.first?.request.body == "Long time no see, Andrew")
        #expect(serviceExtension.expired == 0)
    }

    @Test("a handler called twice counts once")
    func twice() async throws {
        let fixture = try await CenterFixture()
        fixture.center.setServiceExtension(AppendingExtension(.answerTwice))
        try await deliver(fixture)
        #expect(fixture.server.notifications.map(\.request.body) == ["Long time no see, Andrew"])
    }

    @Test("at the deadline (virtual time) the extension is told, and without an answer the original is shown")
    func deadline() async throws {
        let fixture = try await CenterFixture()
        let serviceExtension = AppendingExtension(.neverAnswer)
        fixture.center.setServiceExtension(serviceExtension)
        async let delivery: Void = deliver(fixture)
        #expect(await eventually { serviceExtension.received == 1 })
        fixture.clock.advance(by: 29)
        try await Task.sleep(for: .milliseconds(100))
        #expect(fixture.server.notifications.isEmpty)
        fixture.clock.advance(by: 1)
        try await delivery
        #expect(serviceExtension.expired == 1)
        #expect(fixture.server.notifications.first?.request.body == "Long time no see")
    }

    @Test("an answer given in serviceExtensionTimeWillExpire is used")
    func answerWhenExpiring() async throws {
        let fixture = try await CenterFixture()
        let serviceExtension = AppendingExtension(.answerWhenExpiring)
        fixture.center.setServiceExtension(serviceExtension, deadline: .seconds(10))
        async let delivery: Void = deliver(fixture)
        #expect(await eventually { serviceExtension.received == 1 })
        fixture.clock.advance(by: 10)
        try await delivery
        #expect(fixture.server.notifications.first?.request.body == "Long time no see, Andrew")
    }

    @Test("payloads without mutable-content never reach the extension")
    func notMutable() async throws {
        let fixture = try await CenterFixture()
        let serviceExtension = AppendingExtension(.answerAtOnce)
        fixture.center.setServiceExtension(serviceExtension)
        try await deliver(fixture, #"{"aps":{"alert":"plain"}}"#)
        #expect(serviceExtension.received == 0)
        #expect(fixture.server.notifications.first?.request.body == "plain")
    }
}

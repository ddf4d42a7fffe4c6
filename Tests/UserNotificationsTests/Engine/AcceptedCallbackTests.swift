import Foundation
import DesktopNotificationsSupport
import FreedesktopNotifications
import Testing
import UserNotificationsTesting

@testable import UserNotifications

@Suite("An engine that accepts before delivering (the agent's) tells its caller before it posts")
struct AcceptedCallbackTests {
    static func request(_ identifier: String, title: String? = nil) -> UNNotificationRequest {
        let content = UNMutableNotificationContent()
        content.title = title ?? identifier
        return UNNotificationRequest(identifier: identifier, content: content, trigger: nil)
    }

    @Test("accepted is called before the request's Notify is written, once, and not for a refused request")
    func acceptedBeforeThePost() async throws {
        let testBus = try await TestBus()
        let server = try await FakeNotificationServer.start(on: testBus.bus)
        let engine = EngineCore.start(
            identity: ApplicationIdentity(id: "org.example.Accepting", displayName: "Accepting"),
            client: NotificationsClient(bus: .address(testBus.address)), clock: TestNotificationClock(now: Date(timeIntervalSince1970: 1_700_000_000)),
            host: EngineHostReference(), stateDirectory: nil, undeliveredAfterAcceptance: { _, _ in })
        defer { engine.close() }
        // The first post learns the server's capabilities; the second is posted from the
        // engine's acceptance itself.
        try await engine.add(Self.request("first"), presentation: [.banner])
        #expect(await eventually { await engine.deliveredNotifications().map(\.request.identifier) == ["first"] })
        let seen = Locked<[Int]>([])
        try await engine.add(Self.request("second"), presentation: [.banner]) {
            // Were the Notify written before this, the server would have it within this wait.
            Thread.sleep(forTimeInterval: 0.3)
            seen.withLock { $0.append(server.notifications.count) }
        }
        #expect(seen.withLock { $0 } == [1])
        _ = try #require(await server.waitForNotify(count: 2))
        #expect(server.notifications.map(\.request.summary) == ["first", "second"])
        await #expect(throws: NotificationDeliveryError.self) {
            try await engine.add(Self.request("nul", title: "a\u{0}b"), presentation: [.banner]) { seen.withLock { $0.append(-1) } }
        }
        #expect(seen.withLock { $0 } == [1])
        await server.stop()
        await testBus.stop()
    }
}

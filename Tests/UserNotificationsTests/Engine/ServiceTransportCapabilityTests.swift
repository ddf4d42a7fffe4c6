import DBus
import DesktopNotificationsSupport
import Foundation
import FreedesktopNotifications
import Testing
import UserNotificationsTesting

@testable import UserNotifications

@Suite("A service's capabilities are kept by the engine once settled, asked at each post before")
struct ServiceTransportCapabilityTests {
    /// A service that takes every post and counts how often its capabilities are asked; they
    /// are not settled, and lack `sound`, until ``settle()``.
    final class CountingService: NotificationService {
        let connection: DBusConnection
        private let state = Locked((settled: false, asked: 0, posted: [String]()))

        init(connection: DBusConnection) { self.connection = connection }

        var kind: NotificationEngineKind { .portal }
        var busName: String { "org.example.CountingService" }
        var withdrawsUnlisted: Bool { false }
        var capabilitiesSettled: Bool { state.withLock { $0.settled } }
        var asked: Int { state.withLock { $0.asked } }
        var posted: [String] { state.withLock { $0.posted } }

        func settle() { state.withLock { $0.settled = true } }
        func start(clicked: @escaping @Sendable (ServiceClick) -> Void, restarted: @escaping @Sendable () -> Void) async {}
        func post(
            _ notification: UNNotification, category: UNNotificationCategory?, options: UNNotificationPresentationOptions,
            replacing: Bool
        ) async throws -> String? {
            state.withLock { $0.posted.append(notification.request.identifier) }
            return nil
        }
        func withdraw(_ identifier: String) {}
        func reachable() async -> Bool { true }
        func capabilities() async -> Set<NotificationCapability> {
            state.withLock { state in
                state.asked += 1
                return state.settled ? [.body, .sound] : [.body]
            }
        }
        func click(target: String, activationToken: String?, sender: String) async -> ServiceClick? { nil }
        func close() {}
    }

    @Test("unsettled: asked for every post and for the settings; settled: asked once more, then kept")
    func keptOnceSettled() async throws {
        let testBus = try await TestBus()
        let service = CountingService(connection: try await DBusConnection.connect(to: testBus.bus))
        let engine = EngineCore.start(
            identity: ApplicationIdentity(id: "org.example.Counting", displayName: "Counting"),
            transport: ServiceTransport(service: service), clock: TestNotificationClock(now: Date(timeIntervalSince1970: 1_700_000_000)),
            host: EngineHostReference(), stateDirectory: nil)
        try await engine.add(PendingWakeTests.request("a", trigger: nil))
        try await engine.add(PendingWakeTests.request("b", trigger: nil))
        #expect(service.asked == 2)
        #expect(await engine.authorization().capabilities == [.body])
        #expect(service.asked == 3)

        service.settle()
        try await engine.add(PendingWakeTests.request("c", trigger: nil))
        #expect(service.asked == 4)
        try await engine.add(PendingWakeTests.request("d", trigger: nil))
        #expect(await engine.authorization().capabilities == [.body, .sound])
        #expect(service.asked == 4)
        #expect(service.posted == ["a", "b", "c", "d"])
        engine.close()
        await testBus.stop()
    }
}

import DBus
import DesktopNotificationsSupport
@testable import FreedesktopNotifications
import Foundation
import Testing
import UserNotificationsTesting

@Suite("CloseBatch: a window of CloseNotification calls")
struct CloseBatchTests {
    @Test("on a closed connection every call fails at once, on the sending thread; 20,000 of them answer without nesting", .timeLimit(.minutes(1)))
    func closedConnection() async throws {
        let testBus = try await TestBus()
        let connection = try await DBusConnection.connect(to: testBus.bus)
        await connection.close()
        let ids = (1...20_000).map(UInt32.init)
        let batch = CloseBatch(ids: ids, window: 64)
        let done = Locked(false)
        batch.start(on: connection, timeout: .seconds(5)) { done.withLock { $0 = true } }
        #expect(done.withLock { $0 }, "every call of a closed connection is answered before start returns")
        #expect(batch.failures.map(\.id) == ids)
        #expect(batch.failures.allSatisfy { if case .bus(.disconnected) = $0.error { true } else { false } })
        await testBus.stop()
    }
}

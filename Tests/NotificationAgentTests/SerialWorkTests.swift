import DBus
import DesktopNotificationsSupport
import Testing
import UserNotificationsTesting

@testable import NotificationAgent

/// ``SerialWork``: an app's calls, one at a time, in order, on the D-Bus I/O thread.
@Suite("An app's queue of calls")
struct SerialWorkTests {
    @Test("items run one at a time in the order handed over, each on the D-Bus I/O thread, after each await too")
    func inOrderOnTheLoop() async throws {
        // The agent's queues exist once its connection started the I/O thread: so here too.
        let testBus = try await TestBus()
        let connection = try await DBusConnection.connect(to: testBus.bus)
        defer { withExtendedLifetime(connection) {} }
        let work = SerialWork()
        let log = Locked<[(index: Int, onLoop: Bool)]>([])
        let running = Locked(0)
        let overlapped = Locked(false)
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            for index in 0..<50 {
                work.enqueue {
                    running.withLock { count in
                        count += 1
                        if count > 1 { overlapped.withLock { $0 = true } }
                    }
                    let before = DBusLoopExecutor.isCurrentThread
                    try? await Task.sleep(for: .microseconds(200))
                    log.withLock { $0.append((index, before && DBusLoopExecutor.isCurrentThread)) }
                    running.withLock { $0 -= 1 }
                    if index == 49 { done.resume() }
                }
            }
        }
        let entries = log.withLock { $0 }
        #expect(entries.map(\.index) == Array(0..<50))
        #expect(entries.allSatisfy { $0.onLoop })
        #expect(!overlapped.withLock { $0 })
    }
}

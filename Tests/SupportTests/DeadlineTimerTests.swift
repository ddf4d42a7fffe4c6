import DesktopNotificationsSupport
import Dispatch
import Foundation
import Testing

@Suite("DeadlineTimer: one dispatch timer for many deadlines")
struct DeadlineTimerTests {
    @Test("entries expire on the timer's queue in deadline order; a removed one never expires")
    func expiresInOrder() async throws {
        let expired = Locked<[String]>([])
        let queue = DispatchQueue(label: "DeadlineTimerTests")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 7)
        let queues = Locked<[Int?]>([])
        let timer = DeadlineTimer<Int, String>(queue: queue) { due in
            queues.withLock { $0.append(DispatchQueue.getSpecific(key: key)) }
            expired.withLock { $0 += due }
        }
        timer.add("late", for: 3, after: .milliseconds(200))
        timer.add("removed", for: 2, after: .milliseconds(60))
        timer.add("early", for: 1, after: .milliseconds(30))
        #expect(timer.remove(2) == "removed")
        #expect(timer.count == 2)
        let start = ContinuousClock.now
        while expired.withLock({ $0.count }) < 2, ContinuousClock.now - start < .seconds(10) {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(expired.withLock { $0 } == ["early", "late"])
        #expect(timer.count == 0)
        #expect(!queues.withLock { $0 }.isEmpty)
        #expect(queues.withLock { $0 }.allSatisfy { $0 == 7 })
    }

    @Test("removeAll hands back what waited, soonest first, and nothing expires afterwards")
    func removeAll() async throws {
        let expired = Locked(0)
        let timer = DeadlineTimer<Int, String>(queue: DispatchQueue(label: "DeadlineTimerTests.removeAll")) { due in
            expired.withLock { $0 += due.count }
        }
        timer.add("b", for: 2, after: .milliseconds(40))
        timer.add("a", for: 1, after: .milliseconds(20))
        #expect(timer.removeAll() == ["a", "b"])
        try await Task.sleep(for: .milliseconds(120))
        #expect(expired.withLock { $0 } == 0)
    }

    @Test("a duration becomes a dispatch interval: negative is zero, one past Int64 nanoseconds is never")
    func dispatchIntervals() {
        #expect(Duration.milliseconds(1500).dispatchInterval == .nanoseconds(1_500_000_000))
        #expect(Duration.seconds(-3).dispatchInterval == .nanoseconds(0))
        #expect(Duration.seconds(Int64.max).dispatchInterval == .never)
        #expect(Duration.seconds(9_223_372_037).dispatchInterval == .never)
    }
}

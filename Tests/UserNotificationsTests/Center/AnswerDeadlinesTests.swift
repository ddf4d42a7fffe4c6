import DesktopNotificationsSupport
import Foundation
import Testing
@testable import UserNotifications

@Suite("AnswerDeadlines: one timer for every delegate deadline")
struct AnswerDeadlinesTests {
    @Test("each deadline expires once, in order, also when a later one was armed first; a removed one never expires")
    func expiresInOrder() async throws {
        let deadlines = AnswerDeadlines()
        let expired = Locked<[String]>([])
        // The latest first: the timer must move to the earlier ones added after it.
        _ = deadlines.add(after: .milliseconds(300)) { expired.withLock { $0.append("late") } }
        let removed = deadlines.add(after: .milliseconds(100)) { expired.withLock { $0.append("removed") } }
        // When the early one expires, the late one must still wait: had the timer stayed at
        // 300 ms, both would expire together.
        let waitingWhenEarlyExpired = Locked<Int?>(nil)
        _ = deadlines.add(after: .milliseconds(50)) {
            waitingWhenEarlyExpired.withLock { $0 = deadlines.count }
            expired.withLock { $0.append("early") }
        }
        deadlines.remove(removed)
        #expect(deadlines.count == 2)

        let start = ContinuousClock.now
        while expired.withLock({ $0.count }) < 2, ContinuousClock.now - start < .seconds(10) {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(expired.withLock { $0 } == ["early", "late"])
        #expect(waitingWhenEarlyExpired.withLock { $0 } == 1)
        #expect(deadlines.count == 0)
        // Nothing else comes later.
        try await Task.sleep(for: .milliseconds(150))
        #expect(expired.withLock { $0 } == ["early", "late"])
    }

    @Test("a deadline whose answer came is gone without expiring")
    func answeredInTime() async throws {
        let deadlines = AnswerDeadlines()
        let expired = Locked(false)
        let token = deadlines.add(after: .milliseconds(30)) { expired.withLock { $0 = true } }
        deadlines.remove(token)
        #expect(deadlines.count == 0)
        try await Task.sleep(for: .milliseconds(120))
        #expect(expired.withLock { $0 } == false)
    }
}

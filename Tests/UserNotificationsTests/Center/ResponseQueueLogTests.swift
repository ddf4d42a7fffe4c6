import DesktopNotificationsSupport
import Foundation
import Testing
@testable import UserNotifications
import UserNotificationsTesting

@Suite("The response queue's drops are logged without flooding the log")
struct ResponseQueueLogTests {
    @Test("a spell of 2,500 drops logs its first, each thousandth, and the count once there is room")
    @MainActor
    func spellOfDrops() async {
        let recorder = LogRecorder()
        let log = SubsystemLog(label: "org.example.responses")
        log.use(recorder.logger(label: "org.example.responses"))
        let told = Locked(0)
        let queue = ResponseQueue(log: log) { _, done in
            told.withLock { $0 += 1 }
            done()
        }
        let request = UNNotificationRequest(identifier: "r", content: UNNotificationContent(), trigger: nil)
        let response = UNNotificationResponse(notification: UNNotification(date: Date(), request: request), actionIdentifier: "a")

        // No delegate yet: nothing is told, so the queue fills and then drops.
        for _ in 0..<(ResponseQueue.limit + 2_500) { queue.enqueue(response) }
        #expect(queue.droppedCount == 2_500)
        #expect(recorder.lines == [
            "error response queue full; response dropped; further drops are counted until it has room action=a identifier=r",
            "error response queue still full dropped=1000",
            "error response queue still full dropped=2000",
        ])

        // A delegate: the waiting responses are told, and the next one finds room.
        queue.delegateSet()
        for _ in 0..<100_000 where told.withLock({ $0 }) < ResponseQueue.limit { await Task.yield() }
        #expect(told.withLock { $0 } == ResponseQueue.limit)
        queue.enqueue(response)
        #expect(recorder.lines.last == "warning the response queue has room again dropped=2500")
        #expect(recorder.lines.count == 4)
    }
}

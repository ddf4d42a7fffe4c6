import DesktopNotificationsSupport
import Foundation
import Logging
import Testing
@testable import UserNotifications

@Suite("The response queue's drops are logged without flooding the log")
struct ResponseQueueLogTests {
    /// Keeps each line logged through it: level, message and the `dropped` count if any.
    private struct Recording: LogHandler {
        let lines: Locked<[String]>
        var logLevel: Logger.Level = .trace
        var metadata: Logger.Metadata = [:]

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let dropped = event.metadata?["dropped"].map { " dropped=\($0)" } ?? ""
            lines.withLock { $0.append("\(event.level) \(event.message)\(dropped)") }
        }
    }

    @Test("a spell of 2,500 drops logs its first, each thousandth, and the count once there is room")
    @MainActor
    func spellOfDrops() async {
        let lines = Locked<[String]>([])
        let log = SubsystemLog(label: "org.example.responses")
        log.use(Logger(label: "org.example.responses") { _ in Recording(lines: lines) })
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
        #expect(lines.withLock { $0 } == [
            "error response queue full; response dropped; further drops are counted until it has room",
            "error response queue still full dropped=1000",
            "error response queue still full dropped=2000",
        ])

        // A delegate: the waiting responses are told, and the next one finds room.
        queue.delegateSet()
        for _ in 0..<100_000 where told.withLock({ $0 }) < ResponseQueue.limit { await Task.yield() }
        #expect(told.withLock { $0 } == ResponseQueue.limit)
        queue.enqueue(response)
        #expect(lines.withLock { $0.last } == "warning the response queue has room again dropped=2500")
        #expect(lines.withLock { $0.count } == 4)
    }
}

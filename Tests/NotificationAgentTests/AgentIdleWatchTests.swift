import DesktopNotificationsSupport
import Foundation
import Testing
import UserNotificationsTesting

@testable import NotificationAgent

@Suite("The agent's one idle timer")
struct AgentIdleWatchTests {
    @Test("signs of work keep pushing the idle time back; once they stop, idle runs once, a period after the last")
    func touchesPushBack() async throws {
        let idled = Locked<[ContinuousClock.Instant]>([])
        let watch = AgentIdleWatch(period: .milliseconds(300), check: { .holdsNothing }, idle: { _ in idled.withLock { $0.append(.now) } })
        defer { watch.cancel() }
        for _ in 0..<12 {
            try await Task.sleep(for: .milliseconds(50))
            watch.touch()
        }
        let lastTouch = ContinuousClock.now
        #expect(idled.withLock { $0 }.isEmpty)
        #expect(await eventually { !idled.withLock { $0 }.isEmpty })
        let rang = try #require(idled.withLock { $0 }.first)
        #expect(rang - lastTouch >= .milliseconds(290))
        try await Task.sleep(for: .milliseconds(700))
        #expect(idled.withLock { $0 }.count == 1)
    }

    @Test("a busy agent's timer stays unset until the next sign of work, which sets it again")
    func busyWaitsForWork() async throws {
        let busy = Locked(true)
        let checks = Locked(0)
        let idled = Locked(0)
        let watch = AgentIdleWatch(
            period: .milliseconds(100),
            check: {
                checks.withLock { $0 += 1 }
                return busy.withLock { $0 } ? nil : .waitsUntil(.distantFuture)
            },
            idle: { end in
                #expect(end == .waitsUntil(.distantFuture))
                idled.withLock { $0 += 1 }
            })
        defer { watch.cancel() }
        #expect(await eventually { checks.withLock { $0 } == 1 })
        try await Task.sleep(for: .milliseconds(400))
        #expect(checks.withLock { $0 } == 1 && idled.withLock { $0 } == 0)
        busy.withLock { $0 = false }
        watch.touch()
        #expect(await eventually { idled.withLock { $0 } == 1 })
        #expect(checks.withLock { $0 } == 2)
    }
}

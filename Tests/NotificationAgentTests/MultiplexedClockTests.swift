import DesktopNotificationsSupport
import Foundation
import Testing
import UserNotifications
import UserNotificationsTesting

@Suite("Many alarms under one alarm of the underlying clock")
struct MultiplexedClockTests {
    let base = TestNotificationClock(now: Date(timeIntervalSince1970: 1_000))

    @Test("the base clock holds one alarm, at the earliest deadline, and none once all are cancelled")
    func oneBaseAlarm() {
        let clock = MultiplexedNotificationClock(base: base)
        let late = clock.setAlarm(for: base.now.addingTimeInterval(60)) { _ in }
        let early = clock.setAlarm(for: base.now.addingTimeInterval(10)) { _ in }
        #expect(base.alarmDeadlines == [base.now.addingTimeInterval(10)])
        early.cancel()
        #expect(base.alarmDeadlines == [base.now.addingTimeInterval(60)])
        late.cancel()
        #expect(base.alarmDeadlines.isEmpty)
        #expect(clock.waitingAlarms == 0)
    }

    @Test("alarms ring in deadline order, each once, as time passes")
    func ringInOrder() {
        let clock = MultiplexedNotificationClock(base: base)
        let rung = Locked<[String]>([])
        let alarms = [("b", 20.0), ("a", 10.0), ("c", 30.0)].map { name, offset in
            clock.setAlarm(for: base.now.addingTimeInterval(offset)) { event in rung.withLock { $0.append("\(name) \(event)") } }
        }
        base.advance(by: 25)
        #expect(rung.withLock { $0 } == ["a deadlineReached", "b deadlineReached"])
        base.advance(by: 10)
        #expect(rung.withLock { $0 } == ["a deadlineReached", "b deadlineReached", "c deadlineReached"])
        #expect(base.alarmDeadlines.isEmpty)
        alarms.forEach { $0.cancel() }
    }

    @Test("a clock change rings every alarm with clockChanged")
    func clockChange() {
        let clock = MultiplexedNotificationClock(base: base)
        let rung = Locked<[NotificationClockEvent]>([])
        let alarms = [10.0, 3600].map { offset in
            clock.setAlarm(for: base.now.addingTimeInterval(offset)) { event in rung.withLock { $0.append(event) } }
        }
        base.set(to: base.now.addingTimeInterval(5))
        #expect(rung.withLock { $0 } == [.clockChanged, .clockChanged])
        alarms.forEach { $0.cancel() }
    }

    @Test("a cancelled alarm never rings")
    func cancelledNeverRings() {
        let clock = MultiplexedNotificationClock(base: base)
        let rung = Locked(false)
        let alarm = clock.setAlarm(for: base.now.addingTimeInterval(10)) { _ in rung.withLock { $0 = true } }
        alarm.cancel()
        base.advance(by: 20)
        #expect(rung.withLock { $0 } == false)
    }
}

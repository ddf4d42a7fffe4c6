import Foundation
import Synchronization
import Testing
@testable import UserNotifications
import UserNotificationsTesting

@Suite("TestNotificationClock")
struct TestNotificationClockTests {
    let start = Date(timeIntervalSince1970: 1_700_000_000)
    let clock: TestNotificationClock
    private let log = AlarmLog()

    init() {
        clock = TestNotificationClock(now: start)
    }

    func at(_ seconds: TimeInterval) -> Date {
        start.addingTimeInterval(seconds)
    }

    @discardableResult
    func alarm(_ name: String, at seconds: TimeInterval) -> any NotificationClockAlarm {
        clock.setAlarm(for: at(seconds)) { [clock, log] event in
            log.record(name, event, at: clock.now)
        }
    }

    var rung: [String] { log.rings.map(\.name) }

    @Test func advanceRingsDueAlarmsInDeadlineOrderWithTheTimeAtEachDeadline() {
        alarm("b", at: 20)
        alarm("a", at: 10)
        alarm("later", at: 40)

        clock.advance(by: 30)

        let rings = log.rings
        #expect(rings.map(\.name) == ["a", "b"])
        #expect(rings.map(\.event) == [.deadlineReached, .deadlineReached])
        #expect(rings.map(\.now) == [at(10), at(20)])
        #expect(clock.now == at(30))
        #expect(clock.alarmDeadlines == [at(40)])
    }

    @Test func alarmsWithTheSameDeadlineRingInTheOrderTheyWereSet() {
        for name in ["x", "y", "z"] {
            alarm(name, at: 5)
        }

        clock.advance(by: 5)

        #expect(rung == ["x", "y", "z"])
    }

    @Test func anAlarmSetDuringAnAdvanceRingsWithinIt() {
        _ = clock.setAlarm(for: at(10)) { [clock, log] event in
            log.record("first", event, at: clock.now)
            _ = clock.setAlarm(for: clock.now.addingTimeInterval(10)) { event in
                log.record("second", event, at: clock.now)
            }
        }

        clock.advance(by: 60)

        #expect(log.rings.map(\.name) == ["first", "second"])
        #expect(log.rings.map(\.now) == [at(10), at(20)])
    }

    @Test func aCancelledAlarmNeverRings() {
        let cancelled = alarm("cancelled", at: 10)
        alarm("kept", at: 20)

        cancelled.cancel()
        clock.advance(by: 30)

        #expect(rung == ["kept"])
        #expect(clock.alarmDeadlines.isEmpty)
    }

    @Test func settingTheClockRingsEveryAlarmAsAClockChange() {
        alarm("far", at: 1_000)
        alarm("near", at: 10)

        clock.set(to: at(-500))

        let rings = log.rings
        #expect(rings.map(\.name) == ["near", "far"])
        #expect(rings.map(\.event) == [.clockChanged, .clockChanged])
        #expect(clock.now == at(-500))
        #expect(clock.alarmDeadlines.isEmpty)
    }

    @Test func anAlarmRingsOnlyOnce() {
        alarm("once", at: 10)

        clock.advance(by: 10)
        clock.set(to: at(0))
        clock.advance(by: 20)

        #expect(rung == ["once"])
    }

    @Test func anAlarmForAPassedDeadlineRingsPromptly() {
        let signal = RealTimeSignal()
        let event = Mutex<NotificationClockEvent?>(nil)

        _ = clock.setAlarm(for: at(-1)) { rang in
            event.withLock { $0 = rang }
            signal.signal()
        }

        #expect(signal.wait(seconds: 5))
        #expect(event.withLock { $0 } == .deadlineReached)
    }
}

/// The alarms that rang, with the event and the clock's time at each ring.
private final class AlarmLog: Sendable {
    struct Ring {
        let name: String
        let event: NotificationClockEvent
        let now: Date
    }

    private let recorded = Mutex<[Ring]>([])

    func record(_ name: String, _ event: NotificationClockEvent, at now: Date) {
        recorded.withLock { $0.append(Ring(name: name, event: event, now: now)) }
    }

    var rings: [Ring] { recorded.withLock { $0 } }
}

import Foundation
import Synchronization
import Testing
@testable import UserNotifications

/// The few tests that wait on real time: short deadlines, generous bounds.
@Suite("SystemNotificationClock")
struct SystemNotificationClockTests {
    let clock = SystemNotificationClock()

    @Test func anAlarmFiftyMillisecondsAheadRingsAtItsDeadline() {
        let signal = RealTimeSignal()
        let rang = Mutex<(event: NotificationClockEvent, at: Date)?>(nil)
        let deadline = clock.now.addingTimeInterval(0.05)

        let alarm = clock.setAlarm(for: deadline) { event in
            rang.withLock { $0 = (event, Date()) }
            signal.signal()
        }

        #expect(signal.wait(seconds: 5))
        let ring = rang.withLock { $0 }
        #expect(ring?.event == .deadlineReached)
        #expect(ring.map { $0.at >= deadline } == true)
        alarm.cancel()
    }

    @Test func aSchedulerEntryFiftyMillisecondsAheadFires() {
        let signal = RealTimeSignal()
        let log = FiringLog<String>()
        let scheduler = PendingScheduler<String>(clock: clock) { key, deadline in
            log.record(key, deadline)
            signal.signal()
        }
        let deadline = clock.now.addingTimeInterval(0.05)

        scheduler.schedule("soon", at: deadline)

        #expect(signal.wait(seconds: 5))
        #expect(log.keys == ["soon"])
        #expect(log.deadlines == [deadline])
        #expect(Date() >= deadline)
        #expect(scheduler.count == 0)
    }

    @Test func aCancelledAlarmNeverRings() {
        let signal = RealTimeSignal()

        let alarm = clock.setAlarm(for: clock.now.addingTimeInterval(0.05)) { _ in signal.signal() }
        alarm.cancel()

        #expect(!signal.wait(seconds: 0.3))
    }

    @Test func anAlarmForAPassedDeadlineRingsPromptly() {
        let signal = RealTimeSignal()

        _ = clock.setAlarm(for: Date(timeIntervalSince1970: 0)) { event in
            if event == .deadlineReached { signal.signal() }
        }

        #expect(signal.wait(seconds: 5))
    }

    #if os(Linux)
    @Test func linuxAlarmsAreWallClockTimerDescriptors() throws {
        let descriptor = try #require(TimerDescriptor.armed(at: Date().addingTimeInterval(3_600)))
        defer { close(descriptor) }

        #expect(fcntl(descriptor, F_GETFD) & FD_CLOEXEC != 0)
        #expect(fcntl(descriptor, F_GETFL) & O_NONBLOCK != 0)
        #expect(TimerDescriptor.readEvent(descriptor) == nil)
        let alarm = clock.setAlarm(for: Date().addingTimeInterval(3_600)) { _ in }
        #expect(alarm is TimerDescriptorAlarm)
        alarm.cancel()
    }
    #endif

    @Test func theFallbackDispatchTimerRingsAtItsDeadline() {
        let signal = RealTimeSignal()
        let deadline = Date().addingTimeInterval(0.05)

        let alarm = DispatchWallTimerAlarm(deadline: deadline, queue: .global()) { event in
            if event == .deadlineReached, Date() >= deadline { signal.signal() }
        }

        #expect(signal.wait(seconds: 5))
        alarm.cancel()
    }

    @Test func wallClockInstantsRoundUpToTheNanosecond() {
        let instant = timespec(wallClock: Date(timeIntervalSince1970: 1_700_000_000.25))
        #expect(instant.tv_sec == 1_700_000_000)
        #expect(instant.tv_nsec == 250_000_000)

        let beforeTheEpoch = timespec(wallClock: Date(timeIntervalSince1970: -10))
        #expect(beforeTheEpoch.tv_sec == 0)
        #expect(beforeTheEpoch.tv_nsec == 1)
    }
}

import DesktopNotificationsSupport
import Dispatch
import Foundation
import UserNotifications

/// A `NotificationClock` (module `UserNotifications`) whose time moves only when a test moves it.
///
/// ``advance(by:)`` lets time flow: alarms ring one by one in deadline order, each with
/// ``now`` equal to its deadline, and an alarm set by a handler during the advance rings too
/// when its deadline falls inside it. ``set(to:)`` is a jump, like a person or NTP setting the
/// machine's clock: every alarm rings at once with `NotificationClockEvent.clockChanged`,
/// and the owners look at the new time and set new alarms.
///
/// Handlers run on the thread that calls `advance(by:)` or `set(to:)`, so a test observes
/// their effects as soon as the call returns. An alarm set for a deadline that has already
/// passed, while no advance is under way, rings promptly on a global dispatch queue.
///
/// ```swift
/// let clock = TestNotificationClock(now: Date(timeIntervalSince1970: 0))
/// // ... add a request with a 60-second trigger to a center using `clock` ...
/// clock.advance(by: 60)   // the request is delivered before this returns
/// ```
///
/// - Note: Apple's UserNotifications has no such type.
public final class TestNotificationClock: NotificationClock {
    private struct Alarm {
        let id: UInt64
        let deadline: Date
        let slot: AlarmHandlerSlot
    }

    private struct State {
        var now: Date
        var alarms: [Alarm] = []
        var nextAlarmID: UInt64 = 0
        var advancesUnderWay = 0
    }

    private let state: Locked<State>

    /// Creates a clock that reads `now` until a test moves it.
    ///
    /// - Parameter now: The starting time; by default the real time when the clock is made.
    public init(now: Date = Date()) {
        state = Locked(State(now: now))
    }

    /// The virtual current time.
    public var now: Date {
        state.withLock { $0.now }
    }

    /// The deadlines of the alarms that are set and have not rung, earliest first.
    public var alarmDeadlines: [Date] {
        state.withLock { state in
            state.alarms.filter(\.slot.isWaiting).map(\.deadline).sorted()
        }
    }

    /// Sets an alarm on the virtual clock; see `NotificationClock.setAlarm(for:_:)`.
    public func setAlarm(
        for deadline: Date,
        _ handler: @escaping @Sendable (NotificationClockEvent) -> Void
    ) -> any NotificationClockAlarm {
        let slot = AlarmHandlerSlot(handler)
        let ringsNow = state.withLock { state in
            state.alarms.removeAll { !$0.slot.isWaiting }
            state.alarms.append(Alarm(id: state.nextAlarmID, deadline: deadline, slot: slot))
            state.nextAlarmID += 1
            return deadline <= state.now && state.advancesUnderWay == 0
        }
        if ringsNow {
            DispatchQueue.global().async { [self] in ringDue() }
        }
        return TestClockAlarm(slot: slot)
    }

    /// Lets `interval` seconds pass, ringing each alarm whose deadline falls within it, in
    /// deadline order (alarms with the same deadline in the order they were set).
    ///
    /// - Parameter interval: Seconds to move forward; zero rings alarms already due. To move
    ///   the clock back, use ``set(to:)``.
    public func advance(by interval: TimeInterval) {
        precondition(interval >= 0, "TestNotificationClock.advance(by:) moves forward; use set(to:) to go back")
        let target = state.withLock { state in
            state.advancesUnderWay += 1
            return state.now.addingTimeInterval(interval)
        }
        while let alarm = nextAlarm(dueBy: target) {
            alarm.slot.ring(.deadlineReached)
        }
        state.withLock { state in
            state.now = max(state.now, target)
            state.advancesUnderWay -= 1
        }
    }

    /// Sets the clock to `date`, forward or back, and rings every alarm with
    /// `NotificationClockEvent.clockChanged`, earliest deadline first.
    public func set(to date: Date) {
        let alarms = state.withLock { state in
            state.now = date
            defer { state.alarms = [] }
            return state.alarms.sorted(by: Self.ringsFirst)
        }
        for alarm in alarms {
            alarm.slot.ring(.clockChanged)
        }
    }

    /// Removes the earliest alarm due by `target` and moves the time to its deadline.
    private func nextAlarm(dueBy target: Date) -> Alarm? {
        state.withLock { state in
            state.alarms.removeAll { !$0.slot.isWaiting }
            guard let index = state.alarms.indices.min(by: { Self.ringsFirst(state.alarms[$0], state.alarms[$1]) }),
                  state.alarms[index].deadline <= target
            else { return nil }
            let alarm = state.alarms.remove(at: index)
            state.now = max(state.now, alarm.deadline)
            return alarm
        }
    }

    /// Rings the alarms that are already due without moving the time.
    private func ringDue() {
        while let alarm = nextAlarm(dueBy: now) {
            alarm.slot.ring(.deadlineReached)
        }
    }

    private static func ringsFirst(_ first: Alarm, _ second: Alarm) -> Bool {
        (first.deadline, first.id) < (second.deadline, second.id)
    }
}

/// An alarm of a ``TestNotificationClock``; the clock drops it once its slot is empty.
private struct TestClockAlarm: NotificationClockAlarm {
    let slot: AlarmHandlerSlot

    func cancel() {
        _ = slot.take()
    }
}

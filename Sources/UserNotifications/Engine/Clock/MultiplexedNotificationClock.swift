import DesktopNotificationsSupport
import Foundation

/// Many engines' alarms under one alarm of an underlying clock: the one at the earliest
/// deadline of them all.
///
/// The per-user agent hosts one engine per app, and each engine's scheduler keeps one alarm;
/// this clock keeps them in a table and sets a single alarm of `base` (for the system clock,
/// one `timerfd`), re-armed whenever the earliest deadline changes. With no alarm set it sets
/// none, so an idle agent makes no wake-ups. When `base` reports that the wall clock was set,
/// every alarm rings with ``NotificationClockEvent/clockChanged`` and its owner sets it again.
///
/// Handlers run on the thread the base alarm rings on, outside any lock, one alarm after the
/// other in deadline order.
package final class MultiplexedNotificationClock: NotificationClock {
    private struct Entry {
        let deadline: Date
        let slot: AlarmHandlerSlot
    }

    private struct Armed {
        let generation: UInt64
        let deadline: Date
        /// `nil` for the moment between asking the base clock and its answer.
        var alarm: (any NotificationClockAlarm)?
    }

    private struct State {
        var entries: [UInt64: Entry] = [:]
        var nextID: UInt64 = 0
        var armed: Armed?
        var generation: UInt64 = 0
    }

    private let base: any NotificationClock
    private let state = Locked(State())

    /// Multiplexes alarms onto `base`.
    package init(base: any NotificationClock) {
        self.base = base
    }

    /// The base clock's time.
    package var now: Date { base.now }

    /// How many alarms wait (tests check that nothing leaks).
    package var waitingAlarms: Int {
        state.withLock { $0.entries.values.filter(\.slot.isWaiting).count }
    }

    /// Sets an alarm in the table; see ``NotificationClock/setAlarm(for:_:)``.
    package func setAlarm(
        for deadline: Date, _ handler: @escaping @Sendable (NotificationClockEvent) -> Void
    ) -> any NotificationClockAlarm {
        let slot = AlarmHandlerSlot(handler)
        let id = state.withLock { state in
            state.nextID += 1
            state.entries[state.nextID] = Entry(deadline: deadline, slot: slot)
            return state.nextID
        }
        rearm()
        return MultiplexedAlarm { [weak self] in
            _ = slot.take()
            self?.state.withLock { _ = $0.entries.removeValue(forKey: id) }
            self?.rearm()
        }
    }

    /// Makes the base alarm ring at the earliest deadline, or sets none when nothing waits.
    private func rearm() {
        var replaced: (any NotificationClockAlarm)?
        var wanted: Armed?
        state.withLock { state in
            let earliest = state.entries.values.map(\.deadline).min()
            guard earliest != state.armed?.deadline else { return }
            replaced = state.armed?.alarm
            state.armed = nil
            guard let earliest else { return }
            state.generation += 1
            state.armed = Armed(generation: state.generation, deadline: earliest)
            wanted = state.armed
        }
        replaced?.cancel()
        guard let wanted else { return }
        let alarm = base.setAlarm(for: wanted.deadline) { [weak self] event in
            self?.rang(generation: wanted.generation, event: event)
        }
        // The alarm may have rung (and been replaced) meanwhile; then it is cancelled here.
        let kept = state.withLock { state -> Bool in
            guard state.armed?.generation == wanted.generation else { return false }
            state.armed?.alarm = alarm
            return true
        }
        if !kept { alarm.cancel() }
    }

    /// The base alarm rang: ring what is due (everything, after a clock change), then re-arm.
    private func rang(generation: UInt64, event: NotificationClockEvent) {
        let due = state.withLock { state -> [Entry] in
            guard let armed = state.armed, armed.generation == generation else { return [] }
            state.armed = nil
            let instant = max(base.now, armed.deadline)
            let due = state.entries.filter { event == .clockChanged || $0.value.deadline <= instant }
            for id in due.keys { state.entries.removeValue(forKey: id) }
            return due.values.sorted { $0.deadline < $1.deadline }
        }
        for entry in due { entry.slot.ring(event) }
        rearm()
    }
}

/// An alarm of a ``MultiplexedNotificationClock``.
private struct MultiplexedAlarm: NotificationClockAlarm {
    let cancelAction: @Sendable () -> Void

    func cancel() { cancelAction() }
}

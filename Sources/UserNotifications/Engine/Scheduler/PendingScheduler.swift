import DesktopNotificationsSupport
import Foundation

/// Calls a handler when pending requests fall due, with exactly one clock alarm set: the one
/// for the earliest deadline. The engines' triggers wait on it, and so does `notify`'s waiting
/// process (`notify --in`, `--at`, `--every` without an agent).
///
/// Deadlines are wall-clock instants. When the clock is set forward, every entry that became
/// due fires once; when it is set back, nothing that already fired fires again, because an
/// entry is removed as it fires. A repeating request is scheduled again by the owner, from its
/// anchor, in the handler.
///
/// The handler gets each due key once, with its deadline, earliest first (entries with the same
/// deadline in the order they were scheduled). Calls never overlap. They run on the thread that
/// found the entries due: the clock's (for ``SystemNotificationClock``, its private queue; for
/// `UserNotificationsTesting`'s `TestNotificationClock`, the caller of `advance` or `set`), or the caller of
/// ``schedule(_:at:)`` when the deadline has already passed. No lock is held during a call, so
/// the handler may schedule and cancel freely.
package final class PendingScheduler<Key: Hashable & Sendable>: Sendable {
    /// What is called as an entry falls due: its key and its deadline.
    package typealias Handler = @Sendable (Key, Date) -> Void
    private typealias Entry = DeadlineHeap<Key, Date>.Entry

    private struct ArmedAlarm {
        /// Tells this alarm's ring from that of an alarm since replaced.
        let generation: UInt64
        let deadline: Date
        let alarm: any NotificationClockAlarm
    }

    private struct State {
        var heap = DeadlineHeap<Key, Date>()
        var armed: ArmedAlarm?
        var generation: UInt64 = 0
        /// A thread is calling the handler; it settles the state again when it is done.
        var isDelivering = false
    }

    private let clock: any NotificationClock
    private let handler: Handler
    private let state = Locked(State())

    /// - Parameters:
    ///   - clock: The wall clock to wait on.
    ///   - handler: Called once per entry as it falls due, with the entry's deadline.
    package init(clock: any NotificationClock, handler: @escaping Handler) {
        self.clock = clock
        self.handler = handler
    }

    deinit {
        state.withLock { $0.armed?.alarm.cancel() }
    }

    /// How many entries wait to fire.
    package var count: Int {
        state.withLock { $0.heap.count }
    }

    /// When `key` will fire, or `nil` when it is not scheduled.
    package func deadline(of key: Key) -> Date? {
        state.withLock { $0.heap.deadline(of: key) }
    }

    /// Schedules `key` to fire at `deadline`, replacing its earlier deadline if it had one.
    ///
    /// A deadline that has already passed fires at once: before this returns, or, when called
    /// while the handler is being called (from the handler itself, or on another thread), right
    /// after the handler calls under way.
    package func schedule(_ key: Key, at deadline: Date) {
        update { $0.heap.insert(key, at: deadline) }
    }

    /// Stops `key` from firing.
    package func cancel(_ key: Key) {
        update { $0.heap.remove(key) }
    }

    /// Stops every entry from firing and releases the clock alarm.
    package func cancelAll() {
        update { $0.heap.removeAll() }
    }

    // MARK: - Firing

    private func update(_ change: (inout State) -> Void) {
        let due = state.withLock { state in
            change(&state)
            return state.isDelivering ? [] : settle(&state, dueBy: clock.now)
        }
        deliver(due)
    }

    private func alarmRang(generation: UInt64, event: NotificationClockEvent) {
        let due = state.withLock { state -> [Entry] in
            guard let armed = state.armed, armed.generation == generation else { return [] }
            state.armed = nil
            guard !state.isDelivering else { return [] }
            // The clock says the deadline is reached; trust it over a `now` read a hair early.
            let instant = event == .deadlineReached ? max(clock.now, armed.deadline) : clock.now
            return settle(&state, dueBy: instant)
        }
        deliver(due)
    }

    /// Takes the entries due by `instant` for delivery, or, when none is due, sets the alarm
    /// for the earliest entry.
    private func settle(_ state: inout State, dueBy instant: Date) -> [Entry] {
        let due = state.heap.popAll(dueBy: instant)
        if due.isEmpty {
            state.isDelivering = false
            arm(&state)
        } else {
            state.isDelivering = true
        }
        return due
    }

    /// Calls the handler for `due`, then for whatever fell due meanwhile, until nothing is due.
    private func deliver(_ due: [Entry]) {
        var batch = due
        while !batch.isEmpty {
            for entry in batch {
                handler(entry.key, entry.deadline)
            }
            batch = state.withLock { settle(&$0, dueBy: clock.now) }
        }
    }

    /// Makes the one armed alarm match the earliest deadline: keeps it, replaces it, or drops it.
    private func arm(_ state: inout State) {
        let earliest = state.heap.first?.deadline
        guard state.armed?.deadline != earliest else { return }
        state.armed?.alarm.cancel()
        state.armed = nil
        guard let earliest else { return }
        state.generation += 1
        let generation = state.generation
        let alarm = clock.setAlarm(for: earliest) { [weak self] event in
            self?.alarmRang(generation: generation, event: event)
        }
        state.armed = ArmedAlarm(generation: generation, deadline: earliest, alarm: alarm)
    }
}

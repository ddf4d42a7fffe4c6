import Foundation

/// The wall clock that decides when pending notification requests are due.
///
/// Triggers are stored as UTC instants, so the center needs the wall clock, not a monotonic
/// one: a monotonic clock stops while the machine sleeps, and a request due during the night
/// would then come late. The wall clock can also be set (by a person, or by NTP stepping the
/// time), and a clock tells its waiters when that happens so they can look again at what is
/// due and set a new alarm.
///
/// A clock never polls: an alarm costs nothing while it waits, and with no alarm set a clock
/// causes no wake-ups at all.
///
/// `UNUserNotificationCenter` uses ``SystemNotificationClock``. Tests use
/// `TestNotificationClock` (in `UserNotificationsTesting`) to move time by hand.
///
/// - Note: Apple's UserNotifications has no such type; it exists so that code using this
///   package can test time-based triggers without waiting.
public protocol NotificationClock: Sendable {
    /// The current wall-clock time.
    var now: Date { get }

    /// Sets an alarm that calls `handler` once, when the wall clock reaches `deadline` or when
    /// the wall clock is set, whichever comes first.
    ///
    /// A clock calls `handler` at most once, never from inside this method or from inside
    /// ``NotificationClockAlarm/cancel()``, and never after `cancel()` has returned (a call
    /// that had already begun may still be running). When `deadline` has already passed, the
    /// handler runs promptly with ``NotificationClockEvent/deadlineReached``.
    ///
    /// - Parameters:
    ///   - deadline: The wall-clock instant to wake at.
    ///   - handler: Called with the reason for waking. After
    ///     ``NotificationClockEvent/clockChanged`` the deadline may not have been reached:
    ///     read ``now`` again and set a new alarm if needed.
    /// - Returns: The alarm; cancel it when the wake-up is no longer wanted.
    func setAlarm(
        for deadline: Date,
        _ handler: @escaping @Sendable (NotificationClockEvent) -> Void
    ) -> any NotificationClockAlarm
}

/// An alarm set with ``NotificationClock/setAlarm(for:_:)``.
public protocol NotificationClockAlarm: Sendable {
    /// Stops the alarm; its handler will not be called after this returns. Cancelling an
    /// alarm that has already rung, or cancelling twice, does nothing.
    func cancel()
}

/// Why a ``NotificationClock`` called an alarm's handler.
public enum NotificationClockEvent: Sendable, Hashable {
    /// The wall clock reached the alarm's deadline.
    case deadlineReached

    /// The wall clock was set, forward or back, before the deadline was reached. Anything may
    /// now be due, or the deadline may be further away than before.
    case clockChanged
}

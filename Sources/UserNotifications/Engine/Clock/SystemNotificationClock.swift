import Dispatch
import Foundation

/// The machine's wall clock, for ``NotificationClock``.
///
/// On Linux each alarm is a `timerfd` on `CLOCK_REALTIME`, armed at the absolute deadline with
/// `TFD_TIMER_CANCEL_ON_SET`: the timer keeps counting while the machine sleeps, rings at once
/// on resume when the deadline passed meanwhile, and rings early with
/// ``NotificationClockEvent/clockChanged`` when someone sets the clock. A dispatch source waits
/// on the descriptor, so no thread blocks and nothing polls; with no alarm set there is no timer
/// at all.
///
/// Alarm handlers run on one private serial queue of this clock, one at a time.
///
/// - Note: Apple's UserNotifications has no such type.
public final class SystemNotificationClock: NotificationClock {
    private let queue = DispatchQueue(label: "DesktopNotifications.SystemNotificationClock")

    /// Creates a clock that reads and waits on the machine's wall clock.
    public init() {}

    /// The current wall-clock time.
    public var now: Date { Date() }

    /// Sets an alarm on the wall clock; see ``NotificationClock/setAlarm(for:_:)``.
    public func setAlarm(
        for deadline: Date,
        _ handler: @escaping @Sendable (NotificationClockEvent) -> Void
    ) -> any NotificationClockAlarm {
        #if os(Linux)
        if let alarm = TimerDescriptorAlarm(deadline: deadline, queue: queue, handler: handler) {
            return alarm
        }
        #endif
        return DispatchWallTimerAlarm(deadline: deadline, queue: queue, handler: handler)
    }
}

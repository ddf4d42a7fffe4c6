import Dispatch
import Foundation

/// An alarm on a dispatch timer that follows the wall clock. It is not told when the clock is
/// set, so ``SystemNotificationClock`` uses it only where a Linux `timerfd` cannot be had
/// (another system, or a process out of file descriptors).
final class DispatchWallTimerAlarm: NotificationClockAlarm {
    private let slot: AlarmHandlerSlot
    // Dispatch sources are thread-safe; the overlay just does not mark them Sendable.
    nonisolated(unsafe) private let timer: any DispatchSourceTimer

    init(deadline: Date, queue: DispatchQueue, handler: @escaping AlarmHandlerSlot.Handler) {
        let slot = AlarmHandlerSlot(handler)
        let timer = DispatchSource.makeTimerSource(queue: queue)
        nonisolated(unsafe) let watched = timer
        timer.schedule(wallDeadline: DispatchWallTime(timespec: timespec(wallClock: deadline)))
        timer.setEventHandler {
            guard let handler = slot.take() else { return }
            watched.cancel()
            handler(.deadlineReached)
        }
        timer.resume()
        self.slot = slot
        self.timer = timer
    }

    func cancel() {
        guard slot.take() != nil else { return }
        timer.cancel()
    }
}

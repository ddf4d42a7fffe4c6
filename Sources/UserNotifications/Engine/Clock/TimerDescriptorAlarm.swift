#if os(Linux)
import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An alarm on a Linux `timerfd`, watched by a dispatch read source.
final class TimerDescriptorAlarm: NotificationClockAlarm {
    private let slot: AlarmHandlerSlot
    // Dispatch sources are thread-safe; the overlay just does not mark them Sendable.
    nonisolated(unsafe) private let source: any DispatchSourceRead

    /// Arms a timer at `deadline`; `nil` when the system refuses a timer descriptor.
    init?(deadline: Date, queue: DispatchQueue, handler: @escaping AlarmHandlerSlot.Handler) {
        guard let descriptor = TimerDescriptor.armed(at: deadline) else { return nil }
        let slot = AlarmHandlerSlot(handler)
        let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
        nonisolated(unsafe) let watched = source
        source.setEventHandler {
            guard let event = TimerDescriptor.readEvent(descriptor), let handler = slot.take() else { return }
            watched.cancel()
            handler(event)
        }
        source.setCancelHandler { close(descriptor) }
        source.resume()
        self.slot = slot
        self.source = source
    }

    func cancel() {
        guard slot.take() != nil else { return }
        source.cancel()
    }
}

/// The `timerfd` calls. Glibc's Swift module does not import `<sys/timerfd.h>`, so the two
/// functions are looked up in the C library by name (they are there since glibc 2.8) and the
/// constants are copied from the headers. Package access: the agent's waiter
/// (`notify agent --wait-until`) sleeps on one of these timers too.
package enum TimerDescriptor {
    /// `TFD_TIMER_ABSTIME` in `<sys/timerfd.h>`: the time is an absolute instant.
    static let absoluteTime: Int32 = 1 << 0
    /// `TFD_TIMER_CANCEL_ON_SET` in `<sys/timerfd.h>`: `read` fails with `ECANCELED` when the
    /// clock is set.
    static let cancelOnSet: Int32 = 1 << 1
    /// `TFD_CLOEXEC | TFD_NONBLOCK`; the kernel defines them as `O_CLOEXEC` and `O_NONBLOCK`
    /// (`include/linux/timerfd.h`).
    static let creationFlags: Int32 = O_CLOEXEC | O_NONBLOCK

    private typealias Create = @convention(c) (Int32, Int32) -> Int32
    private typealias SetTime = @convention(c) (
        Int32, Int32, UnsafePointer<itimerspec>?, UnsafeMutablePointer<itimerspec>?
    ) -> Int32

    private static let create: Create? = function("timerfd_create")
    private static let setTime: SetTime? = function("timerfd_settime")

    private static func function<Function>(_ name: String) -> Function? {
        guard let symbol = dlsym(nil, name) else { return nil }
        return unsafeBitCast(symbol, to: Function.self)
    }

    /// A new non-blocking, close-on-exec timer on `CLOCK_REALTIME`, armed at `deadline` and
    /// cancelled when the clock is set; `nil` when the system refuses one.
    package static func armed(at deadline: Date) -> Int32? {
        guard let create, let setTime else { return nil }
        let descriptor = create(Int32(CLOCK_REALTIME), creationFlags)
        guard descriptor >= 0 else { return nil }
        var specification = itimerspec(it_interval: timespec(), it_value: timespec(wallClock: deadline))
        guard setTime(descriptor, absoluteTime | cancelOnSet, &specification, nil) == 0 else {
            close(descriptor)
            return nil
        }
        return descriptor
    }

    /// What a readable timer means; `nil` for a spurious wake-up with nothing to read.
    package static func readEvent(_ descriptor: Int32) -> NotificationClockEvent? {
        var expirations: UInt64 = 0
        if read(descriptor, &expirations, MemoryLayout<UInt64>.size) == MemoryLayout<UInt64>.size {
            return .deadlineReached
        }
        switch errno {
        case EAGAIN, EINTR:
            return nil
        default:
            // ECANCELED: the clock was set. Any other failure is reported the same way, so the
            // owner looks at the time again and sets a fresh alarm.
            return .clockChanged
        }
    }
}
#endif

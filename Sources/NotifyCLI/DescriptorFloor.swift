import CDispatchMainQueue
import Foundation

/// What notify needs of the open-file limit before anything starts, so that a limit too low
/// (`ulimit -n`) ends in a message and status 1, never in a trap inside libdispatch.
///
/// libdispatch opens descriptors of its own (an epoll, an eventfd, a timer) when its main
/// queue starts, and opens the main queue's wake-up eventfd as the main thread leaves for
/// `dispatchMain()`; a failure there is a crash, not an error. That last one raced with the
/// program's own first descriptors (the bus connection), so at a low limit notify trapped now
/// and then. ``reserve()`` checks the limit and has libdispatch open that eventfd first, while
/// only the standard streams are open.
package enum DescriptorFloor {
    /// The fewest open files notify starts with: the three standard streams, libdispatch's
    /// four, and one for the bus connection.
    package static let minimum = 8

    /// Ends the process with a message when the open-file limit is under ``minimum``; else
    /// opens the main queue's wake-up descriptor now. Call it first, before any task starts.
    package static func reserve() {
        var limit = rlimit()
        if getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < rlim_t(minimum) {
            Terminal.error("notify: the open-file limit (ulimit -n) is \(limit.rlim_cur); notify needs at least \(minimum).\n")
            exit(1)
        }
        // A direct call, linked like any other: a lookup by name (dlsym) found nothing in the
        // installed notify, whose libdispatch is linked in static with its symbols local.
        _ = dn_dispatch_make_main_queue_handle()
    }
}

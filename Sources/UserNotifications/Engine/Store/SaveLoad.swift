import DesktopNotificationsSupport

/// The state saves of a group of engines that share one process's time and disk: the agent
/// hosts one engine per app, and all of them share its load; an engine of an app's own
/// center has a load of its own.
///
/// ``SaveCoalescing`` asks it two things. How many of the group's engines have a write
/// waiting, which spaces each engine's next write further. And whether a write may start at
/// once: not sooner than ``SaveCoalescing/spacingFactor`` times the group's last write after
/// that write started. Without the second, engines whose changes interleave (one add for each
/// of 100 apps in turn) each wrote at once at every change, since each engine's own last
/// write was long enough ago; all of the process's time went into saves.
package final class SaveLoad: Sendable {
    private struct State {
        var waiting = 0
        var lastStart: ContinuousClock.Instant?
        var lastDuration: Duration = .zero
    }

    private let state = Locked(State())
    private let written = Locked<(@Sendable () -> Void)?>(nil)

    /// A load of its own, shared with no other engine until it is handed to one.
    package init() {}

    /// Calls `action` as each write of the group's engines starts: every change of an engine's
    /// state is saved, so the agent takes a write as a sign of work (a notification the server
    /// closed, which only the app's engine hears, among them).
    package func onWrite(_ action: @escaping @Sendable () -> Void) {
        written.withLock { $0 = action }
    }

    /// How many of the group's engines have a write waiting for the end of its interval.
    var waiting: Int { state.withLock { $0.waiting } }

    /// Counts one more engine with a write waiting.
    func writeWaits() {
        state.withLock { $0.waiting += 1 }
    }

    /// Counts one engine fewer with a write waiting.
    func waitingWriteStarted() {
        state.withLock { $0.waiting = max(0, $0.waiting - 1) }
    }

    /// Whether a write may start at once at `now`: the group's last write started at least
    /// ``SaveCoalescing/spacingFactor`` times its duration before.
    func allowsWrite(at now: ContinuousClock.Instant) -> Bool {
        state.withLock { state in
            state.lastStart.map { now - $0 >= state.lastDuration * SaveCoalescing.spacingFactor } ?? true
        }
    }

    /// A write of one of the group's engines started at `now`.
    func writeStarted(at now: ContinuousClock.Instant) {
        state.withLock { $0.lastStart = now }
        written.withLock { $0 }?()
    }

    /// The write that started last took `duration`.
    func writeEnded(after duration: Duration) {
        state.withLock { $0.lastDuration = duration }
    }
}

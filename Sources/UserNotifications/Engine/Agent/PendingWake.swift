import Foundation

/// When an engine's pending requests next need a running process: what the agent asks each
/// app's engine before it hands its wait to a process that only sleeps.
package enum PendingWake: Sendable, Hashable {
    /// Nothing is pending.
    case nothing
    /// Every pending request waits for a time (a time-interval or calendar trigger); the
    /// soonest is due at this date, and nothing needs the process before it.
    case at(Date)
    /// A pending request needs the process meanwhile: a location trigger (the location is
    /// watched), or an accepted immediate request not shown yet (it is tried again when a
    /// notification server appears).
    case watching

    /// The wake of two engines together: the sooner date, and `watching` over any date.
    package func combined(with other: PendingWake) -> PendingWake {
        switch (self, other) {
        case (.watching, _), (_, .watching): .watching
        case (.nothing, let wake), (let wake, .nothing): wake
        case (.at(let first), .at(let second)): .at(min(first, second))
        }
    }
}

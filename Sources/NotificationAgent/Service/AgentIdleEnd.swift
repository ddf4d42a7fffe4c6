import Foundation

/// Why an idle agent may end (``AgentService/exitWhenIdle(after:waiting:_:)``).
public enum AgentIdleEnd: Sendable, Hashable {
    /// It holds nothing that needs it: no pending request, no shown notification with
    /// buttons, no app connected.
    case holdsNothing
    /// It holds only pending requests that wait for a time (time-interval and calendar
    /// triggers), the soonest due at this date, more than one idle period ahead, and nothing
    /// else that needs it: a process that sleeps until then and starts the agent again can
    /// take its place (`notify agent --wait-until`).
    case waitsUntil(Date)
}

import DesktopNotificationsSupport
import Dispatch

/// One timer that ends an idle agent: it rings one idle period after the last sign of work
/// (``touch()``); when it rings, `check` asks whether the agent may end and why, and `idle` runs
/// with that answer when it may and no work came meanwhile. A timer that rings on a busy agent is not
/// set again until the next sign of work, so an agent waits for its next event without waking.
///
/// A sign of work only notes its time (one lock, no timer call): the timer, set once per
/// period, looks at that time when it rings and is set again for one period after it when
/// work came meanwhile. So a busy agent sets its timer at most once per period, not once per
/// call.
final class AgentIdleWatch: Sendable {
    private struct State {
        var timer: (any DispatchSourceTimer)?
        /// The time of the last sign of work.
        var lastTouch: DispatchTime
        /// Counts the signs of work, so that a check knows whether work came while it ran.
        var generation = 0
        /// The timer is set to ring.
        var armed = true
    }

    private let state: Locked<State>
    private let period: Duration

    /// Starts the watch; the first period counts from now.
    init(period: Duration, check: @escaping @Sendable () async -> AgentIdleEnd?, idle: @escaping @Sendable (AgentIdleEnd) -> Void) {
        self.period = period
        let source = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "org.desktopnotifications.agent.idle"))
        let state = Locked(State(timer: source, lastTouch: .now()))
        self.state = state
        let interval = period.dispatchInterval
        source.setEventHandler {
            // Still set when work came within the period: ring one period after it.
            let rung: Int? = state.withLock { state in
                let due = state.lastTouch + interval
                if due > .now() {
                    state.timer?.schedule(deadline: due)
                    return nil
                }
                state.armed = false
                return state.generation
            }
            guard let rung else { return }
            Task {
                guard let end = await check(), state.withLock({ $0.generation }) == rung else { return }
                idle(end)
            }
        }
        source.schedule(deadline: .now() + interval)
        source.resume()
    }

    /// Work came: the idle period counts again from now.
    func touch() {
        let now = DispatchTime.now()
        let interval = period.dispatchInterval
        state.withLock { state in
            state.generation += 1
            state.lastTouch = now
            guard !state.armed else { return }
            state.armed = true
            state.timer?.schedule(deadline: now + interval)
        }
    }

    /// Stops the timer for good.
    func cancel() {
        state.withLock { state in
            state.timer?.cancel()
            state.timer = nil
        }
    }
}

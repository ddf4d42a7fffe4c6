import DesktopNotificationsSupport
import Dispatch

/// One timer that ends an idle agent: every sign of work (``touch()``) sets it again to
/// ring one idle period later; when it rings, `check` asks whether the agent holds anything,
/// and `idle` runs when it holds nothing and no work came meanwhile. A timer that rings on a
/// busy agent is not set again until the next sign of work, so an agent waits for its next
/// event without waking.
final class AgentIdleWatch: Sendable {
    private let timer: Locked<(any DispatchSourceTimer)?>
    private let generation = Locked(0)
    private let period: Duration

    /// Starts the watch; the first period counts from now.
    init(period: Duration, check: @escaping @Sendable () async -> Bool, idle: @escaping @Sendable () -> Void) {
        self.period = period
        let source = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "org.desktopnotifications.agent.idle"))
        timer = Locked(source)
        let generation = self.generation
        source.setEventHandler {
            let rung = generation.withLock { $0 }
            Task {
                guard await check(), generation.withLock({ $0 }) == rung else { return }
                idle()
            }
        }
        source.schedule(deadline: .now() + period.dispatchInterval)
        source.resume()
    }

    /// Work came: the idle period counts again from now.
    func touch() {
        generation.withLock { $0 += 1 }
        timer.withLock { $0?.schedule(deadline: .now() + period.dispatchInterval) }
    }

    /// Stops the timer for good.
    func cancel() {
        timer.withLock { source in
            source?.cancel()
            source = nil
        }
    }
}

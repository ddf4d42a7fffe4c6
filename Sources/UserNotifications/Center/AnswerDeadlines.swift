import DBus
import Dispatch
import Synchronization

/// Deadlines for answers awaited from the app's own code (the delegate's `willPresent` and
/// `didReceive`), all served by one timer.
///
/// A sleeping task per answer costs, for every notification, a timer registration with
/// libdispatch's manager thread, a cancellation and two thread wake-ups. Here the one timer
/// is armed at the earliest deadline and moves only for an earlier one; an answer that comes
/// in time just removes its entry. A steady stream of prompt answers arms the timer about
/// once per deadline period, and with nothing awaited it is not armed at all.
final class AnswerDeadlines: @unchecked Sendable {
    /// The process's deadlines.
    static let shared = AnswerDeadlines()

    /// What ``add(after:expire:)`` returns, for ``remove(_:)``.
    struct Token: Sendable, Hashable {
        fileprivate let id: UInt64
    }

    private struct Entry {
        let deadline: DispatchTime
        let expire: @Sendable () -> Void
    }

    private struct State {
        var entries: [UInt64: Entry] = [:]
        var nextID: UInt64 = 0
        var armedAt: DispatchTime?
    }

    private let state = Locked(State())
    /// Created once and never cancelled; `schedule` is safe from any thread.
    private let timer: any DispatchSourceTimer

    init() {
        timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "org.desktopnotifications.answer-deadlines"))
        timer.setEventHandler { [unowned self] in expireDue() }
        timer.resume()
    }

    /// Calls `expire` after `interval` unless ``remove(_:)`` comes first. `expire` runs on a
    /// private queue and must be quick.
    func add(after interval: Duration, expire: @escaping @Sendable () -> Void) -> Token {
        let deadline = DispatchTime.now() + interval.dispatchInterval
        return state.withLock { state in
            state.nextID += 1
            state.entries[state.nextID] = Entry(deadline: deadline, expire: expire)
            if state.armedAt.map({ deadline < $0 }) ?? true {
                state.armedAt = deadline
                timer.schedule(deadline: deadline)
            }
            return Token(id: state.nextID)
        }
    }

    /// Runs `work` on the main actor and hands its answer to `answered`, on the main actor
    /// where it was given, with no hop; or calls `expired` on the timer's queue when the answer
    /// has not come within `interval`. One of the two runs, once; `expired` must be quick. The
    /// work goes on after the deadline (nothing can stop the app's code), but nobody waits for
    /// it any more.
    func ask<Value: Sendable>(
        within interval: Duration, _ work: @escaping @MainActor @Sendable () async -> Value,
        answered: @escaping @MainActor @Sendable (Value) -> Void, expired: @escaping @Sendable () -> Void
    ) {
        let settled = OnceFlag()
        let token = add(after: interval) { if settled.take() { expired() } }
        Task { @MainActor in
            let value = await work()
            self.remove(token)
            if settled.take() { answered(value) }
        }
    }

    /// Forgets a deadline whose answer came; nothing happens for one that already expired.
    func remove(_ token: Token) {
        state.withLock { _ = $0.entries.removeValue(forKey: token.id) }
    }

    /// How many deadlines are waiting (for tests).
    var count: Int {
        state.withLock { $0.entries.count }
    }

    private func expireDue() {
        let now = DispatchTime.now()
        let due: [Entry] = state.withLock { state in
            var due: [Entry] = []
            var earliest: DispatchTime?
            for (id, entry) in state.entries {
                if entry.deadline <= now {
                    due.append(entry)
                    state.entries.removeValue(forKey: id)
                } else if earliest.map({ entry.deadline < $0 }) ?? true {
                    earliest = entry.deadline
                }
            }
            state.armedAt = earliest
            if let earliest { timer.schedule(deadline: earliest) }
            return due
        }
        for entry in due { entry.expire() }
    }
}

/// Lets exactly one of several threads through, once.
final class OnceFlag: Sendable {
    private let taken = Atomic(false)

    /// `true` the first time only.
    func take() -> Bool {
        !taken.exchange(true, ordering: .acquiringAndReleasing)
    }
}

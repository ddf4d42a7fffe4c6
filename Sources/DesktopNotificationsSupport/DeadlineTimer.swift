import Dispatch

/// Many deadlines served by one dispatch timer: the calls of a D-Bus connection, the answers
/// awaited from an app's delegate.
///
/// A timer (or a sleeping task) per deadline costs, for every entry, a registration with
/// libdispatch's manager thread, a cancellation and thread wake-ups. Here one timer rings at
/// the earliest deadline (``DeadlineSet`` decides when it moves); an entry removed in time
/// costs a dictionary removal, and with nothing waiting the timer never rings.
///
/// `expire` runs on `queue` with the payloads that are due, in deadline order, outside the
/// timer's lock, so it may add or remove entries.
public final class DeadlineTimer<Key: Hashable & Sendable, Payload>: @unchecked Sendable {
    // @unchecked: the set is behind `state`'s lock; the dispatch timer is created once in init
    // and `schedule`/`cancel` are safe from any thread (corelibs-libdispatch does not mark its
    // sources Sendable). Payloads cross to `queue` only through `expire`.
    // Inlinable (the calls and answers of other modules use it, and a generic body that is not
    // inlined runs unspecialized): the two fields are reachable from there.
    @usableFromInline let state = Locked(DeadlineSet<Key, Payload>())
    @usableFromInline let timer: any DispatchSourceTimer

    /// A timer that calls `expire` on `queue`.
    package init(queue: DispatchQueue, expire: @escaping ([Payload]) -> Void) {
        timer = DispatchSource.makeTimerSource(queue: queue)
        let state = state
        let timer = timer
        timer.setEventHandler {
            let due: [Payload] = state.withLock { set in
                let (due, next) = set.takeDue(at: .now())
                if let next { timer.schedule(deadline: next) }
                return due
            }
            if !due.isEmpty { expire(due) }
        }
        timer.resume()
    }

    deinit {
        timer.cancel()
    }

    /// Waits `payload` under `key` until `deadline`, unless ``remove(_:)`` comes first.
    @inlinable
    package func add(_ payload: Payload, for key: Key, at deadline: DispatchTime) {
        state.withLock { set in
            if let armAt = set.insert(payload, for: key, at: deadline) { timer.schedule(deadline: armAt) }
        }
    }

    /// Waits `payload` under `key` for `interval` from now.
    @inlinable
    package func add(_ payload: Payload, for key: Key, after interval: Duration) {
        add(payload, for: key, at: .now() + interval.dispatchInterval)
    }

    /// Forgets the entry of `key` (its answer came in time); `nil` when it is not waiting.
    @inlinable
    @discardableResult
    package func remove(_ key: Key) -> Payload? {
        state.withLock { $0.remove(key) }
    }

    /// Forgets every entry and returns their payloads, soonest first.
    @inlinable
    package func removeAll() -> [Payload] {
        state.withLock { $0.removeAll() }
    }

    /// Whether an entry of `key` waits.
    @inlinable
    package func contains(_ key: Key) -> Bool {
        state.withLock { $0[key] != nil }
    }

    /// How many entries wait.
    @inlinable
    package var count: Int {
        state.withLock { $0.count }
    }
}

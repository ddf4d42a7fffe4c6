import DesktopNotificationsSupport

/// The order in which an ``AgentEngine``'s calls leave for the agent: call order.
///
/// A call leaves at once, on the caller's thread, when nothing before it waits. An `Add` whose
/// presentation options the delegate gives first (``reserve()``) holds its place: the calls
/// made after it wait until it is filled (``fill(_:with:)``), and then leave in order, so the
/// agent still takes an app's calls in the order the app made them.
final class AgentOutbox: Sendable {
    /// A place in the order, taken by ``reserve()``.
    struct Place: Sendable {
        fileprivate let number: UInt64
    }

    private struct State {
        /// The number of the next place given.
        var next: UInt64 = 0
        /// The number of the next place to leave.
        var head: UInt64 = 0
        /// The filled places that wait for one before them.
        var ready: [UInt64: @Sendable () -> Void] = [:]
        /// A thread is sending the ready places in order.
        var sending = false
    }

    private let state = Locked(State())

    /// Sends with `send` in call order: at once, on this thread, when no place before it waits.
    func enqueue(_ send: @escaping @Sendable () -> Void) {
        fill(reserve(), with: send)
    }

    /// Takes the next place in the order, to be filled later.
    func reserve() -> Place {
        state.withLock { state in
            defer { state.next += 1 }
            return Place(number: state.next)
        }
    }

    /// Whether `place` is the last one given: no call has taken a place after it, so what is
    /// packed into it still leaves in call order.
    func isNewest(_ place: Place) -> Bool {
        state.withLock { $0.next == place.number + 1 }
    }

    /// Fills `place` with its send; it leaves once every place before it has left, followed
    /// by the filled places after it.
    func fill(_ place: Place, with send: @escaping @Sendable () -> Void) {
        let sends = state.withLock { state in
            state.ready[place.number] = send
            guard !state.sending else { return false }
            state.sending = true
            return true
        }
        if sends { sendReady() }
    }

    /// Sends the ready places from the head, one after the other, outside the lock (a send may
    /// call back into the outbox); stops at the first place not filled yet.
    private func sendReady() {
        while let send = state.withLock({ state -> (@Sendable () -> Void)? in
            guard let send = state.ready.removeValue(forKey: state.head) else {
                state.sending = false
                return nil
            }
            state.head += 1
            return send
        }) {
            send()
        }
    }
}

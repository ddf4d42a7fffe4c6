import DesktopNotificationsSupport

/// What a caller of the engine waits for: a value given once (``resolve(_:)``), and, until
/// then, wake-ups telling it that an input concerning it reached the inbox (``wake()``), so
/// that it drains the inbox itself rather than waiting for another task to.
final class EngineAnswer<Value: Sendable>: Sendable {
    private struct State {
        var value: Value?
        var wakePending = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Locked(State())
    /// Called with the value as it is given, on the thread that gives it, before the caller
    /// is woken.
    private let onResolve: (@Sendable (Value) -> Void)?

    /// Creates an answer; `onResolve` is told the value as it is given, before the caller wakes.
    init(onResolve: (@Sendable (Value) -> Void)? = nil) {
        self.onResolve = onResolve
    }

    /// The value, once given.
    var value: Value? { state.withLock { $0.value } }

    /// Whether the caller waits in ``nextWake()`` now.
    var isWaiting: Bool { state.withLock { $0.waiter != nil } }

    /// Gives the value (later calls are ignored) and wakes the caller.
    func resolve(_ value: Value) {
        let (first, waiter) = state.withLock { state -> (Bool, CheckedContinuation<Void, Never>?) in
            guard state.value == nil else { return (false, nil) }
            state.value = value
            return (true, takeWaiter(&state))
        }
        if first { onResolve?(value) }
        waiter?.resume()
    }

    /// Wakes the caller (at once if it waits, else at its next ``nextWake()``); returns whether
    /// it was waiting in ``nextWake()``, and so drains after this: one that was not may be in
    /// its last drain already, or gone.
    func wake() -> Bool {
        guard let waiter = state.withLock({ takeWaiter(&$0) }) else { return false }
        waiter.resume()
        return true
    }

    /// Returns at the next ``wake()`` or ``resolve(_:)``, or at once when one came since the
    /// last return.
    func nextWake() async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Bool in
                if state.wakePending || state.value != nil {
                    state.wakePending = false
                    return true
                }
                state.waiter = continuation
                return false
            }
            if now { continuation.resume() }
        }
    }

    private func takeWaiter(_ state: inout State) -> CheckedContinuation<Void, Never>? {
        guard let waiter = state.waiter else {
            state.wakePending = true
            return nil
        }
        state.waiter = nil
        return waiter
    }
}

import DBus

/// Runs the center's operations one after another, in the order they were called, so that
/// `removePendingNotificationRequests` followed by `pendingNotificationRequests` sees the
/// removal, as on Apple platforms.
///
/// Each call takes a ticket at once, on the caller's thread, and runs when every earlier
/// ticket is done. A call whose turn has come runs on the caller's own task, with no hop
/// through a queue. Operations are short: network round trips happen outside the lane.
final class OperationLane: Sendable {
    private struct State {
        var nextTicket: UInt64 = 0
        var turn: UInt64 = 0
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
    }

    private let state = Locked(State())

    private func takeTicket() -> UInt64 {
        state.withLock { state in
            defer { state.nextTicket += 1 }
            return state.nextTicket
        }
    }

    private func waitForTurn(_ ticket: UInt64) async {
        guard state.withLock({ $0.turn != ticket }) else { return }
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state in
                if state.turn == ticket { return true }
                state.waiters[ticket] = continuation
                return false
            }
            if ready { continuation.resume() }
        }
    }

    private func endTurn() {
        let next = state.withLock { state in
            state.turn += 1
            return state.waiters.removeValue(forKey: state.turn)
        }
        next?.resume()
    }

    /// Queues `operation` without waiting for it.
    func submit(_ operation: @escaping @Sendable () async -> Void) {
        let ticket = takeTicket()
        Task {
            await waitForTurn(ticket)
            await operation()
            endTurn()
        }
    }

    /// Runs `operation` in its turn and returns its result.
    func perform<Value: Sendable>(_ operation: @Sendable () async -> Value) async -> Value {
        let ticket = takeTicket()
        await waitForTurn(ticket)
        let value = await operation()
        endTurn()
        return value
    }

    /// Runs a throwing `operation` in its turn.
    func performThrowing<Value: Sendable>(_ operation: @Sendable () async throws -> Value) async throws -> Value {
        let ticket = takeTicket()
        await waitForTurn(ticket)
        defer { endTurn() }
        return try await operation()
    }
}

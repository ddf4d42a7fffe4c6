/// Runs the center's operations one after another, in the order they were called, so that
/// `removePendingNotificationRequests` followed by `pendingNotificationRequests` sees the
/// removal, as on Apple platforms. Each operation is short: network round trips happen
/// outside the lane.
final class OperationLane: Sendable {
    typealias Operation = @Sendable () async -> Void
    private let continuation: AsyncStream<Operation>.Continuation

    init() {
        let (operations, continuation) = AsyncStream.makeStream(of: Operation.self)
        self.continuation = continuation
        Task {
            for await operation in operations { await operation() }
        }
    }

    deinit {
        continuation.finish()
    }

    /// Queues `operation` without waiting.
    func submit(_ operation: @escaping Operation) {
        continuation.yield(operation)
    }

    /// Queues `operation` and waits for its result.
    func perform<Value: Sendable>(_ operation: @escaping @Sendable () async -> Value) async -> Value {
        await withCheckedContinuation { continuation in
            submit { continuation.resume(returning: await operation()) }
        }
    }

    /// Queues a throwing `operation` and waits for its outcome.
    func performThrowing<Value: Sendable>(_ operation: @escaping @Sendable () async throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            submit {
                do {
                    continuation.resume(returning: try await operation())
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }
}

import DesktopNotificationsSupport
import Foundation

/// The responses waiting for the delegate, told one at a time, in order, on the main actor.
///
/// Bounded: past ``limit`` a response is dropped and logged (the delegate is then far behind:
/// each one may take up to the response deadline).
final class ResponseQueue: Sendable {
    /// Responses waiting for the delegate at the most.
    static let limit = 1024

    private let continuation: AsyncStream<UNNotificationResponse>.Continuation
    private let dropped = Locked(0)

    /// Starts the consumer: `tell` gets each response on the main actor, the next one only
    /// when it has returned.
    init(tell: @escaping @MainActor @Sendable (UNNotificationResponse) async -> Void) {
        let (stream, continuation) = AsyncStream.makeStream(
            of: UNNotificationResponse.self, bufferingPolicy: .bufferingOldest(Self.limit))
        self.continuation = continuation
        Task { @MainActor in
            for await response in stream { await tell(response) }
        }
    }

    deinit {
        continuation.finish()
    }

    /// How many responses the full queue dropped (each is also logged).
    var droppedCount: Int { dropped.withLock { $0 } }

    func enqueue(_ response: UNNotificationResponse) {
        guard case .dropped = continuation.yield(response) else { return }
        dropped.withLock { $0 += 1 }
        CenterLog.logger.error(
            "response queue full; response dropped",
            metadata: ["identifier": "\(response.notification.request.identifier)", "action": "\(response.actionIdentifier)"])
    }
}

import DBus
import Foundation

/// The responses waiting for the delegate, told one at a time, in order, on the main actor.
///
/// A burst of responses gets one task on the main actor, which tells them one after the other
/// and ends when none is left: a response goes from the engine straight to the main actor,
/// with no stop on the global pool on the way (as iterating an `AsyncStream` there makes).
///
/// Bounded: past ``limit`` waiting responses a new one is dropped and logged (the delegate is
/// then far behind: each one may take up to the response deadline).
final class ResponseQueue: Sendable {
    /// Responses waiting for the delegate at the most.
    static let limit = 1024

    private struct State {
        var waiting: [UNNotificationResponse] = []
        /// Where the next response to tell is in `waiting` (the told ones before it are
        /// removed in batches).
        var next = 0
        /// A task on the main actor is telling responses.
        var telling = false
        var dropped = 0

        var waitingCount: Int { waiting.count - next }

        /// The next response to tell, or `nil` (and the teller stops) when there is none.
        mutating func take() -> UNNotificationResponse? {
            guard next < waiting.count else {
                waiting.removeAll(keepingCapacity: true)
                next = 0
                telling = false
                return nil
            }
            let response = waiting[next]
            next += 1
            if next >= 64, next * 2 >= waiting.count {
                waiting.removeFirst(next)
                next = 0
            }
            return response
        }
    }

    private let tell: @MainActor @Sendable (UNNotificationResponse) async -> Void
    private let state = Locked(State())

    /// `tell` gets each response on the main actor, the next one only when it has returned.
    init(tell: @escaping @MainActor @Sendable (UNNotificationResponse) async -> Void) {
        self.tell = tell
    }

    /// How many responses the full queue dropped (each is also logged).
    var droppedCount: Int { state.withLock { $0.dropped } }

    func enqueue(_ response: UNNotificationResponse) {
        enum Outcome { case queued, startTelling, dropped }
        let outcome: Outcome = state.withLock { state in
            guard state.waitingCount < Self.limit else {
                state.dropped += 1
                return .dropped
            }
            state.waiting.append(response)
            guard !state.telling else { return .queued }
            state.telling = true
            return .startTelling
        }
        switch outcome {
        case .queued:
            break
        case .startTelling:
            Task { @MainActor in await self.tellWaiting() }
        case .dropped:
            CenterLog.logger.error(
                "response queue full; response dropped",
                metadata: ["identifier": "\(response.notification.request.identifier)", "action": "\(response.actionIdentifier)"])
        }
    }

    @MainActor
    private func tellWaiting() async {
        while let response = state.withLock({ $0.take() }) { await tell(response) }
    }
}

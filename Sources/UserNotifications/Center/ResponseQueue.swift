import DesktopNotificationsSupport
import Foundation

/// The responses waiting for the delegate, told one at a time, in order, on the main actor.
///
/// A burst of responses gets one task on the main actor, which tells them one after the other
/// and ends when none is left; the next response is told from where the delegate finished
/// with the last one, on the main actor: a response goes from the engine straight to the main
/// actor, with no stop on the global pool on the way (as iterating an `AsyncStream`, or waiting
/// for the delegate through a continuation, makes).
///
/// Responses wait until the first delegate is set (``delegateSet()``): the responses a center
/// takes from the agent at start may come before the app sets its delegate.
///
/// Bounded: past ``limit`` waiting responses a new one is dropped (the delegate is then far
/// behind: each one may take up to the response deadline, or none was ever set). The drops are
/// logged without flooding the log, since a server can invoke actions as fast as it likes: the
/// first of a spell with its notification, every ``dropReportInterval``th with the count so
/// far, and the count once the queue has room again.
final class ResponseQueue: Sendable {
    /// Responses waiting for the delegate at the most.
    static let limit = 1024
    /// In a spell of drops, one in this many is logged with the count so far.
    static let dropReportInterval = 1000

    /// One response's turn: whether `tell` has returned, and whether it is done.
    @MainActor
    private final class Turn {
        var hasReturned = false
        var isDone = false
    }

    private struct State {
        var waiting: [UNNotificationResponse] = []
        /// Where the next response to tell is in `waiting` (the told ones before it are
        /// removed in batches).
        var next = 0
        /// A task on the main actor is telling responses.
        var telling = false
        var dropped = 0
        /// Dropped since the queue was last below its bound.
        var droppedInSpell = 0
        /// A delegate has been set: responses are told.
        var delegateSeen = false

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

    /// Tells one response on the main actor and calls its second argument, on the main actor,
    /// when the next one may be told.
    typealias Teller = @MainActor @Sendable (UNNotificationResponse, _ done: @escaping @MainActor @Sendable () -> Void) -> Void

    private let tell: Teller
    private let log: SubsystemLog
    private let state = Locked(State())

    /// `tell` gets each response on the main actor, the next one only when it has called `done`;
    /// drops are logged to `log`.
    init(log: SubsystemLog = .center, tell: @escaping Teller) {
        self.log = log
        self.tell = tell
    }

    /// How many responses the full queue dropped.
    var droppedCount: Int { state.withLock { $0.dropped } }

    func enqueue(_ response: UNNotificationResponse) {
        enum Outcome { case queued(startTelling: Bool, droppedBefore: Int), dropped(inSpell: Int) }
        let outcome: Outcome = state.withLock { state in
            guard state.waitingCount < Self.limit else {
                state.dropped += 1
                state.droppedInSpell += 1
                return .dropped(inSpell: state.droppedInSpell)
            }
            let droppedBefore = state.droppedInSpell
            state.droppedInSpell = 0
            state.waiting.append(response)
            guard !state.telling, state.delegateSeen else { return .queued(startTelling: false, droppedBefore: droppedBefore) }
            state.telling = true
            return .queued(startTelling: true, droppedBefore: droppedBefore)
        }
        switch outcome {
        case .queued(let startTelling, let droppedBefore):
            if droppedBefore > 0 {
                log.logger.warning("the response queue has room again", metadata: ["dropped": "\(droppedBefore)"])
            }
            if startTelling { Task { @MainActor in self.tellWaiting() } }
        case .dropped(let inSpell) where inSpell == 1:
            log.logger.error(
                "response queue full; response dropped; further drops are counted until it has room",
                metadata: ["identifier": "\(response.notification.request.identifier)", "action": "\(response.actionIdentifier)"])
        case .dropped(let inSpell) where inSpell.isMultiple(of: Self.dropReportInterval):
            log.logger.error("response queue still full", metadata: ["dropped": "\(inSpell)"])
        case .dropped:
            break
        }
    }

    /// The first delegate is set: the responses waiting for it are told.
    func delegateSet() {
        let starts = state.withLock { state in
            guard !state.delegateSeen else { return false }
            state.delegateSeen = true
            guard !state.telling, state.waitingCount > 0 else { return false }
            state.telling = true
            return true
        }
        if starts { Task { @MainActor in self.tellWaiting() } }
    }

    /// Tells the waiting responses in order: the next one once `tell` is done with the last,
    /// at once when it was done before it returned.
    @MainActor
    private func tellWaiting() {
        while let response = state.withLock({ $0.take() }) {
            let turn = Turn()
            tell(response) { [self] in
                turn.isDone = true
                if turn.hasReturned { tellWaiting() }
            }
            turn.hasReturned = true
            guard turn.isDone else { return }
        }
    }
}

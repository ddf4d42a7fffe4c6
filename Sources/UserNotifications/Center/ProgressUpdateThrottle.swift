import DesktopNotificationsSupport
import Foundation

/// Holds back updates that change nothing but a notification's progress (a Linux addition,
/// ``UNNotificationContent/progress``), so that a loop posting the progress of a task as fast
/// as it runs does not flood the notification server: per identifier, at most one such update
/// every ``interval`` (100 ms in a center). The last one held is always posted, at the end of
/// the interval.
///
/// An update is held when it has no trigger, carries a progress, and its content equals the
/// one posted last under its identifier but for the progress. Anything else is posted at once
/// and drops a held update of its identifier (it replaces it, as a later request always
/// does); so does removing the identifier.
final class ProgressUpdateThrottle: Sendable {
    /// The shortest time between two updates of one identifier that change only its progress.
    let interval: Duration
    /// Identifiers whose last post is older than this are forgotten at the next admission.
    private static let memory: Duration = .seconds(2)

    /// What ``admit(_:)`` decided.
    enum Decision: Equatable {
        /// Post the request now.
        case now
        /// The request is held; post what ``takeHeld(_:)`` returns after `delay`. `nil`:
        /// a post of this identifier is already planned, which will take this one.
        case held(delay: Duration?)
    }

    private struct Entry {
        var posted: ContinuousClock.Instant
        var content: NotificationContentFields
        var held: UNNotificationRequest?
    }

    private let clock = ContinuousClock()
    private struct State {
        /// The identifiers whose last post carried a progress; no other is ever held.
        var entries: [String: Entry] = [:]
        /// The count of entries past which the old ones are dropped; doubled when few are
        /// old, so that a burst of progress identifiers costs no scan per add.
        var pruneAt = 64
    }

    private let state = Locked(State())

    init(interval: Duration = .milliseconds(100)) {
        self.interval = interval
    }

    /// Decides whether `request` is posted now or held.
    func admit(_ request: UNNotificationRequest) -> Decision {
        let identifier = request.identifier
        guard request.trigger == nil, request.content.progress != nil else {
            // Most requests: nothing to remember, and one of this identifier is replaced.
            state.withLock { state in
                if !state.entries.isEmpty { state.entries[identifier] = nil }
            }
            return .now
        }
        let now = clock.now
        let fields = request.content.fields
        return state.withLock { state in
            if state.entries.count > state.pruneAt {
                state.entries = state.entries.filter { now - $0.value.posted < max(Self.memory, interval) }
                state.pruneAt = max(64, state.entries.count * 2)
            }
            guard var entry = state.entries[identifier], Self.sameButProgress(entry.content, fields), now - entry.posted < interval else {
                state.entries[identifier] = Entry(posted: now, content: fields, held: nil)
                return .now
            }
            let planned = entry.held != nil
            entry.held = request
            state.entries[identifier] = entry
            return .held(delay: planned ? nil : entry.posted + interval - now)
        }
    }

    /// The request held for `identifier`, now to be posted (its post counts from now).
    func takeHeld(_ identifier: String) -> UNNotificationRequest? {
        let now = clock.now
        return state.withLock { state in
            guard var entry = state.entries[identifier], let held = entry.held else { return nil }
            entry.held = nil
            entry.posted = now
            entry.content = held.content.fields
            state.entries[identifier] = entry
            return held
        }
    }

    /// Forgets `identifiers` (every identifier for `nil`), with what they held.
    func forget(_ identifiers: [String]?) {
        state.withLock { state in
            guard let identifiers else { return state.entries.removeAll() }
            for identifier in identifiers { state.entries[identifier] = nil }
        }
    }

    private static func sameButProgress(_ lhs: NotificationContentFields, _ rhs: NotificationContentFields) -> Bool {
        var lhs = lhs
        lhs.progress = rhs.progress
        return lhs == rhs
    }
}

import DesktopNotificationsSupport
import Foundation
import FreedesktopNotifications
import Logging

// A state file is outside input: another process of the app, an older version, or anyone who
// can write the user's files may have put values in it that `add` would have refused. An
// entry that cannot be honoured is left out when the file is read, and logged, so that one bad
// entry neither stops the center (or the agent) nor is scheduled.
extension EngineState {
    /// The farthest a saved date may lie from 2001-01-01, either way: 10^13 seconds, about
    /// 317,000 years. Every date within it converts to a `Duration`, a `timespec` and whole
    /// seconds without overflow; triggers never make one beyond it (a time-interval trigger
    /// reaches at most 100 years past its anchor, a calendar trigger the year 100,000).
    static let farthestDate: TimeInterval = 1e13

    /// This state without the pending requests and delivered notifications that cannot be
    /// honoured (``Pending/problem``, ``Delivered/problem``), each one logged to `logger`.
    func leavingOutWhatCannotBeHonoured(logger: Logger = SubsystemLog.center.logger) -> EngineState {
        var kept = self
        kept.pending = pending.filter { entry in
            guard let problem = entry.problem else { return true }
            Self.logLeftOut("a saved pending request cannot be honoured; it was skipped", entry.request.identifier, problem, to: logger)
            return false
        }
        kept.delivered = delivered.filter { entry in
            guard let problem = entry.problem else { return true }
            Self.logLeftOut(
                "a saved delivered notification cannot be honoured; it was skipped", entry.notification.request.identifier, problem, to: logger)
            return false
        }
        return kept
    }

    private static func logLeftOut(_ message: Logger.Message, _ identifier: String, _ problem: String, to logger: Logger) {
        logger.error(message, metadata: ["identifier": "\(TerminalText.singleLine(identifier))", "reason": "\(TerminalText.singleLine(problem))"])
    }

    /// Why `date` (named `name`) cannot be honoured, or `nil`: it is not finite, or lies
    /// beyond ``farthestDate``.
    static func problem(with date: Date, named name: String) -> String? {
        let seconds = date.timeIntervalSinceReferenceDate
        guard seconds.isFinite, abs(seconds) <= farthestDate else { return "\(name) \(seconds) is out of range" }
        return nil
    }
}

extension EngineState.Pending {
    /// Why this saved request cannot be honoured, or `nil`: a date out of range
    /// (``EngineState/problem(with:named:)``), or a trigger that `add` refuses (an interval
    /// not finite, not positive, over 100 years, or under 60 seconds repeating; a location
    /// that is not valid) or whose calendar components are out of range.
    var problem: String? {
        if let problem = EngineState.problem(with: anchor, named: "anchor") ?? EngineState.problem(with: nextFire, named: "nextFire") {
            return problem
        }
        guard let snapshot = request.trigger else { return nil }
        if case .timeInterval(_, _, let anchorDate?) = snapshot, let problem = EngineState.problem(with: anchorDate, named: "anchorDate") {
            return problem
        }
        let trigger = snapshot.makeTrigger()
        do {
            try trigger.validate()
        } catch {
            return error.localizedDescription
        }
        if let calendar = trigger as? UNCalendarNotificationTrigger, !calendar.hasComponentsInRange {
            return "a calendar component is out of range: \(calendar.dateComponents)"
        }
        return nil
    }
}

extension EngineState.Delivered {
    /// Why this saved notification cannot be honoured, or `nil`: its date is out of range.
    var problem: String? {
        EngineState.problem(with: notification.date, named: "date")
    }
}

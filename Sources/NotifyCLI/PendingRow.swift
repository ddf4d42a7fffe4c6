import Foundation
import FreedesktopNotifications

/// One line of `notify pending`: a notify process waiting to show a notification, or a
/// request of notify's that the agent holds.
struct PendingRow: Sendable {
    /// The id `notify cancel` takes.
    let id: String
    /// The next delivery.
    let next: Date
    /// How often it repeats (`--every`'s text), `nil` for once.
    let every: String?
    /// The waiting process; `nil` for the agent.
    let pid: Int32?
    let summary: String
    let appName: String
    /// `--id`'s name, for a waiting process.
    let identifier: String?
    /// When the waiting process started; `nil` for the agent.
    let created: Date?

    init(record: ScheduledRecord, next: Date) {
        (id, self.next, every, pid) = (record.id, next, record.schedule.every, record.pid)
        (summary, appName, identifier, created) = (record.summary, record.appName, record.identifier, record.created)
    }

    init(agent entry: AgentScheduled.Entry, next: Date) {
        (id, self.next, every, pid) = (entry.identifier, next, entry.schedule.every, nil)
        (summary, appName, identifier, created) = (entry.summary, entry.appID, nil, nil)
    }

    /// The tab-separated line: the PID column says `agent` for the agent.
    var line: String {
        let waiter = pid.map(String.init) ?? "agent"
        return "\(TerminalText.singleLine(id))\t\(NotifyCommand.Pending.localTime(next))\t\(every ?? "-")\t\(waiter)\t\(TerminalText.singleLine(summary))\n"
    }

    /// The JSON object: `heldBy` is `process` or `agent`.
    var object: [String: Any] {
        [
            "id": id, "pid": pid.map { Int($0) as Any } ?? NSNull(), "summary": summary, "appName": appName,
            "identifier": identifier as Any? ?? NSNull(), "every": every as Any? ?? NSNull(),
            "nextFire": NotifyCommand.Pending.iso8601(next), "created": created.map { NotifyCommand.Pending.iso8601($0) as Any } ?? NSNull(),
            "heldBy": pid == nil ? "agent" : "process",
        ]
    }
}

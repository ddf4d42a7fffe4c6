import DBus

// Delivered notifications and responses as the agent's interface carries them:
//
// notification: date d (seconds since 2001-01-01 UTC, required), request a{sv} (required)
// response:     notification a{sv} (required), actionIdentifier s (required), userText s
//               (makes it a text-input response), activationToken s

extension NotificationSnapshot {
    static let recordKeys: Set<String> = ["date", "request"]

    var record: AgentRecordWriter {
        var record = AgentRecordWriter()
        record.set("date", date: date)
        record.set("request", record: request.record)
        return record
    }

    init(record: AgentRecordReader) throws(NotificationAgentError) {
        guard let date = try record.date("date") else { throw .invalidArgument("\(record.path) lacks the field date") }
        guard let request = try record.record("request", keys: NotificationRequestSnapshot.recordKeys) else {
            throw .invalidArgument("\(record.path) lacks the field request")
        }
        self.date = date
        self.request = try NotificationRequestSnapshot(record: request)
    }
}

extension NotificationResponseSnapshot {
    static let recordKeys: Set<String> = ["notification", "actionIdentifier", "userText", "activationToken"]

    var record: AgentRecordWriter {
        var record = AgentRecordWriter()
        record.set("notification", record: notification.record)
        record.set("actionIdentifier", actionIdentifier)
        record.set("userText", userText)
        record.set("activationToken", activationToken)
        return record
    }

    init(record: AgentRecordReader) throws(NotificationAgentError) {
        guard let notification = try record.record("notification", keys: NotificationSnapshot.recordKeys) else {
            throw .invalidArgument("\(record.path) lacks the field notification")
        }
        self.notification = try NotificationSnapshot(record: notification)
        actionIdentifier = try record.required("actionIdentifier")
        userText = try record.optional("userText")
        activationToken = try record.optional("activationToken")
    }
}

import DBus
import Foundation

/// The agent's arguments and answers: requests, contents, notifications, categories and
/// responses as `a{sv}` records of typed fields (`Engine/Agent/Records`), read and written
/// field by field from the state file's snapshot types, with no JSON on the way.
///
/// Reading is bounded: a record over ``AgentInterface/maximumArgumentBytes`` is refused, and
/// anything that is not the record asked for (a field it does not have, one of another type, a
/// required one missing) is ``NotificationAgentError/invalidArgument(_:)`` naming the field;
/// nothing a peer sends can trap. A request whose trigger cannot be honoured (an interval
/// that `add` refuses, such as `1e300` seconds, or calendar components out of range) is
/// refused the same way when read, and is not sent when written: alone (`Add`, each request
/// of `AddRequests`) or in a list (`PendingRequests`), which is then refused whole, as it is
/// for any other record of it that does not read.
package enum AgentPayload {
    // MARK: - Requests and notifications

    /// Whether `request` is shown at once when added (no trigger, or a push trigger), so that
    /// its presentation options can travel with it (`AddPresented`).
    package static func deliversAtOnce(_ request: UNNotificationRequest) -> Bool {
        request.trigger == nil || request.trigger is UNPushNotificationTrigger
    }

    /// The record of one request (`a{sv}`, see `NotificationRequestSnapshot+Record.swift`).
    ///
    /// - Throws: for a trigger that cannot be honoured, what `add` throws in process:
    ///   ``NotificationTriggerError``, or ``UNError`` `notificationInvalidNoDate` for calendar
    ///   components out of range; ``UserInfoStorageError`` for user info that cannot travel;
    ///   ``NotificationAgentError/invalidArgument(_:)`` for a record over the argument limit.
    package static func encode(_ request: UNNotificationRequest) throws -> Record {
        try measuredRecord(of: request).record
    }

    /// The record of one request and its size (``size(of:)``), measured once for the bound
    /// and for the caller's own (the packer's batch bytes).
    ///
    /// - Throws: as `encode(_:)` of one request.
    package static func measuredRecord(of request: UNNotificationRequest) throws -> (record: Record, bytes: Int) {
        let record = try writableRecord(of: request)
        let bytes = size(of: record)
        try checkSize(bytes)
        return (record, bytes)
    }

    /// The request in `record`.
    ///
    /// - Throws: ``NotificationAgentError/invalidArgument(_:)`` for a record that is not a
    ///   request, one over the argument limit, or a request whose trigger cannot be honoured
    ///   (``checkTrigger(of:named:)``).
    package static func request(from record: Record) throws(NotificationAgentError) -> UNNotificationRequest {
        try request(from: record, bytes: size(of: record))
    }

    /// The request in `record`, whose size the caller measured already (``size(of:)``): the
    /// agent bounds each request and each batch by it, and measures each record once.
    ///
    /// - Throws: as ``request(from:)``.
    package static func request(from record: Record, bytes: Int) throws(NotificationAgentError) -> UNNotificationRequest {
        try checkSize(bytes)
        let fields = try AgentRecordReader(record, path: "request", keys: NotificationRequestSnapshot.recordKeys)
        let request = try NotificationRequestSnapshot(record: fields).makeRequest()
        try checkTrigger(of: request)
        return request
    }

    /// Refuses a request whose trigger cannot be honoured: one that `add` refuses
    /// (``NotificationTriggerError``: an interval not finite, not positive, over
    /// ``NotificationTriggerError/maximumTimeInterval``, or under 60 seconds repeating; a
    /// location that is not valid), or a calendar trigger with a component out of range.
    /// `name` says which trigger (a list's: `requests[2].trigger`).
    static func checkTrigger(of request: UNNotificationRequest, named name: String = "the request's trigger") throws(NotificationAgentError) {
        guard let trigger = request.trigger else { return }
        do {
            try trigger.validate()
        } catch {
            throw .invalidArgument("\(name) cannot be honoured: \(error.localizedDescription)")
        }
        if let calendar = trigger as? UNCalendarNotificationTrigger, !calendar.hasComponentsInRange {
            throw .invalidArgument("\(name) cannot be honoured: a calendar component is out of range")
        }
    }

    /// The record of `request`, not yet bounded, once its trigger is known to be honoured and
    /// its user info to travel.
    ///
    /// - Throws: as `encode(_:)` of one request, but for the argument limit.
    private static func writableRecord(of request: UNNotificationRequest) throws -> Record {
        try request.trigger?.validate()
        if let calendar = request.trigger as? UNCalendarNotificationTrigger, !calendar.hasComponentsInRange {
            throw UNError(.notificationInvalidNoDate, description: "a calendar component is out of range: \(calendar.dateComponents)")
        }
        return try travelling(NotificationRequestSnapshot(request)) { $0.content }.record.fields
    }

    /// The field of `content` that names a bundle by its path for a text looked up at
    /// delivery (`content.localizations.title.bundlePath`), or `nil` when none does. Reading a
    /// record opens no such path (the bundle is opened when the text is looked up); the agent
    /// refuses one from a sandboxed app before anything opens it, as it refuses a sound or an
    /// attachment by path.
    package static func bundlePathField(in content: UNNotificationContent) -> String? {
        let localizations = content.fields.localizations
        let texts = [("title", localizations.title), ("subtitle", localizations.subtitle), ("body", localizations.body)]
        return texts.first { $0.1?.storedBundlePath != nil }.map { "content.localizations.\($0.0).bundlePath" }
    }

    /// The records of a list of requests (`PendingRequests`).
    ///
    /// - Throws: as `encode(_:)` of one request, for any request of the list, or for the
    ///   list over the argument limit all together.
    package static func encode(_ requests: [UNNotificationRequest]) throws -> [Record] {
        try bounded(try requests.map(writableRecord(of:)))
    }

    /// The requests in `records`.
    ///
    /// - Throws: ``NotificationAgentError/invalidArgument(_:)`` for a list over the argument
    ///   limit, or when any record of it is not a request or holds a trigger that cannot be
    ///   honoured (``checkTrigger(of:named:)``, naming it: `requests[2].trigger`).
    package static func requests(from records: [Record]) throws(NotificationAgentError) -> [UNNotificationRequest] {
        try list(records, path: "requests", keys: NotificationRequestSnapshot.recordKeys) { (fields) throws(NotificationAgentError) in
            let request = try NotificationRequestSnapshot(record: fields).makeRequest()
            try checkTrigger(of: request, named: "\(fields.path).trigger")
            return request
        }
    }

    /// The record of one request's content (a service extension's answer).
    package static func encode(_ content: UNNotificationContent) throws -> Record {
        try bounded(try travelling(NotificationContentSnapshot(content)) { $0 }.record.fields)
    }

    /// The content in `record`.
    package static func content(from record: Record) throws(NotificationAgentError) -> UNNotificationContent {
        try checkSize(size(of: record))
        return try NotificationContentSnapshot(record: AgentRecordReader(record, path: "content", keys: NotificationContentSnapshot.recordKeys))
            .makeContent()
    }

    /// The record of one delivered notification.
    package static func encode(_ notification: UNNotification) throws -> Record {
        try bounded(try travelling(NotificationSnapshot(notification)) { $0.request.content }.record.fields)
    }

    /// The notification in `record`.
    package static func notification(from record: Record) throws(NotificationAgentError) -> UNNotification {
        try checkSize(size(of: record))
        return try NotificationSnapshot(record: AgentRecordReader(record, path: "notification", keys: NotificationSnapshot.recordKeys))
            .makeNotification()
    }

    /// The records of a list of delivered notifications.
    package static func encode(_ notifications: [UNNotification]) throws -> [Record] {
        try bounded(try notifications.map { try travelling(NotificationSnapshot($0)) { $0.request.content }.record.fields })
    }

    /// The notifications in `records`.
    package static func notifications(from records: [Record]) throws(NotificationAgentError) -> [UNNotification] {
        try list(records, path: "notifications", keys: NotificationSnapshot.recordKeys) { (fields) throws(NotificationAgentError) in
            try NotificationSnapshot(record: fields).makeNotification()
        }
    }

    // MARK: - Categories and responses

    /// The records of a set of categories, one of each identifier, sorted by identifier: of
    /// several sharing an identifier, the same one whatever the set's order
    /// (``NotificationCategorySnapshot/oneOfEachIdentifier(_:)``).
    package static func encode(_ categories: Set<UNNotificationCategory>) throws -> [Record] {
        try bounded(try NotificationCategorySnapshot.oneOfEachIdentifier(categories.map(NotificationCategorySnapshot.init)).map(\.record.fields))
    }

    /// The categories in `records`, one of each identifier: of several sharing one, the one
    /// that encoding a set keeps, whatever order they are listed in.
    package static func categories(from records: [Record]) throws(NotificationAgentError) -> Set<UNNotificationCategory> {
        let read = try list(records, path: "categories", keys: NotificationCategorySnapshot.recordKeys) { (fields) throws(NotificationAgentError) in
            try NotificationCategorySnapshot(record: fields)
        }
        return Set(try NotificationCategorySnapshot.oneOfEachIdentifier(read).map { $0.makeCategory() })
    }

    /// The record of a response.
    package static func encode(_ response: UNNotificationResponse) throws -> Record {
        try bounded(try travelling(NotificationResponseSnapshot(response)) { $0.notification.request.content }.record.fields)
    }

    /// The response in `record`: a ``UNTextInputNotificationResponse`` when it carries text,
    /// with `activationToken` when `record` has none.
    package static func response(from record: Record, activationToken: String? = nil) throws(NotificationAgentError) -> UNNotificationResponse {
        try checkSize(size(of: record))
        let fields = try AgentRecordReader(record, path: "response", keys: NotificationResponseSnapshot.recordKeys)
        return try NotificationResponseSnapshot(record: fields).makeResponse(activationToken: activationToken)
    }

    // MARK: - Bounds

    /// An `a{sv}` record of the interface: the form every request, content, notification,
    /// category and response travels in.
    package typealias Record = [String: DBusValue]

    /// The bytes `record` takes on the wire, near enough to bound it
    /// (``AgentRecordWriter/size(of:)-(DBusValue)``).
    package static func size(of record: Record) -> Int {
        AgentRecordWriter.size(of: record)
    }

    // MARK: - Identifier lists

    /// The size of a list of identifiers (`RemovePendingRequests`,
    /// `RemoveDeliveredNotifications`, `AcknowledgeResponses`), as ``size(of:)`` counts a list
    /// of strings: each one's bytes and 8.
    package static func size(ofIdentifiers identifiers: [String]) -> Int {
        identifiers.reduce(0) { $0 + $1.utf8.count + 8 }
    }

    /// Refuses a list of identifiers over ``AgentInterface/maximumArgumentBytes``: the agent
    /// reads each one on the app's queue, and a list as long as a bus message allows (128 MiB)
    /// would hold it for seconds.
    ///
    /// - Throws: ``NotificationAgentError/invalidArgument(_:)`` naming the argument.
    package static func checkIdentifiers(_ identifiers: [String], named name: String) throws(NotificationAgentError) {
        let bytes = size(ofIdentifiers: identifiers)
        guard bytes <= AgentInterface.maximumArgumentBytes else {
            throw .invalidArgument("\(name) is \(bytes) bytes, over \(AgentInterface.maximumArgumentBytes)")
        }
    }

    /// `identifiers` in order, in runs that each pass ``checkIdentifiers(_:named:)``: the calls
    /// an app sends for a longer list. An identifier that alone is over the bound names no
    /// request the agent can hold (a request's record is at most 64 KiB) and is left out.
    package static func identifierRuns(_ identifiers: [String]) -> [[String]] {
        var runs: [[String]] = []
        var run: [String] = []
        var bytes = 0
        for identifier in identifiers {
            let size = identifier.utf8.count + 8
            guard size <= AgentInterface.maximumArgumentBytes else { continue }
            if bytes + size > AgentInterface.maximumArgumentBytes {
                runs.append(run)
                run = []
                bytes = 0
            }
            run.append(identifier)
            bytes += size
        }
        if !run.isEmpty || runs.isEmpty { runs.append(run) }
        return runs
    }

    /// `snapshot`, once the user info of its content (`content`) is known to travel in a
    /// record (``PropertyListValue/checkKeysTravel(_:keyPath:)``).
    static func travelling<Snapshot>(
        _ snapshot: Snapshot, _ content: (Snapshot) -> NotificationContentSnapshot
    ) throws(UserInfoStorageError) -> Snapshot {
        try PropertyListValue.checkKeysTravel(content(snapshot).userInfo)
        return snapshot
    }

    /// `record`, refused when over the argument limit.
    private static func bounded(_ record: Record) throws(NotificationAgentError) -> Record {
        try checkSize(size(of: record))
        return record
    }

    /// `records`, refused when over the argument limit all together.
    private static func bounded(_ records: [Record]) throws(NotificationAgentError) -> [Record] {
        let bytes = records.reduce(0) { $0 + size(of: $1) }
        guard bytes <= AgentInterface.maximumArgumentBytes else {
            throw .invalidArgument("the records are \(bytes) bytes, over \(AgentInterface.maximumArgumentBytes)")
        }
        return records
    }

    /// Refuses a record over the argument limit.
    private static func checkSize(_ bytes: Int) throws(NotificationAgentError) {
        guard bytes <= AgentInterface.maximumArgumentBytes else {
            throw .invalidArgument("the record is \(bytes) bytes, over \(AgentInterface.maximumArgumentBytes)")
        }
    }

    /// The values in `records`, each read by `read`, the list bounded as a whole.
    private static func list<Element>(
        _ records: [Record], path: String, keys: Set<String>, _ read: (AgentRecordReader) throws(NotificationAgentError) -> Element
    ) throws(NotificationAgentError) -> [Element] {
        _ = try bounded(records)
        var elements: [Element] = []
        elements.reserveCapacity(records.count)
        for (index, record) in records.enumerated() {
            elements.append(try read(try AgentRecordReader(record, path: "\(path)[\(index)]", keys: keys)))
        }
        return elements
    }
}

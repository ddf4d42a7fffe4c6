import Foundation

/// The JSON of the agent's arguments and answers: the snapshot types of the state file, in the
/// same encoding (keys sorted, dates as the encoder writes them), never a second one.
///
/// Decoding is bounded: a text over ``AgentInterface/maximumArgumentBytes`` is refused before
/// it is parsed, and anything that does not decode is ``NotificationAgentError/invalidArgument(_:)``;
/// nothing a peer sends can trap. A request whose trigger cannot be honoured (an interval
/// that `add` refuses, such as `1e300` seconds, or calendar components out of range) is
/// refused the same way when read, and is not sent when written.
package enum AgentPayload {
    // MARK: - Requests and notifications

    /// Whether `request` is shown at once when added (no trigger, or a push trigger), so that
    /// its presentation options can travel with it (`AddPresented`).
    package static func deliversAtOnce(_ request: UNNotificationRequest) -> Bool {
        request.trigger == nil || request.trigger is UNPushNotificationTrigger
    }

    /// The JSON of one request: of the common shape, written by ``EngineStateJSONWriter``
    /// (the bytes `JSONEncoder` writes, faster).
    ///
    /// - Throws: for a trigger that cannot be honoured, what `add` throws in process:
    ///   ``NotificationTriggerError``, or ``UNError`` `notificationInvalidNoDate` for calendar
    ///   components out of range; ``NotificationAgentError/invalidArgument(_:)`` for JSON over
    ///   the argument limit.
    package static func encode(_ request: UNNotificationRequest) throws -> String {
        try request.trigger?.validate()
        if let calendar = request.trigger as? UNCalendarNotificationTrigger, !calendar.hasComponentsInRange {
            throw UNError(.notificationInvalidNoDate, description: "a calendar component is out of range: \(calendar.dateComponents)")
        }
        let snapshot = try NotificationRequestSnapshot(request)
        guard let bytes = EngineStateJSONWriter.request(snapshot) else { return try text(of: snapshot) }
        guard bytes.count <= AgentInterface.maximumArgumentBytes else {
            throw NotificationAgentError.invalidArgument("the JSON is \(bytes.count) bytes, over \(AgentInterface.maximumArgumentBytes)")
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The request in `json`: read by ``FastRequestDecoder`` when it has the common shape, by
    /// `JSONDecoder` otherwise (the same value either way).
    ///
    /// - Throws: ``NotificationAgentError/invalidArgument(_:)`` for text that is not a request,
    ///   or a request whose trigger cannot be honoured (``checkTrigger(of:)``).
    package static func request(from json: String) throws(NotificationAgentError) -> UNNotificationRequest {
        try checkSize(json)
        let request = if let snapshot = FastRequestDecoder.request(from: json) {
            snapshot.makeRequest()
        } else {
            try value(NotificationRequestSnapshot.self, from: json).makeRequest()
        }
        try checkTrigger(of: request)
        return request
    }

    /// Refuses a request whose trigger cannot be honoured: one that `add` refuses
    /// (``NotificationTriggerError``: an interval not finite, not positive, over
    /// ``NotificationTriggerError/maximumTimeInterval``, or under 60 seconds repeating; a
    /// location that is not valid), or a calendar trigger with a component out of range.
    static func checkTrigger(of request: UNNotificationRequest) throws(NotificationAgentError) {
        guard let trigger = request.trigger else { return }
        do {
            try trigger.validate()
        } catch {
            throw .invalidArgument("the request's trigger cannot be honoured: \(error.localizedDescription)")
        }
        if let calendar = trigger as? UNCalendarNotificationTrigger, !calendar.hasComponentsInRange {
            throw .invalidArgument("the request's trigger cannot be honoured: a calendar component is out of range")
        }
    }

    /// How ``FastRequestDecoder`` reads `json` against `JSONDecoder`: `nil` when it leaves the
    /// text to `JSONDecoder`, `true` when it reads the value `JSONDecoder` reads, `false` when
    /// it reads another value or reads text `JSONDecoder` refuses (for the differential test
    /// and the `request-json` fuzz target).
    package static func fastDecoderAgrees(on json: String) -> Bool? {
        guard let fast = FastRequestDecoder.request(from: json) else { return nil }
        return (try? JSONDecoder().decode(NotificationRequestSnapshot.self, from: Data(json.utf8))) == fast
    }

    /// The JSON of a list of requests.
    package static func encode(_ requests: [UNNotificationRequest]) throws -> String {
        try text(of: requests.map { try NotificationRequestSnapshot($0) })
    }

    /// The requests in `json`.
    package static func requests(from json: String) throws(NotificationAgentError) -> [UNNotificationRequest] {
        try value([NotificationRequestSnapshot].self, from: json).map { $0.makeRequest() }
    }

    /// The JSON of one request's content (a service extension's answer).
    package static func encode(_ content: UNNotificationContent) throws -> String {
        try text(of: try NotificationContentSnapshot(content))
    }

    /// The content in `json`.
    package static func content(from json: String) throws(NotificationAgentError) -> UNNotificationContent {
        try value(NotificationContentSnapshot.self, from: json).makeContent()
    }

    /// The JSON of one delivered notification.
    package static func encode(_ notification: UNNotification) throws -> String {
        try text(of: try NotificationSnapshot(notification))
    }

    /// The notification in `json`.
    package static func notification(from json: String) throws(NotificationAgentError) -> UNNotification {
        try value(NotificationSnapshot.self, from: json).makeNotification()
    }

    /// The JSON of a list of delivered notifications.
    package static func encode(_ notifications: [UNNotification]) throws -> String {
        try text(of: notifications.map { try NotificationSnapshot($0) })
    }

    /// The notifications in `json`.
    package static func notifications(from json: String) throws(NotificationAgentError) -> [UNNotification] {
        try value([NotificationSnapshot].self, from: json).map { $0.makeNotification() }
    }

    // MARK: - Categories and responses

    /// The JSON of a set of categories, sorted by identifier.
    package static func encode(_ categories: Set<UNNotificationCategory>) throws -> String {
        try text(of: categories.sorted { $0.identifier < $1.identifier }.map(NotificationCategorySnapshot.init))
    }

    /// The categories in `json`.
    package static func categories(from json: String) throws(NotificationAgentError) -> Set<UNNotificationCategory> {
        Set(try value([NotificationCategorySnapshot].self, from: json).map { $0.makeCategory() })
    }

    /// The JSON of a response.
    package static func encode(_ response: UNNotificationResponse) throws -> String {
        try text(of: try NotificationResponseSnapshot(response))
    }

    /// The response in `json`: a ``UNTextInputNotificationResponse`` when it carries text, with
    /// `activationToken` when `json` has none.
    package static func response(from json: String, activationToken: String? = nil) throws(NotificationAgentError) -> UNNotificationResponse {
        let snapshot = try value(NotificationResponseSnapshot.self, from: json)
        return snapshot.makeResponse(activationToken: activationToken)
    }

    // MARK: - Coding

    /// The JSON text of `value`, refused when over the argument limit.
    static func text(of value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(value)
        guard data.count <= AgentInterface.maximumArgumentBytes else {
            throw NotificationAgentError.invalidArgument("the JSON is \(data.count) bytes, over \(AgentInterface.maximumArgumentBytes)")
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// Refuses a text over the argument limit.
    private static func checkSize(_ json: String) throws(NotificationAgentError) {
        guard json.utf8.count <= AgentInterface.maximumArgumentBytes else {
            throw .invalidArgument("the JSON is \(json.utf8.count) bytes, over \(AgentInterface.maximumArgumentBytes)")
        }
    }

    /// The value in `json`, bounded and typed.
    static func value<Value: Decodable>(_ type: Value.Type, from json: String) throws(NotificationAgentError) -> Value {
        try checkSize(json)
        do {
            return try JSONDecoder().decode(Value.self, from: Data(json.utf8))
        } catch {
            throw .invalidArgument("the JSON is not a \(Value.self): \(error)")
        }
    }
}

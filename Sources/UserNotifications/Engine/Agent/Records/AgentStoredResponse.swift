import DBus
import DesktopNotificationsSupport
import Foundation

/// A response as the agent stores it for an app that is not running: the state file's form
/// on disk (`agent.json`), the record of the interface on the bus (``record``).
package struct AgentStoredResponse: Codable, Hashable, Sendable {
    private let snapshot: NotificationResponseSnapshot

    /// The stored form of `response`.
    ///
    /// - Throws: ``UserInfoStorageError`` for user info that cannot be stored.
    package init(_ response: UNNotificationResponse) throws(UserInfoStorageError) {
        snapshot = try AgentPayload.travelling(NotificationResponseSnapshot(response)) { $0.notification.request.content }
    }

    /// The response in the JSON text an agent of an earlier version stored (`agent.json`
    /// kept its responses as the JSON they travelled in).
    ///
    /// - Throws: ``NotificationAgentError/invalidArgument(_:)`` for text that is not a response.
    package init(json: String) throws(NotificationAgentError) {
        do {
            snapshot = try OutsideJSON.decode(NotificationResponseSnapshot.self, from: Data(json.utf8))
        } catch {
            throw .invalidArgument("the stored response is not a response: \(error)")
        }
    }

    /// The response's record, as `Response` and `TakeResponses` carry it.
    package var record: AgentPayload.Record { snapshot.record.fields }

    package init(from decoder: any Decoder) throws {
        snapshot = try decoder.singleValueContainer().decode(NotificationResponseSnapshot.self)
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(snapshot)
    }
}

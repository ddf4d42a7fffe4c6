import DBus
import Foundation
import UserNotifications

/// A raw client of the agent's interface, standing for an app's center in these tests.
struct AgentTestClient {
    let connection: DBusConnection

    static func connect(_ bus: DBusBus) async throws -> AgentTestClient {
        AgentTestClient(connection: try await DBusConnection.connect(to: bus))
    }

    /// Calls `member` with `body` and returns the reply's values; waits for the reply at most
    /// `timeout` (the connection's default when `nil`).
    @discardableResult
    func call(_ member: String, _ body: [DBusValue] = [], timeout: Duration? = nil) async throws -> [DBusValue] {
        let message = try DBusMessage.methodCall(
            destination: AgentInterface.busName, path: AgentInterface.path, interface: AgentInterface.name, member: member, body: body)
        return try await connection.call(message, timeout: timeout).body
    }

    /// `Connect(appID, {name, icon})`, its reply waited for at most `timeout`.
    func connectApp(
        _ appID: String, name: String = "Example App", icon: String = "dialog-information", timeout: Duration? = nil
    ) async throws {
        try await call("Connect", [.string(appID), .variantDictionary([("name", .string(name)), ("icon", .string(icon))])], timeout: timeout)
    }

    /// `Add(appID, request)`.
    func add(_ request: UNNotificationRequest, for appID: String) async throws {
        try await call("Add", [.string(appID), try AgentPayload.encode(request).dbusValue])
    }

    /// `PendingRequests(appID)`'s identifiers.
    func pending(of appID: String) async throws -> [String] {
        let records = try Self.records(try await call("PendingRequests", [.string(appID)]).first)
        return try AgentPayload.requests(from: records).map(\.identifier)
    }

    /// The D-Bus error name a call fails with, or `nil` when it succeeds.
    func errorName(of member: String, _ body: [DBusValue]) async -> String? {
        do {
            try await call(member, body)
            return nil
        } catch {
            return (error as? DBusError)?.remoteName ?? "\(error)"
        }
    }

    func close() async { await connection.close() }

    /// The records of an `aa{sv}` answer (`PendingRequests`, `DeliveredNotifications`,
    /// `Categories`).
    static func records(_ value: DBusValue?) throws -> [AgentPayload.Record] {
        guard let value else { throw DBusError.unexpectedSignature(expected: "aa{sv}", found: "") }
        return try [AgentPayload.Record].reading(value)
    }

    /// A request shown now, or after `delay`, with the category `category`.
    static func request(_ identifier: String, after delay: TimeInterval? = nil, category: String = "") -> UNNotificationRequest {
        let content = UNMutableNotificationContent()
        content.title = "Title of \(identifier)"
        content.body = "Body"
        content.categoryIdentifier = category
        let trigger = delay.map { UNTimeIntervalNotificationTrigger(timeInterval: $0, repeats: false) }
        return UNNotificationRequest(identifier: identifier, content: content, trigger: trigger)
    }
}

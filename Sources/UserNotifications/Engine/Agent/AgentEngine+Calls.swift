import DBus
import Foundation
import FreedesktopNotifications

extension AgentEngine {
    func add(_ request: UNNotificationRequest) async throws {
        let json = try AgentPayload.encode(request)
        _ = try await callConnected("Add", [.string(json)])
    }

    func pendingRequests() async -> [UNNotificationRequest] {
        await answer("PendingRequests", otherwise: []) { try AgentPayload.requests(from: try $0.arguments("s")[0].stringValue ?? "") }
    }

    func removePendingRequests(withIdentifiers identifiers: [String]?) {
        send("RemovePendingRequests", [.stringArray(identifiers ?? []), .boolean(identifiers == nil)])
    }

    func deliveredNotifications() async -> [UNNotification] {
        await answer("DeliveredNotifications", otherwise: []) {
            try AgentPayload.notifications(from: try $0.arguments("s")[0].stringValue ?? "")
        }
    }

    func removeDeliveredNotifications(withIdentifiers identifiers: [String]?) {
        send("RemoveDeliveredNotifications", [.stringArray(identifiers ?? []), .boolean(identifiers == nil)])
    }

    func setCategories(_ categories: Set<UNNotificationCategory>) {
        do {
            send("SetCategories", [.string(try AgentPayload.encode(categories))])
        } catch {
            CenterLog.logger.error("the categories could not be encoded for the agent", metadata: ["error": CenterLog.describe(error)])
        }
    }

    func categories() async -> Set<UNNotificationCategory> {
        await answer("Categories", otherwise: []) { try AgentPayload.categories(from: try $0.arguments("s")[0].stringValue ?? "") }
    }

    func requestAuthorization(options: UNAuthorizationOptions) async -> Bool {
        await answer("RequestAuthorization", [.uint32(UInt32(clamping: options.rawValue))], otherwise: false) {
            try $0.arguments("b")[0].boolValue ?? false
        }
    }

    func authorization() async -> EngineAuthorization {
        let unknown = EngineAuthorization(status: .notDetermined, options: [], capabilities: nil)
        var authorization = await answer("Authorization", otherwise: unknown) { reply in
            let values = try reply.arguments("uuasb")
            let status = UNAuthorizationStatus(rawValue: Int(values[0].uint32Value ?? 0)) ?? .notDetermined
            let options = UNAuthorizationOptions(rawValue: UInt(values[1].uint32Value ?? 0))
            let capabilities = values[3].boolValue == true
                ? Set((values[2].stringArrayValue ?? []).map(NotificationCapability.init(rawValue:))) : nil
            return EngineAuthorization(status: status, options: options, capabilities: capabilities)
        }
        authorization.location = await LocationHub.probeSetting()
        return authorization
    }

    func setBadgeCount(_ count: Int) async throws {
        _ = try await callConnected("SetBadgeCount", [.int32(Int32(clamping: count))])
    }

    /// Nothing to write here: the agent keeps the app's state, crash-safe, in its own files.
    func writeStateNow() async throws {}

    /// Calls `member`; when the agent no longer knows the app (it was restarted, or this very
    /// call started it), connects the app again and calls once more.
    private func callConnected(_ member: String, _ body: [DBusValue]) async throws -> DBusMessage {
        do {
            return try await call(member, body)
        } catch NotificationAgentError.unknownApp {
            _ = try await call("Connect", [Self.identityValue(identity)])
            takeResponses()
            return try await call(member, body)
        }
    }

    /// The decoded answer of `member`, or `fallback` (logged) when the agent fails or answers
    /// something that does not decode.
    private func answer<Value>(
        _ member: String, _ body: [DBusValue] = [], otherwise fallback: Value, _ decode: (DBusMessage) throws -> Value
    ) async -> Value {
        do {
            return try decode(try await callConnected(member, body))
        } catch {
            CenterLog.logger.warning("the agent did not answer; an empty answer is used", metadata: ["member": "\(member)", "error": CenterLog.describe(error)])
            return fallback
        }
    }
}

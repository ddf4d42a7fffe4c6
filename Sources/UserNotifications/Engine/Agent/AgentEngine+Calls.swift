import DBus
import DesktopNotificationsSupport
import Foundation
import FreedesktopNotifications

extension AgentEngine {
    /// Sends the request: one with attachments as `AddFiles`, its files opened here, with the
    /// app's own rights, and handed over as descriptors (the agent never opens its paths); one
    /// with a trigger through the ``AgentAddPacker`` (`Add`, or packed into `AddRequests`); an
    /// immediate one as `AddPresented`, with the delegate's presentation options, asked here
    /// first (its place in the call order kept meanwhile), so the agent need not ask
    /// `WillPresent` back: one round trip fewer. Nothing is opened or asked while the agent
    /// speaks another version.
    func add(_ request: UNNotificationRequest) async throws {
        try requireOwnVersion()
        let (record, bytes) = try AgentPayload.measuredRecord(of: request)
        guard request.content.attachments.isEmpty else {
            let files = try request.openAttachmentFiles().map { DBusFileDescriptor(taking: $0) }
            _ = try await callConnected(.addFiles(.init(appID: identity.id, request: record, files: files)))
            return
        }
        guard AgentPayload.deliversAtOnce(request) else { return try await addPacked(record, bytes: bytes) }
        guard let host = host.host, host.presentationOptionsWithoutAsking == nil else {
            let options = host.host?.presentationOptionsWithoutAsking ?? UNUserNotificationCenter.defaultPresentationOptions
            _ = try await callConnected(addPresented(record, options))
            return
        }
        let (outcome, options) = await askThenSend(record, request: request, host: host)
        do {
            _ = try outcome.get()
        } catch {
            guard case NotificationAgentError.unknownApp = error else { throw error }
            try connected(try await call(connectCall()))
            takeResponses()
            _ = try await call(addPresented(record, options))
        }
    }

    /// Asks the delegate how to present `request`, shown now (bounded by the presentation
    /// deadline, as the host asks), and sends `AddPresented` in the place taken now, from the
    /// thread that has the answer (no hop back to the caller first); returns the agent's reply
    /// (its refusal typed, ``AgentErrorName/decode(_:)``) and the options sent.
    private func askThenSend(
        _ record: AgentPayload.Record, request: UNNotificationRequest, host: any EngineHost
    ) async -> (Result<DBusMessage, any Error>, UNNotificationPresentationOptions) {
        let place = outbox.reserve()
        let notification = UNNotification(date: Date(), request: request.resolvingDeferredLocalizations())
        return await withCheckedContinuation { continuation in
            host.askPresentationOptions(for: notification) { [self] options in
                let message: DBusMessage
                do {
                    message = try self.message(addPresented(record, options))
                } catch {
                    // The place is given up, so that the calls after it leave.
                    outbox.fill(place) {}
                    return continuation.resume(returning: (.failure(error), options))
                }
                startCall(message, at: place, timeout: Self.callDeadline) { reply in
                    continuation.resume(returning: (reply.mapError { AgentErrorName.decode($0) }, options))
                }
            }
        }
    }

    private func addPresented(_ record: AgentPayload.Record, _ options: UNNotificationPresentationOptions) -> Agent1Spec.Call {
        .addPresented(.init(appID: identity.id, request: record, options: UInt32(clamping: options.rawValue)))
    }

    func pendingRequests() async -> [UNNotificationRequest] {
        await answer(.pendingRequests(.init(appID: identity.id)), otherwise: []) {
            try AgentPayload.requests(from: try Agent1Spec.PendingRequestsReply($0.body).requests)
        }
    }

    func removePendingRequests(withIdentifiers identifiers: [String]?) {
        guard let identifiers else { return send(.removePendingRequests(.init(appID: identity.id, identifiers: [], all: true))) }
        for run in AgentPayload.identifierRuns(identifiers) {
            send(.removePendingRequests(.init(appID: identity.id, identifiers: run, all: false)))
        }
    }

    func deliveredNotifications() async -> [UNNotification] {
        await answer(.deliveredNotifications(.init(appID: identity.id)), otherwise: []) {
            try AgentPayload.notifications(from: try Agent1Spec.DeliveredNotificationsReply($0.body).notifications)
        }
    }

    func removeDeliveredNotifications(withIdentifiers identifiers: [String]?) {
        guard let identifiers else { return send(.removeDeliveredNotifications(.init(appID: identity.id, identifiers: [], all: true))) }
        for run in AgentPayload.identifierRuns(identifiers) {
            send(.removeDeliveredNotifications(.init(appID: identity.id, identifiers: run, all: false)))
        }
    }

    func setCategories(_ categories: Set<UNNotificationCategory>) {
        do {
            send(.setCategories(.init(appID: identity.id, categories: try AgentPayload.encode(categories))))
        } catch {
            SubsystemLog.center.logger.error("the categories could not be encoded for the agent", metadata: ["error": SubsystemLog.describe(error)])
        }
    }

    func categories() async -> Set<UNNotificationCategory> {
        await answer(.categories(.init(appID: identity.id)), otherwise: []) {
            try AgentPayload.categories(from: try Agent1Spec.CategoriesReply($0.body).categories)
        }
    }

    func requestAuthorization(options: UNAuthorizationOptions) async -> Bool {
        await answer(.requestAuthorization(.init(appID: identity.id, options: UInt32(clamping: options.rawValue))), otherwise: false) {
            try Agent1Spec.RequestAuthorizationReply($0.body).granted
        }
    }

    func authorization() async -> EngineAuthorization {
        let unknown = EngineAuthorization(status: .notDetermined, options: [], capabilities: nil)
        var authorization = await answer(.authorization(.init(appID: identity.id)), otherwise: unknown) { reply in
            let values = try Agent1Spec.AuthorizationReply(reply.body)
            let status = UNAuthorizationStatus(rawValue: Int(values.status)) ?? .notDetermined
            let options = UNAuthorizationOptions(rawValue: UInt(values.options))
            let capabilities = values.serverReachable ? Set(values.capabilities.map(NotificationCapability.init(rawValue:))) : nil
            return EngineAuthorization(status: status, options: options, capabilities: capabilities)
        }
        authorization.location = await LocationHub.probeSetting()
        return authorization
    }

    func setBadgeCount(_ count: Int) async throws {
        _ = try await callConnected(.setBadgeCount(.init(appID: identity.id, count: Int32(clamping: count))))
    }

    /// Nothing to write here: the agent keeps the app's state, crash-safe, in its own files.
    func writeStateNow() async throws {}

    /// Makes `call`; when the agent no longer knows the app (it was restarted, or this very
    /// call started it), connects the app again and calls once more.
    func callConnected(_ call: Agent1Spec.Call) async throws -> DBusMessage {
        do {
            return try await self.call(call)
        } catch NotificationAgentError.unknownApp {
            try connected(try await self.call(connectCall()))
            takeResponses()
            return try await self.call(call)
        }
    }

    /// The decoded answer to `call`, or `fallback` (logged) when the agent fails or answers
    /// something that does not decode.
    private func answer<Value>(
        _ call: Agent1Spec.Call, otherwise fallback: Value, _ decode: (DBusMessage) throws -> Value
    ) async -> Value {
        do {
            return try decode(try await callConnected(call))
        } catch {
            SubsystemLog.center.logger.warning(
                "the agent did not answer; an empty answer is used", metadata: ["member": "\(call.method.rawValue)", "error": SubsystemLog.describe(error)])
            return fallback
        }
    }
}

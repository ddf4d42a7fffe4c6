import DBus
import DesktopNotificationsSupport
import Foundation
import Logging

/// Serves `org.unifiedpush.Connector2` at `/org/unifiedpush/Connector` on a connection, for
/// one or more connection tokens, and talks to distributors (`Register`, `Unregister`).
///
/// A call is read by ``UnifiedPushCall/parse(member:body:)``, bounded; a malformed call or an
/// unknown token is ignored, as the specification asks, and logged. Calls are answered at once and
/// handled one at a time, in arrival order.
package final class UnifiedPushConnector: Sendable {
    /// What a registration does with what the distributor sends.
    package struct Handlers: Sendable {
        /// `NewEndpoint`: the endpoint, checked.
        package var newEndpoint: @Sendable (String) async -> Void
        /// `Message`: the raw (encrypted) message and its id, if any.
        package var message: @Sendable (Data, String?) async -> Void
        /// `Unregistered`.
        package var unregistered: @Sendable () async -> Void

        /// Handlers from their parts.
        package init(
            newEndpoint: @escaping @Sendable (String) async -> Void, message: @escaping @Sendable (Data, String?) async -> Void,
            unregistered: @escaping @Sendable () async -> Void
        ) {
            self.newEndpoint = newEndpoint
            self.message = message
            self.unregistered = unregistered
        }
    }

    /// How long ``register(token:distributor:service:description:timeout:)`` waits for
    /// `NewEndpoint` after `Register` succeeded.
    package static let endpointTimeout: Duration = .seconds(10)

    /// The connection the connector is served on.
    package let connection: DBusConnection
    /// The bus name distributors call (the app id, or the connection's unique name).
    package let serviceName: String
    private let export: DBusConnection.Export
    /// Each token's handlers and the distributor it is registered with.
    private let registrations = Locked<[String: (handlers: Handlers, distributor: String)]>([:])
    private let endpointWaiters = Locked<[String: ResumeOnce<String?>]>([:])
    private let events: AsyncStream<(call: UnifiedPushCall, sender: String)>.Continuation
    private let logger: Logger

    /// Serves the connector on `connection`, under `serviceName`.
    ///
    /// - Throws: ``RemoteNotificationRegistrationError/bus(_:)`` when the object cannot be exported.
    package static func serve(
        on connection: DBusConnection, serviceName: String, logger: Logger
    ) throws(RemoteNotificationRegistrationError) -> UnifiedPushConnector {
        let (stream, continuation) = AsyncStream<(call: UnifiedPushCall, sender: String)>.makeStream(bufferingPolicy: .bufferingNewest(256))
        let box = Locked<UnifiedPushConnector?>(nil)
        let object: DBusExportedObject
        do {
            object = DBusExportedObject(path: try DBusObjectPath(UnifiedPush.connectorPath), interfaces: [
                try DBusExportedInterface(name: UnifiedPush.connectorInterface, introspectionXML: Connector2Spec.introspectionXML) {
                    invocation in
                    guard let connector = box.withLock({ $0 }) else {
                        return invocation.fail(name: "org.freedesktop.DBus.Error.Failed", message: "not ready")
                    }
                    connector.handle(invocation)
                },
            ])
        } catch {
            throw .bus("\(error)")
        }
        let connector = UnifiedPushConnector(
            connection: connection, serviceName: serviceName, export: connection.export(object), events: continuation, logger: logger)
        box.withLock { $0 = connector }
        Task { [weak connector] in
            for await event in stream {
                guard let connector else { return }
                await connector.run(event.call, from: event.sender)
            }
        }
        return connector
    }

    private init(
        connection: DBusConnection, serviceName: String, export: DBusConnection.Export,
        events: AsyncStream<(call: UnifiedPushCall, sender: String)>.Continuation, logger: Logger
    ) {
        self.connection = connection
        self.serviceName = serviceName
        self.export = export
        self.events = events
        self.logger = logger
    }

    /// Stops serving (the connection stays open: it may be shared).
    package func stop() {
        export.unexport()
        events.finish()
    }

    /// Registers `token` with `distributor` (`Register` with `service`, `token` and
    /// `description`) and waits for the endpoint the distributor hands back through
    /// `NewEndpoint`. `handlers` take every later call for the token.
    ///
    /// - Returns: the endpoint.
    /// - Throws: ``RemoteNotificationRegistrationError``.
    package func register(
        token: String, distributor: String, description: String?, handlers: Handlers, timeout: Duration = endpointTimeout
    ) async throws(RemoteNotificationRegistrationError) -> String {
        registrations.withLock { $0[token] = (handlers, distributor) }
        var arguments: [String: DBusValue] = ["service": .string(serviceName), "token": .string(token)]
        if let description { arguments["description"] = .string(String(description.utf8.prefix(100)) ?? "") }
        let call = Distributor2Spec.Call.register(.init(args: arguments))
        let endpoint: String? = await withCheckedContinuation { continuation in
            let once = ResumeOnce<String?>(continuation)
            endpointWaiters.withLock { $0[token] = once }
            Task {
                do {
                    let reply = try await connection.call(try call.message(to: distributor, path: try DBusObjectPath(UnifiedPush.distributorPath)))
                    let answer = (try? Distributor2Spec.RegisterReply(reply.body))?.res ?? [:]
                    let success = answer["success"]?.stringValue
                    guard success == UnifiedPush.registrationSucceeded else {
                        let reason = answer["reason"]?.stringValue ?? "no reason given"
                        throw RemoteNotificationRegistrationError.refused(reason: reason)
                    }
                } catch {
                    self.failedRegistrations.withLock { $0[token] = (error as? RemoteNotificationRegistrationError) ?? .bus("\(error)") }
                    once.resume(returning: nil)
                    return
                }
                try? await Task.sleep(for: timeout)
                once.resume(returning: nil)
            }
        }
        endpointWaiters.withLock { $0[token] = nil }
        if let failure = failedRegistrations.withLock({ $0.removeValue(forKey: token) }) {
            registrations.withLock { $0[token] = nil }
            throw failure
        }
        guard let endpoint else {
            registrations.withLock { $0[token] = nil }
            throw .noEndpoint(distributor: distributor)
        }
        return endpoint
    }

    private let failedRegistrations = Locked<[String: RemoteNotificationRegistrationError]>([:])

    /// Unregisters `token` from `distributor` (`Unregister`, which has no reply) and forgets it.
    ///
    /// - Throws: ``RemoteNotificationRegistrationError/bus(_:)`` when the call cannot be sent.
    package func unregister(token: String, distributor: String) throws(RemoteNotificationRegistrationError) {
        registrations.withLock { $0[token] = nil }
        do {
            try connection.send(try Distributor2Spec.Call.unregister(.init(args: ["token": .string(token)]))
                .message(to: distributor, path: try DBusObjectPath(UnifiedPush.distributorPath), flags: .noReplyExpected))
        } catch {
            throw .bus("\(error)")
        }
    }

    /// Takes calls for `token` from `distributor` without registering (the record of an
    /// earlier run).
    package func listen(token: String, distributor: String, handlers: Handlers) {
        registrations.withLock { $0[token] = (handlers, distributor) }
    }

    // MARK: - Calls from the distributor

    private func handle(_ invocation: DBusMethodInvocation) {
        let message = invocation.message
        let call: UnifiedPushCall
        do {
            call = try UnifiedPushCall.parse(member: message.member, body: message.body)
        } catch {
            logger.warning("a UnifiedPush call was ignored", metadata: ["member": "\(message.member ?? "")", "error": "\(error)"])
            switch error {
            case .unknownMethod: return invocation.fail(name: "org.freedesktop.DBus.Error.UnknownMethod", message: "\(error)")
            case .notADictionary: return invocation.fail(name: "org.freedesktop.DBus.Error.InvalidArgs", message: "\(error)")
            default: return invocation.reply(message.member == Connector2Spec.Method.message.rawValue ? Connector2Spec.MessageReply(res: [:]).values : [])
            }
        }
        switch call {
        case .newEndpoint:
            invocation.reply()
        case .message(_, _, let id):
            invocation.reply(Connector2Spec.MessageReply(res: id.map { ["id": .string($0)] } ?? [:]).values)
        case .unregistered:
            invocation.reply()
        }
        if case .dropped = events.yield((call, message.sender ?? "")) {
            logger.warning("UnifiedPush calls arrive faster than they are handled; the oldest was dropped")
        }
    }

    /// Hands a call to its token's handlers, once its sender is known to own the distributor's
    /// name: the token alone does not let another bus peer push, change or drop a registration.
    private func run(_ event: UnifiedPushCall, from sender: String) async {
        let token = event.token
        guard let registration = registrations.withLock({ $0[token] }) else {
            logger.info("UnifiedPush call for a token this connector does not know; ignored")
            return
        }
        let owner = try? await connection.nameOwner(of: registration.distributor)
        guard let owner, owner == sender else {
            logger.warning(
                "UnifiedPush call from a peer that is not the distributor; ignored",
                metadata: ["sender": "\(sender)", "distributor": "\(registration.distributor)"])
            return
        }
        switch event {
        case .newEndpoint(_, let endpoint):
            // Kept (and told) before `register` returns: kept after, it could land after an
            // `unregister` the app made at once, and bring the dropped endpoint back.
            await registration.handlers.newEndpoint(endpoint)
            if let waiter = endpointWaiters.withLock({ $0[token] }) { waiter.resume(returning: endpoint) }
        case .message(_, let bytes, let id): await registration.handlers.message(bytes, id)
        case .unregistered:
            // While the token registers again, an `Unregistered` is the late confirmation of
            // the unregistration before it: forgetting the token then would drop the new
            // registration's `NewEndpoint`, and `register` would wait out its deadline.
            guard endpointWaiters.withLock({ $0[token] }) == nil else {
                logger.info("UnifiedPush Unregistered for a token registering again; taken as the earlier unregistration's")
                return
            }
            registrations.withLock { $0[token] = nil }
            await registration.handlers.unregistered()
        }
    }

    /// An endpoint is an absolute http or https URL of at most 1,000 bytes.
    package static func isValidEndpoint(_ text: String) -> Bool {
        guard text.utf8.count <= UnifiedPush.maximumEndpointLength, let url = URL(string: text),
              let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http", url.host != nil else { return false }
        return true
    }
}

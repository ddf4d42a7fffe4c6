import DBus
import DesktopNotificationsSupport
import Foundation
import Logging

/// Serves `org.unifiedpush.Connector2` at `/org/unifiedpush/Connector` on a connection, for
/// one or more connection tokens, and talks to distributors (`Register`, `Unregister`).
///
/// A call is read bounded: the token at most 100 bytes, the endpoint at most 1,000, the
/// message at most ``WebPushDecryptor/maximumMessageSize``; a malformed call or an unknown
/// token is ignored, as the specification asks, and logged. Calls are answered at once and
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

    /// One call, queued for its handler.
    private enum Event: Sendable {
        case newEndpoint(token: String, endpoint: String)
        case message(token: String, bytes: Data, id: String?)
        case unregistered(token: String)
    }

    /// How long ``register(token:distributor:service:description:timeout:)`` waits for
    /// `NewEndpoint` after `Register` succeeded.
    package static let endpointTimeout: Duration = .seconds(10)

    /// The connection the connector is served on.
    package let connection: DBusConnection
    /// The bus name distributors call (the app id, or the connection's unique name).
    package let serviceName: String
    private let export: DBusConnection.Export
    private let registrations = Locked<[String: Handlers]>([:])
    private let endpointWaiters = Locked<[String: ResumeOnce<String?>]>([:])
    private let events: AsyncStream<Event>.Continuation
    private let logger: Logger

    /// Serves the connector on `connection`, under `serviceName`.
    ///
    /// - Throws: ``RemoteNotificationRegistrationError/bus(_:)`` when the object cannot be exported.
    package static func serve(
        on connection: DBusConnection, serviceName: String, logger: Logger
    ) throws(RemoteNotificationRegistrationError) -> UnifiedPushConnector {
        let (stream, continuation) = AsyncStream<Event>.makeStream(bufferingPolicy: .bufferingNewest(256))
        let box = Locked<UnifiedPushConnector?>(nil)
        let object: DBusExportedObject
        do {
            object = DBusExportedObject(path: try DBusObjectPath(UnifiedPush.connectorPath), interfaces: [
                try DBusExportedInterface(name: UnifiedPush.connectorInterface, introspectionXML: UnifiedPush.connectorIntrospectionXML) {
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
                await connector.run(event)
            }
        }
        return connector
    }

    private init(
        connection: DBusConnection, serviceName: String, export: DBusConnection.Export,
        events: AsyncStream<Event>.Continuation, logger: Logger
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
        registrations.withLock { $0[token] = handlers }
        var arguments: [(String, DBusValue)] = [("service", .string(serviceName)), ("token", .string(token))]
        if let description { arguments.append(("description", .string(String(description.utf8.prefix(100)) ?? ""))) }
        let body: [DBusValue] = [.variantDictionary(arguments)]
        let endpoint: String? = await withCheckedContinuation { continuation in
            let once = ResumeOnce<String?>(continuation)
            endpointWaiters.withLock { $0[token] = once }
            Task {
                do {
                    let reply = try await connection.call(try DBusMessage.methodCall(
                        destination: distributor, path: try DBusObjectPath(UnifiedPush.distributorPath),
                        interface: UnifiedPush.distributorInterface, member: "Register", body: body))
                    let answer = (try? reply.arguments("a{sv}"))?.first?.variantDictionaryValue ?? [:]
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
            try connection.send(try DBusMessage.methodCall(
                destination: distributor, path: try DBusObjectPath(UnifiedPush.distributorPath),
                interface: UnifiedPush.distributorInterface, member: "Unregister",
                body: [.variantDictionary([("token", .string(token))])], flags: .noReplyExpected))
        } catch {
            throw .bus("\(error)")
        }
    }

    /// Takes calls for `token` without registering (the record of an earlier run).
    package func listen(token: String, handlers: Handlers) {
        registrations.withLock { $0[token] = handlers }
    }

    // MARK: - Calls from the distributor

    private func handle(_ invocation: DBusMethodInvocation) {
        let message = invocation.message
        guard let fields = (try? message.arguments("a{sv}"))?.first?.variantDictionaryValue else {
            logger.warning("UnifiedPush call with a body that is not a{sv}; ignored", metadata: ["member": "\(message.member ?? "")"])
            return invocation.fail(name: "org.freedesktop.DBus.Error.InvalidArgs", message: "expected (a{sv})")
        }
        func string(_ key: String) -> String? { fields[key]?.stringValue }
        guard let token = string("token"), !token.isEmpty, token.utf8.count <= UnifiedPush.maximumTokenLength else {
            logger.warning("UnifiedPush call without a valid token; ignored", metadata: ["member": "\(message.member ?? "")"])
            return invocation.reply(message.member == "Message" ? [.variantDictionary([])] : [])
        }
        switch message.member {
        case "NewEndpoint":
            invocation.reply()
            guard let endpoint = string("endpoint"), Self.isValidEndpoint(endpoint) else {
                logger.warning("UnifiedPush NewEndpoint without a valid endpoint; ignored")
                return
            }
            if let waiter = endpointWaiters.withLock({ $0[token] }) { waiter.resume(returning: endpoint) }
            events.yield(.newEndpoint(token: token, endpoint: endpoint))
        case "Message":
            let id = string("id").map { String($0.utf8.prefix(UnifiedPush.maximumTokenLength)) ?? "" }
            invocation.reply([.variantDictionary(id.map { [("id", .string($0))] } ?? [])])
            let bytes: Data
            switch fields["message"] {
            case .byteArray(let raw)?: bytes = Data(raw)
            case .string(let text)?: bytes = Data(text.utf8)
            default:
                logger.warning("UnifiedPush Message without a message (ay or s); ignored")
                return
            }
            guard !bytes.isEmpty, bytes.count <= WebPushDecryptor.maximumMessageSize else {
                logger.warning("UnifiedPush Message of \(bytes.count) bytes, outside 1...\(WebPushDecryptor.maximumMessageSize); ignored")
                return
            }
            events.yield(.message(token: token, bytes: bytes, id: id))
        case "Unregistered":
            invocation.reply()
            events.yield(.unregistered(token: token))
        default:
            invocation.fail(name: "org.freedesktop.DBus.Error.UnknownMethod", message: "no such method")
        }
    }

    private func run(_ event: Event) async {
        let token: String
        switch event {
        case .newEndpoint(let t, _), .message(let t, _, _), .unregistered(let t): token = t
        }
        guard let handlers = registrations.withLock({ $0[token] }) else {
            logger.info("UnifiedPush call for a token this connector does not know; ignored")
            return
        }
        switch event {
        case .newEndpoint(_, let endpoint): await handlers.newEndpoint(endpoint)
        case .message(_, let bytes, let id): await handlers.message(bytes, id)
        case .unregistered:
            registrations.withLock { $0[token] = nil }
            await handlers.unregistered()
        }
    }

    /// An endpoint is an absolute http or https URL of at most 1,000 bytes.
    package static func isValidEndpoint(_ text: String) -> Bool {
        guard text.utf8.count <= UnifiedPush.maximumEndpointLength, let url = URL(string: text),
              let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http", url.host != nil else { return false }
        return true
    }
}

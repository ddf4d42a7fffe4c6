public import DBus
import DesktopNotificationsSupport
public import Foundation
import UserNotifications

/// A UnifiedPush distributor for tests: owns `org.unifiedpush.Distributor.<name>`, serves
/// `org.unifiedpush.Distributor2` at `/org/unifiedpush/Distributor` (`Register`,
/// `Unregister`), and calls a connector's `org.unifiedpush.Connector2` (`NewEndpoint`,
/// `Message`, `Unregistered`) as a real distributor does when its push server hands it
/// something. It can be told to refuse registrations, and can restart: drop its name and
/// connection and take them again, keeping its registrations as a distributor keeps them on
/// disk.
public final class FakeUnifiedPushDistributor: Sendable {
    /// One registration as the distributor keeps it.
    public struct Registration: Sendable, Hashable {
        /// The connector's bus name (`service`).
        public let service: String
        /// The connection token.
        public let token: String
        /// The description, if one was sent.
        public let description: String?
        /// The endpoint handed out.
        public let endpoint: String
    }

    /// The bus name, `org.unifiedpush.Distributor.<name>`.
    public let busName: String
    private let bus: DBusBus
    private let connection = Locked<DBusConnection?>(nil)
    private let exported = Locked<DBusConnection.Export?>(nil)
    private let table = Locked<[String: Registration]>([:])
    private let refusal = Locked<String?>(nil)
    private let calls = Locked<[String]>([])

    /// Starts a distributor called `name` on `bus`.
    public static func start(on bus: DBusBus, name: String = "fake") async throws -> FakeUnifiedPushDistributor {
        let distributor = FakeUnifiedPushDistributor(bus: bus, busName: "org.unifiedpush.Distributor.\(name)")
        try await distributor.takeName()
        return distributor
    }

    private init(bus: DBusBus, busName: String) {
        self.bus = bus
        self.busName = busName
    }

    /// The registrations, by token.
    public var registrations: [String: Registration] { table.withLock { $0 } }

    /// The methods called so far (`Register`, `Unregister`), in order.
    public var receivedCalls: [String] { calls.withLock { $0 } }

    /// Makes `Register` answer `REGISTRATION_FAILED` with `reason`, or succeed again (`nil`).
    public func refuseRegistrations(reason: String?) {
        refusal.withLock { $0 = reason }
    }

    /// Sends `message` (the raw, encrypted POST body) to the connector registered with `token`,
    /// as `Message`, and returns its answer (`a{sv}`).
    ///
    /// - Throws: ``FakeUnifiedPushDistributorError`` for an unknown token; a bus error.
    @discardableResult
    public func send(_ message: Data, to token: String, id: String? = nil) async throws -> [String: DBusValue] {
        let registration = try registration(token)
        var fields: [String: DBusValue] = ["token": .string(token), "message": .byteArray([UInt8](message))]
        if let id { fields["id"] = .string(id) }
        let reply = try await liveConnection().call(try connectorCall(registration.service, .message(.init(args: fields))))
        return try Connector2Spec.MessageReply(reply.body).res
    }

    /// Gives the registration of `token` a new endpoint and tells its connector (`NewEndpoint`).
    ///
    /// - Returns: the new endpoint.
    @discardableResult
    public func changeEndpoint(of token: String) async throws -> String {
        let old = try registration(token)
        let endpoint = Self.newEndpoint()
        table.withLock { $0[token] = Registration(service: old.service, token: token, description: old.description, endpoint: endpoint) }
        try liveConnection().send(try connectorCall(old.service, .newEndpoint(.init(args: ["token": .string(token), "endpoint": .string(endpoint)]))))
        return endpoint
    }

    /// Drops the registration of `token` and tells its connector (`Unregistered`), as when the
    /// push server forgets it.
    public func dropRegistration(_ token: String) async throws {
        let old = try registration(token)
        table.withLock { $0[token] = nil }
        try liveConnection().send(try connectorCall(old.service, .unregistered(.init(args: ["token": .string(token)]))))
    }

    /// Drops the bus name and the connection, then takes them again; registrations are kept.
    public func restart() async throws {
        await stopServing()
        try await takeName()
    }

    /// Drops the bus name and closes the connection.
    public func stop() async {
        await stopServing()
    }

    // MARK: - Internals

    private func takeName() async throws {
        let connection = try await DBusConnection.connect(to: bus)
        let object = DBusExportedObject(path: try DBusObjectPath("/org/unifiedpush/Distributor"), interfaces: [
            try DBusExportedInterface(name: Distributor2Spec.name, introspectionXML: Distributor2Spec.introspectionXML) { [self] in handle($0) },
        ])
        exported.withLock { $0 = connection.export(object) }
        self.connection.withLock { $0 = connection }
        let reply = try await connection.requestName(busName)
        guard reply == .primaryOwner || reply == .alreadyOwner else {
            throw FakeUnifiedPushDistributorError.nameTaken(busName)
        }
    }

    private func stopServing() async {
        exported.withLock { export in
            export?.unexport()
            export = nil
        }
        guard let connection = connection.withLock({ current -> DBusConnection? in
            defer { current = nil }
            return current
        }) else { return }
        _ = try? await connection.releaseName(busName)
        await connection.close()
    }

    private func liveConnection() throws -> DBusConnection {
        guard let connection = connection.withLock({ $0 }) else { throw FakeUnifiedPushDistributorError.stopped }
        return connection
    }

    private func registration(_ token: String) throws -> Registration {
        guard let registration = table.withLock({ $0[token] }) else { throw FakeUnifiedPushDistributorError.unknownToken(token) }
        return registration
    }

    private func connectorCall(_ service: String, _ call: Connector2Spec.Call) throws -> DBusMessage {
        try call.message(to: service, path: try DBusObjectPath("/org/unifiedpush/Connector"))
    }

    private static func newEndpoint() -> String {
        "https://push.example.test/up/\(UUID().uuidString.lowercased())"
    }

    private func handle(_ invocation: DBusMethodInvocation) {
        let message = invocation.message
        calls.withLock { $0.append(message.member ?? "") }
        let call: Distributor2Spec.Call
        do throws(DBusCallRefusal) {
            call = try Distributor2Spec.Call(message)
        } catch {
            return invocation.fail(error)
        }
        let fields = switch call {
        case .register(let arguments): arguments.args
        case .unregister(let arguments): arguments.args
        }
        func string(_ key: String) -> String? { fields[key]?.stringValue }
        let token = string("token")
        switch call {
        case .register:
            guard let token, let service = string("service") else {
                return invocation.reply(Distributor2Spec.RegisterReply(res: ["success": .string("REGISTRATION_FAILED"), "reason": .string("INTERNAL_ERROR")]).values)
            }
            if let reason = refusal.withLock({ $0 }) {
                return invocation.reply(Distributor2Spec.RegisterReply(res: ["success": .string("REGISTRATION_FAILED"), "reason": .string(reason)]).values)
            }
            let endpoint = table.withLock { registrations -> String in
                if let old = registrations[token], old.service == service { return old.endpoint }
                let endpoint = Self.newEndpoint()
                registrations[token] = Registration(
                    service: service, token: token, description: string("description"), endpoint: endpoint)
                return endpoint
            }
            invocation.reply(Distributor2Spec.RegisterReply(res: ["success": .string("REGISTRATION_SUCCEEDED")]).values)
            do {
                try liveConnection().send(try connectorCall(service, .newEndpoint(.init(args: ["token": .string(token), "endpoint": .string(endpoint)]))))
            } catch {
                FileHandle.standardError.write(Data("FakeUnifiedPushDistributor: NewEndpoint not sent: \(error)\n".utf8))
            }
        case .unregister:
            invocation.reply()
            guard let token, let old = table.withLock({ $0.removeValue(forKey: token) }) else { return }
            do {
                try liveConnection().send(try connectorCall(old.service, .unregistered(.init(args: ["token": .string(token)]))))
            } catch {
                FileHandle.standardError.write(Data("FakeUnifiedPushDistributor: Unregistered not sent: \(error)\n".utf8))
            }
        }
    }
}

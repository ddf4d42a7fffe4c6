public import DBus

/// The server side of `org.freedesktop.Notifications`, exportable by any Swift process: a
/// terminal presenter, a headless CI server, or a test double.
///
/// It serves the four methods (Notify, CloseNotification, GetCapabilities,
/// GetServerInformation) at `/org/freedesktop/Notifications` through a
/// ``NotificationServerHandler``, answers `Introspect`, and emits the four signals,
/// broadcast or to one connection.
public final class NotificationServer: Sendable {
    /// The connection the server is exported on.
    public let connection: DBusConnection
    private let export: DBusConnection.Export

    private init(connection: DBusConnection, export: DBusConnection.Export) {
        self.connection = connection
        self.export = export
    }

    /// Exports the object and takes the name `org.freedesktop.Notifications`.
    ///
    /// - Parameters:
    ///   - connection: the bus connection to serve on.
    ///   - handler: what answers the interface's calls.
    ///   - replaceExisting: ask the current owner to give the name up (it does only when it
    ///     allowed replacement).
    /// - Throws: ``NotificationsError/serverNameTaken(owner:)`` when another process keeps it.
    public static func start(
        on connection: DBusConnection, handler: any NotificationServerHandler, replaceExisting: Bool = false
    ) async throws(NotificationsError) -> NotificationServer {
        do {
            let interface = try DBusExportedInterface(
                name: NotificationsInterface.name, introspectionXML: NotificationsInterface.introspectionXML
            ) { invocation in
                route(invocation, to: handler)
            }
            let export = connection.export(DBusExportedObject(path: NotificationsInterface.path, interfaces: [interface]))
            var flags: DBusRequestNameFlags = [.doNotQueue, .allowReplacement]
            if replaceExisting { flags.insert(.replaceExisting) }
            switch try await connection.requestName(NotificationsInterface.busName, flags: flags) {
            case .primaryOwner, .alreadyOwner:
                return NotificationServer(connection: connection, export: export)
            case .inQueue, .exists:
                export.unexport()
                throw NotificationsError.serverNameTaken(owner: try? await connection.nameOwner(of: NotificationsInterface.busName))
            }
        } catch {
            throw NotificationsError.from(error)
        }
    }

    /// Gives the name back and stops serving.
    public func stop() async {
        try? await connection.releaseName(NotificationsInterface.busName)
        export.unexport()
    }

    private static func route(_ invocation: DBusMethodInvocation, to handler: any NotificationServerHandler) {
        let message = invocation.message
        let sender = message.sender ?? ""
        guard let method = NotificationsSpec.Method(rawValue: message.member ?? "") else {
            return invocation.fail(
                name: "org.freedesktop.DBus.Error.UnknownMethod",
                message: "\(NotificationsInterface.name) has no method \(message.member ?? "")")
        }
        guard message.bodySignature == method.inputSignature else {
            return invocation.fail(
                name: "org.freedesktop.DBus.Error.InvalidArgs",
                message: "\(method.rawValue) does not take arguments of signature \(message.bodySignature)")
        }
        switch method {
        case .notify:
            do {
                let request = try NotifyRequest(arguments: message.body)
                handler.notify(request, sender: sender, reply: NotificationServerReply(invocation: invocation))
            } catch {
                invocation.fail(name: "org.freedesktop.DBus.Error.InvalidArgs", message: error.description)
            }
        case .closeNotification:
            guard let arguments = try? NotificationsSpec.CloseNotificationArguments(message.body) else { return }
            handler.closeNotification(id: arguments.id, sender: sender, reply: NotificationServerReply(invocation: invocation))
        case .getCapabilities:
            invocation.reply(NotificationsSpec.GetCapabilitiesReply(capabilities: handler.capabilities().map(\.rawValue)).values)
        case .getServerInformation:
            let info = handler.serverInformation()
            invocation.reply(NotificationsSpec.GetServerInformationReply(
                name: info.name, vendor: info.vendor, version: info.version, specVersion: info.specVersion).values)
        }
    }

    // MARK: - Signals

    private func emit(_ signal: () throws(DBusError) -> DBusMessage) throws(NotificationsError) {
        do {
            try connection.send(try signal())
        } catch {
            throw NotificationsError.from(error)
        }
    }

    /// Emits `NotificationClosed(id, reason)`; to everyone, or only to `destination`.
    public func emitClosed(id: UInt32, reason: NotificationCloseReason, to destination: String? = nil) throws(NotificationsError) {
        try emit { () throws(DBusError) in
            try NotificationsSpec.NotificationClosedSignal(id: id, reason: reason.rawValue).message(path: NotificationsInterface.path, destination: destination)
        }
    }

    /// Emits `ActionInvoked(id, key)`.
    public func emitActionInvoked(id: UInt32, actionKey: String, to destination: String? = nil) throws(NotificationsError) {
        try emit { () throws(DBusError) in
            try NotificationsSpec.ActionInvokedSignal(id: id, actionKey: actionKey).message(path: NotificationsInterface.path, destination: destination)
        }
    }

    /// Emits `ActivationToken(id, token)`.
    public func emitActivationToken(id: UInt32, token: String, to destination: String? = nil) throws(NotificationsError) {
        try emit { () throws(DBusError) in
            try NotificationsSpec.ActivationTokenSignal(id: id, activationToken: token).message(path: NotificationsInterface.path, destination: destination)
        }
    }

    /// Emits KDE's `NotificationReplied(id, text)`.
    public func emitReplied(id: UInt32, text: String, to destination: String? = nil) throws(NotificationsError) {
        try emit { () throws(DBusError) in
            try NotificationsSpec.NotificationRepliedSignal(id: id, text: text).message(path: NotificationsInterface.path, destination: destination)
        }
    }
}

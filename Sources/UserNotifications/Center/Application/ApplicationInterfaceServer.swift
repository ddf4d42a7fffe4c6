import DBus
import DesktopNotificationsSupport
import Foundation

/// Serves `org.freedesktop.Application` for a center on a connection of its own, which owns
/// the app id as a bus name: the object is exported before the name is asked for, so a call
/// the bus held while it started the app (D-Bus activation) finds it.
///
/// Each call is read by ``ApplicationInterfaceCall/parse(_:)`` and refused with a D-Bus error
/// when it is unknown or malformed; `Activate` and `Open` are answered once their handler is
/// called, a notification response once the center has taken it. At most
/// ``maximumResponsesInFlight`` notification responses are taken at a time; past that a call
/// gets `LimitsExceeded`.
final class ApplicationInterfaceServer: Sendable {
    /// How many notification responses may be in the taking at once.
    static let maximumResponsesInFlight = 16

    /// What the server does for each call.
    struct Actions: Sendable {
        /// `Activate`.
        var activate: @Sendable (ApplicationActivation) -> Void
        /// `Open`.
        var open: @Sendable ([URL], ApplicationActivation) -> Void
        /// A notification response from the unique bus name `sender`, with the server's
        /// connection (to ask the bus who `sender` is): `false` when the center cannot take it
        /// (its notifications are neither in the agent, GNOME's nor the portal's, the response
        /// id is not one it knows, or a GNOME target or its sender was refused).
        var takeResponse: @Sendable (
            _ id: String, _ activation: ApplicationActivation, _ sender: String, _ connection: DBusConnection
        ) async -> Bool
    }

    /// The server's own connection.
    let connection: DBusConnection
    private let export: DBusConnection.Export

    private init(connection: DBusConnection, export: DBusConnection.Export) {
        self.connection = connection
        self.export = export
    }

    /// Connects to `bus`, exports the interface at the app id's object path, and takes the app
    /// id as a bus name.
    ///
    /// - Throws: ``ApplicationInterfaceError``.
    static func start(appID: String, bus: DBusBus, actions: Actions) async throws(ApplicationInterfaceError) -> ApplicationInterfaceServer {
        guard let path = ApplicationInterface.objectPath(for: appID) else { throw .invalidApplicationID(appID) }
        let inFlight = Locked(0)
        let connection: DBusConnection
        do {
            connection = try await DBusConnection.connect(to: bus)
        } catch {
            throw .bus("\(error)")
        }
        do {
            let interface = try DBusExportedInterface(name: ApplicationInterface.name, introspectionXML: ApplicationInterface.introspectionXML) {
                serve($0, actions, inFlight, connection)
            }
            let export = connection.export(DBusExportedObject(path: path, interfaces: [interface]))
            switch try await connection.requestName(appID) {
            case .primaryOwner, .alreadyOwner:
                return ApplicationInterfaceServer(connection: connection, export: export)
            case .exists, .inQueue:
                await connection.close()
                throw ApplicationInterfaceError.nameTaken(appID)
            }
        } catch let error as ApplicationInterfaceError {
            throw error
        } catch {
            await connection.close()
            throw .bus("\(error)")
        }
    }

    private static func serve(_ invocation: DBusMethodInvocation, _ actions: Actions, _ inFlight: Locked<Int>, _ connection: DBusConnection) {
        let call: ApplicationInterfaceCall
        do {
            call = try ApplicationInterfaceCall.parse(invocation.message)
        } catch {
            SubsystemLog.center.logger.notice(
                "an org.freedesktop.Application call was refused",
                metadata: ["sender": "\(invocation.message.sender ?? "")", "error": "\(error.name)"])
            return invocation.fail(name: error.name, message: error.message)
        }
        switch call {
        case .activate(let activation):
            actions.activate(activation)
            invocation.reply()
        case .open(let urls, let activation):
            actions.open(urls, activation)
            invocation.reply()
        case .notificationResponse(let id, let activation):
            let admitted = inFlight.withLock { count in
                guard count < maximumResponsesInFlight else { return false }
                count += 1
                return true
            }
            guard admitted else {
                return invocation.fail(name: "org.freedesktop.DBus.Error.LimitsExceeded", message: "too many notification responses in the taking")
            }
            Task {
                defer { inFlight.withLock { $0 -= 1 } }
                guard await actions.takeResponse(id, activation, invocation.message.sender ?? "", connection) else {
                    let refusal = ApplicationCallRefusal.notSupported("this app has no such notification response to take")
                    return invocation.fail(name: refusal.name, message: refusal.message)
                }
                invocation.reply()
            }
        }
    }

    /// Stops serving: the object goes and the connection closes, which gives the name back.
    func close() {
        export.unexport()
        let connection = self.connection
        Task { await connection.close() }
    }
}

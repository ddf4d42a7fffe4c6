public import DBus
import DesktopNotificationsSupport
import Foundation

/// A notification backend for the real xdg-desktop-portal frontend: it serves
/// `org.freedesktop.impl.portal.Notification` under ``busName``, records what the frontend
/// passes on (`AddNotification(app_id, id, notification)`, `RemoveNotification(app_id, id)`),
/// and emits the backend's `ActionInvoked(app_id, id, action, parameter)` on demand, which
/// the frontend forwards to the app. ``writePortalFile(in:)`` registers it with the frontend.
public final class FakePortalBackend: Sendable {
    /// One call as the backend saw it.
    public enum Call: Sendable, Hashable {
        case add(appID: String, id: String, notification: [String: DBusValue])
        case remove(appID: String, id: String)
    }

    /// The backend's bus name.
    public static let busName = "org.desktopnotifications.TestPortalBackend"
    /// The desktop name its `.portal` file is used in (`XDG_CURRENT_DESKTOP`).
    public static let desktopName = "desktopnotifications-test"

    private let connection: DBusConnection
    private let recorded = Locked<[Call]>([])
    private let exported = Locked<DBusConnection.Export?>(nil)

    /// Starts the backend on `bus` under ``busName``.
    public static func start(on bus: DBusBus) async throws -> FakePortalBackend {
        let connection = try await DBusConnection.connect(to: bus)
        let backend = FakePortalBackend(connection: connection)
        let object = DBusExportedObject(path: try DBusObjectPath("/org/freedesktop/portal/desktop"), interfaces: [
            try DBusExportedInterface(name: PortalBackendNotificationSpec.name, introspectionXML: PortalBackendNotificationSpec.introspectionXML) { [backend] in
                backend.handle($0)
            }
        ])
        backend.exported.withLock { $0 = connection.export(object) }
        _ = try await connection.requestName(busName)
        return backend
    }

    private init(connection: DBusConnection) {
        self.connection = connection
    }

    /// Writes `test.portal` into `directory` (the frontend's `XDG_DESKTOP_PORTAL_DIR`): the
    /// backend's name, its interface, and the desktop it is used in (``desktopName``; 1.16
    /// reads `UseIn` against `XDG_CURRENT_DESKTOP` and has no `portals.conf`).
    public static func writePortalFile(in directory: URL) throws {
        let text = """
            [portal]
            DBusName=\(busName)
            Interfaces=org.freedesktop.impl.portal.Notification;
            UseIn=\(desktopName)

            """
        try text.write(to: directory.appendingPathComponent("test.portal"), atomically: true, encoding: .utf8)
    }

    /// The calls so far, in order.
    public var calls: [Call] { recorded.withLock { $0 } }

    /// Emits `ActionInvoked(appID, id, action, parameter)` as a backend does on a click.
    public func invokeAction(appID: String, id: String, action: String, parameter: [DBusValue] = []) throws {
        try connection.send(try PortalBackendNotificationSpec.ActionInvokedSignal(appID: appID, id: id, action: action, parameter: parameter)
            .message(path: try DBusObjectPath("/org/freedesktop/portal/desktop")))
    }

    /// Closes the backend's connection.
    public func stop() async {
        exported.withLock { $0?.unexport() }
        await connection.close()
    }

    private func handle(_ invocation: DBusMethodInvocation) {
        let message = invocation.message
        let call: PortalBackendNotificationSpec.Call
        do throws(DBusCallRefusal) {
            call = try PortalBackendNotificationSpec.Call(message)
        } catch {
            return invocation.fail(error)
        }
        switch call {
        case .addNotification(let arguments):
            recorded.withLock { $0.append(.add(appID: arguments.appID, id: arguments.id, notification: arguments.notification)) }
        case .removeNotification(let arguments):
            recorded.withLock { $0.append(.remove(appID: arguments.appID, id: arguments.id)) }
        }
        invocation.reply()
    }
}

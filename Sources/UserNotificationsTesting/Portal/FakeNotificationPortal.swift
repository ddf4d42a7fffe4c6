public import DBus
import DesktopNotificationsSupport
import Foundation

/// A notification portal for tests: serves `org.freedesktop.portal.Notification` itself (as
/// `org.freedesktop.portal.Desktop`) with the version and `SupportedOptions` it is given,
/// records every call, and sends `ActionInvoked` on demand. It plays what the frontend
/// Debian 12 ships (1.16, version 1) cannot: version 2 and its keys.
public final class FakeNotificationPortal: Sendable {
    /// One call as the portal saw it.
    public enum Call: Sendable, Hashable {
        case add(id: String, notification: [String: DBusValue], sender: String)
        case remove(id: String, sender: String)
    }

    private let connection: DBusConnection
    private let version: UInt32
    private let supportedOptions: DBusValue
    private let recorded = Locked<[Call]>([])
    private let exported = Locked<DBusConnection.Export?>(nil)

    /// Starts the portal on `bus`: `version` and `supportedOptions` (an `a{sv}`) answer the
    /// properties; version 1 answers no `SupportedOptions`, as version 1 frontends do not.
    public static func start(
        on bus: DBusBus, version: UInt32 = 2,
        supportedOptions: DBusValue = .variantDictionary([
            ("category", .stringArray(["im.received", "alarm.ringing"])), ("button-purpose", .stringArray(["im.reply-with-text"])),
        ])
    ) async throws -> FakeNotificationPortal {
        let connection = try await DBusConnection.connect(to: bus)
        let portal = FakeNotificationPortal(connection: connection, version: version, supportedOptions: supportedOptions)
        let object = DBusExportedObject(path: try DBusObjectPath("/org/freedesktop/portal/desktop"), interfaces: [
            try DBusExportedInterface(name: "org.freedesktop.portal.Notification", introspectionXML: "") { [portal] in portal.handle($0) },
            try DBusExportedInterface(name: "org.freedesktop.DBus.Properties", introspectionXML: "") { [portal] in portal.properties($0) },
        ])
        portal.exported.withLock { $0 = connection.export(object) }
        _ = try await connection.requestName("org.freedesktop.portal.Desktop")
        return portal
    }

    private init(connection: DBusConnection, version: UInt32, supportedOptions: DBusValue) {
        self.connection = connection
        self.version = version
        self.supportedOptions = supportedOptions
    }

    /// The calls so far, in order.
    public var calls: [Call] { recorded.withLock { $0 } }

    /// The dictionaries of the `AddNotification` calls so far, in order.
    public var added: [(id: String, notification: [String: DBusValue])] {
        calls.compactMap { if case .add(let id, let notification, _) = $0 { (id, notification) } else { nil } }
    }

    /// Sends `ActionInvoked(id, action, parameter)` to `destination` (the frontend sends it to
    /// the connection that added the notification).
    public func invokeAction(id: String, action: String, parameter: [DBusValue] = [], to destination: String) throws {
        try connection.send(try DBusMessage.signal(
            path: try DBusObjectPath("/org/freedesktop/portal/desktop"), interface: "org.freedesktop.portal.Notification",
            member: "ActionInvoked", body: [.string(id), .string(action), .array(element: .variant, parameter.map(DBusValue.variant))],
            destination: destination))
    }

    /// Closes the portal's connection.
    public func stop() async {
        exported.withLock { $0?.unexport() }
        await connection.close()
    }

    private func handle(_ invocation: DBusMethodInvocation) {
        let message = invocation.message
        let sender = message.sender ?? ""
        switch message.member {
        case "AddNotification":
            guard let arguments = try? message.arguments("sa{sv}"), let id = arguments[0].stringValue,
                  let notification = arguments[1].variantDictionaryValue else {
                return invocation.fail(name: "org.freedesktop.portal.Error.InvalidArgument", message: "expected (sa{sv})")
            }
            recorded.withLock { $0.append(.add(id: id, notification: notification, sender: sender)) }
            invocation.reply()
        case "RemoveNotification":
            guard let id = (try? message.arguments("s"))?.first?.stringValue else {
                return invocation.fail(name: "org.freedesktop.portal.Error.InvalidArgument", message: "expected (s)")
            }
            recorded.withLock { $0.append(.remove(id: id, sender: sender)) }
            invocation.reply()
        default:
            invocation.fail(name: "org.freedesktop.DBus.Error.UnknownMethod", message: "no such method")
        }
    }

    private func properties(_ invocation: DBusMethodInvocation) {
        guard invocation.message.member == "Get", let arguments = try? invocation.message.arguments("ss"),
              let name = arguments[1].stringValue else {
            return invocation.fail(name: "org.freedesktop.DBus.Error.UnknownMethod", message: "only Get")
        }
        switch name {
        case "version": invocation.reply([.variant(.uint32(version))])
        case "SupportedOptions" where version >= 2: invocation.reply([.variant(supportedOptions)])
        default: invocation.fail(name: "org.freedesktop.DBus.Error.UnknownProperty", message: "no property \(name)")
        }
    }
}

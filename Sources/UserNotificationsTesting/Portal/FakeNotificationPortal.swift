public import DBus
import DesktopNotificationsSupport
import Foundation
import UserNotifications
#if canImport(Glibc)
import Glibc
#endif

/// A notification portal for tests: serves `org.freedesktop.portal.Notification` itself (as
/// `org.freedesktop.portal.Desktop`) with the version and `SupportedOptions` it is given,
/// records every call, and sends `ActionInvoked` on demand. It plays what the frontend
/// Debian 12 ships (1.16, version 1) cannot: version 2 and its keys.
///
/// A file descriptor in `icon` or `sound` (`("file-descriptor", <h>)`) is checked as a version 2
/// portal checks it: its seals are read (`F_GET_SEALS`) and its bytes read whole (at most
/// ``maximumFileBytes``), recorded in ``files``, and the descriptor closed at once, so the
/// recorded dictionary holds a closed descriptor in its place. It also plays the portal's
/// side of `app.*` actions: ``activateAction(id:button:appID:activationToken:)`` calls
/// `org.freedesktop.Application.ActivateAction` on the app id, with the action's target.
public final class FakeNotificationPortal: Sendable {
    /// A file the portal received as a descriptor.
    public struct ReceivedFile: Sendable, Hashable {
        /// The notification's id.
        public var id: String
        /// The dictionary key that carried it: `icon` or `sound`.
        public var key: String
        /// The file's seals (`F_GET_SEALS`), or -1 when they could not be read.
        public var seals: Int32
        /// The file's bytes, from its start.
        public var bytes: [UInt8]
    }

    /// Why ``activateAction(id:button:appID:activationToken:)`` activated nothing.
    public struct ActivationError: Error, CustomStringConvertible {
        /// What was missing.
        public var description: String
    }

    /// The seals a version 2 portal asks for: `F_SEAL_WRITE | F_SEAL_SHRINK | F_SEAL_GROW |
    /// F_SEAL_SEAL`.
    public static let requiredSeals: Int32 = 0x0008 | 0x0002 | 0x0004 | 0x0001
    /// The most bytes read from one received file.
    public static let maximumFileBytes = 64 << 20

    /// One call as the portal saw it.
    public enum Call: Sendable, Hashable {
        case add(id: String, notification: [String: DBusValue], sender: String)
        case remove(id: String, sender: String)
    }

    private let connection: DBusConnection
    private let version: UInt32
    private let supportedOptions: DBusValue
    private let recorded = Locked<[Call]>([])
    private let receivedFiles = Locked<[ReceivedFile]>([])
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
            try DBusExportedInterface(name: PortalNotificationSpec.name, introspectionXML: PortalNotificationSpec.introspectionXML) { [portal] in portal.handle($0) },
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

    /// The files received as descriptors so far, in order.
    public var files: [ReceivedFile] { receivedFiles.withLock { $0 } }

    /// Activates the default action (`button` `nil`) or the button at index `button` of the
    /// notification last added as `id`, as the portal does for an `app.*` action:
    /// `ActivateAction(<name without app.>, [<target>] or [], {activation-token})` on the bus
    /// name `appID` at its object path. Returns once the app answered.
    ///
    /// - Throws: ``ActivationError`` when no such notification or button was added or its
    ///   action is not `app.*`; the app's D-Bus error.
    public func activateAction(id: String, button: Int? = nil, appID: String, activationToken: String? = nil) async throws {
        guard let notification = added.last(where: { $0.id == id })?.notification else {
            throw ActivationError(description: "no notification \(id) was added")
        }
        var name: String?
        var target: DBusValue?
        if let button {
            if case .array(_, let buttons)? = notification["buttons"], buttons.indices.contains(button),
               let fields = buttons[button].variantDictionaryValue {
                name = fields["action"]?.stringValue
                target = fields["target"]
            }
        } else {
            name = notification["default-action"]?.stringValue
            target = notification["default-action-target"]
        }
        guard let name, name.hasPrefix("app.") else {
            throw ActivationError(description: "notification \(id) has no app.* action at \(button.map(String.init) ?? "default")")
        }
        let path = "/" + appID.replacingOccurrences(of: ".", with: "/").replacingOccurrences(of: "-", with: "_")
        let platformData: [String: DBusValue] = activationToken.map { ["activation-token": .string($0)] } ?? [:]
        let message = try ApplicationSpec.Call.activateAction(.init(
            actionName: String(name.dropFirst("app.".count)), parameter: target.map { [$0] } ?? [], platformData: platformData
        )).message(to: appID, path: try DBusObjectPath(path))
        _ = try await connection.call(message, timeout: .seconds(10))
    }

    /// Sends `ActionInvoked(id, action, parameter)` to `destination` (the frontend sends it to
    /// the connection that added the notification).
    public func invokeAction(id: String, action: String, parameter: [DBusValue] = [], to destination: String) throws {
        try connection.send(try PortalNotificationSpec.ActionInvokedSignal(id: id, action: action, parameter: parameter)
            .message(path: try DBusObjectPath("/org/freedesktop/portal/desktop"), destination: destination))
    }

    /// Closes the portal's connection.
    public func stop() async {
        exported.withLock { $0?.unexport() }
        await connection.close()
    }

    private func handle(_ invocation: DBusMethodInvocation) {
        let message = invocation.message
        let sender = message.sender ?? ""
        guard let method = message.member.flatMap(PortalNotificationSpec.Method.init(rawValue:)) else {
            return invocation.fail(name: "org.freedesktop.DBus.Error.UnknownMethod", message: "no such method")
        }
        let call: PortalNotificationSpec.Call
        do throws(DBusError) {
            call = try PortalNotificationSpec.Call(method, message.body)
        } catch {
            return invocation.fail(name: "org.freedesktop.portal.Error.InvalidArgument", message: "expected (\(method.inputSignature))")
        }
        switch call {
        case .addNotification(let arguments):
            let (id, notification) = (arguments.id, arguments.notification)
            for key in ["icon", "sound"] {
                guard case .structure(let fields)? = notification[key], fields.count == 2, fields[0] == .string("file-descriptor"),
                      case .variant(.unixFileDescriptor(let descriptor)) = fields[1] else { continue }
                let file = Self.read(descriptor, id: id, key: key)
                descriptor.close()
                receivedFiles.withLock { $0.append(file) }
            }
            recorded.withLock { $0.append(.add(id: id, notification: notification, sender: sender)) }
            invocation.reply()
        case .removeNotification(let arguments):
            recorded.withLock { $0.append(.remove(id: arguments.id, sender: sender)) }
            invocation.reply()
        }
    }

    /// The seals and bytes of a received file.
    private static func read(_ descriptor: DBusFileDescriptor, id: String, key: String) -> ReceivedFile {
        let read = try? descriptor.withDescriptor { raw -> (Int32, [UInt8]) in
            let seals = fcntl(raw, 1034)  // F_GET_SEALS
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while bytes.count < maximumFileBytes {
                let count = chunk.withUnsafeMutableBytes { pread(raw, $0.baseAddress, $0.count, off_t(bytes.count)) }
                guard count > 0 else { break }
                bytes += chunk.prefix(count)
            }
            return (seals, bytes)
        }
        return ReceivedFile(id: id, key: key, seals: read?.0 ?? -1, bytes: read?.1 ?? [])
    }

    /// `Get` and `GetAll`, as the frontend answers them: GLib's proxies (libnotify's) read
    /// every property at once with `GetAll`.
    private func properties(_ invocation: DBusMethodInvocation) {
        var properties: [(String, DBusValue)] = [(PortalNotificationSpec.Property.version.rawValue, .uint32(version))]
        if version >= 2 { properties.append((PortalNotificationSpec.Property.supportedOptions.rawValue, supportedOptions)) }
        switch invocation.propertiesCall {
        case .getAll?:
            invocation.reply([.variantDictionary(properties)])
        case .get(let arguments)?:
            guard let value = properties.first(where: { $0.0 == arguments.propertyName })?.1 else {
                return invocation.fail(name: "org.freedesktop.DBus.Error.UnknownProperty", message: "no property \(arguments.propertyName)")
            }
            invocation.reply(PropertiesSpec.GetReply(value: value).values)
        default:
            invocation.fail(name: "org.freedesktop.DBus.Error.UnknownMethod", message: "only Get and GetAll")
        }
    }
}

public import DBus
import DesktopNotificationsSupport
import Foundation
import UserNotifications

/// GNOME Shell's `org.gtk.Notifications` for tests on a private bus: it serves
/// `AddNotification(s app_id, s id, a{sv})` and `RemoveNotification(s app_id, s id)` at
/// `/org/gtk/Notifications`, refuses an app id it was not told has a desktop entry with
/// `org.gtk.Notifications.InvalidApp` (as GNOME Shell 43 does), keeps what it shows by app id
/// and id (an add of the same id replaces), records every call, and clicks as the shell does:
/// an `app.*` action becomes `org.freedesktop.Application.ActivateAction` on the app id's bus
/// name with the action's target and `desktop-startup-id` in the platform data.
public final class FakeGtkNotifications: Sendable {
    /// One call as the service saw it.
    public enum Call: Sendable, Hashable {
        case add(appID: String, id: String, notification: [String: DBusValue])
        case remove(appID: String, id: String)
    }

    /// Why a click could not be made.
    public enum ClickError: Error, Sendable, Hashable {
        /// Nothing is shown under that app id and id.
        case noNotification(appID: String, id: String)
        /// The notification has no such button, or its action is not `app.*`.
        case noAction(String)
    }

    private struct Shown: Sendable {
        var order: [String: [String]] = [:]
        var notifications: [String: [String: [String: DBusValue]]] = [:]
    }

    private let connection: DBusConnection
    private let knownApps: Set<String>
    private let recorded = Locked<[Call]>([])
    private let shown = Locked(Shown())
    private let exported = Locked<DBusConnection.Export?>(nil)

    /// Starts the service on `bus` and takes `org.gtk.Notifications`; `knownApps` are the app
    /// ids GNOME would find a desktop entry for.
    public static func start(on bus: DBusBus, knownApps: Set<String>) async throws -> FakeGtkNotifications {
        let connection = try await DBusConnection.connect(to: bus)
        let service = FakeGtkNotifications(connection: connection, knownApps: knownApps)
        let object = DBusExportedObject(path: try DBusObjectPath("/org/gtk/Notifications"), interfaces: [
            try DBusExportedInterface(name: GtkNotificationsSpec.name, introspectionXML: GtkNotificationsSpec.introspectionXML) { [service] in service.handle($0) },
        ])
        service.exported.withLock { $0 = connection.export(object) }
        _ = try await connection.requestName("org.gtk.Notifications")
        return service
    }

    private init(connection: DBusConnection, knownApps: Set<String>) {
        self.connection = connection
        self.knownApps = knownApps
    }

    /// The calls so far, in order.
    public var calls: [Call] { recorded.withLock { $0 } }

    /// The ids shown for `appID`, in the order they were first added.
    public func shownIDs(of appID: String) -> [String] {
        shown.withLock { $0.order[appID] ?? [] }
    }

    /// The dictionary shown for `appID` and `id`, or `nil`.
    public func notification(of appID: String, id: String) -> [String: DBusValue]? {
        shown.withLock { $0.notifications[appID]?[id] }
    }

    /// Clicks the notification's body: its `default-action` with its target, as GNOME Shell
    /// does; the notification goes.
    public func activate(appID: String, id: String, startupID: String = "_TIME1") async throws {
        let notification = try taken(appID: appID, id: id)
        guard let action = notification["default-action"]?.stringValue else { throw ClickError.noAction("default-action") }
        try await activateAction(appID: appID, action: action, target: notification["default-action-target"], startupID: startupID)
    }

    /// Clicks the button at `index` (its `action` with its `target`); the notification goes.
    public func invokeButton(appID: String, id: String, index: Int, startupID: String = "_TIME1") async throws {
        let notification = try taken(appID: appID, id: id)
        guard case .array(_, let buttons)? = notification["buttons"], index < buttons.count,
              let button = buttons[index].variantDictionaryValue, let action = button["action"]?.stringValue else {
            throw ClickError.noAction("button \(index)")
        }
        try await activateAction(appID: appID, action: action, target: button["target"], startupID: startupID)
    }

    /// Calls `ActivateAction` with `action` (`app.` and its name) and `target` from GNOME
    /// Shell's name, whatever they hold: what an app does with a target it did not make.
    public func activate(appID: String, action: String, target: String, startupID: String = "_TIME1") async throws {
        try await activateAction(appID: appID, action: action, target: .string(target), startupID: startupID)
    }

    /// Closes the service's connection.
    public func stop() async {
        exported.withLock { $0?.unexport() }
        await connection.close()
    }

    private func taken(appID: String, id: String) throws -> [String: DBusValue] {
        let notification = shown.withLock { shown -> [String: DBusValue]? in
            guard let notification = shown.notifications[appID]?.removeValue(forKey: id) else { return nil }
            shown.order[appID]?.removeAll { $0 == id }
            return notification
        }
        guard let notification else { throw ClickError.noNotification(appID: appID, id: id) }
        return notification
    }

    /// `ActivateAction(name without "app.", [target], {"desktop-startup-id": startupID})` on
    /// the app id's name and object path, waiting for the answer (the bus may start the app).
    private func activateAction(appID: String, action: String, target: DBusValue?, startupID: String) async throws {
        guard action.hasPrefix("app.") else { throw ClickError.noAction(action) }
        let path = "/" + appID.replacingOccurrences(of: ".", with: "/").replacingOccurrences(of: "-", with: "_")
        let message = try ApplicationSpec.Call.activateAction(.init(
            actionName: String(action.dropFirst("app.".count)), parameter: target.map { [$0] } ?? [],
            platformData: ["desktop-startup-id": .string(startupID)]
        )).message(to: appID, path: try DBusObjectPath(path))
        _ = try await connection.call(message, timeout: .seconds(25))
    }

    private func handle(_ invocation: DBusMethodInvocation) {
        let message = invocation.message
        let call: GtkNotificationsSpec.Call
        do throws(DBusCallRefusal) {
            call = try GtkNotificationsSpec.Call(message)
        } catch {
            return invocation.fail(error)
        }
        switch call {
        case .addNotification(let arguments):
            let (appID, id, notification) = (arguments.appID, arguments.id, arguments.notification)
            guard knownApps.contains(appID) else {
                return invocation.fail(name: "org.gtk.Notifications.InvalidApp", message: "The app by ID \"\(appID)\" could not be found")
            }
            recorded.withLock { $0.append(.add(appID: appID, id: id, notification: notification)) }
            shown.withLock { shown in
                if shown.notifications[appID]?[id] == nil { shown.order[appID, default: []].append(id) }
                shown.notifications[appID, default: [:]][id] = notification
            }
            invocation.reply()
        case .removeNotification(let arguments):
            let (appID, id) = (arguments.appID, arguments.id)
            recorded.withLock { $0.append(.remove(appID: appID, id: id)) }
            shown.withLock { shown in
                if shown.notifications[appID]?.removeValue(forKey: id) != nil { shown.order[appID]?.removeAll { $0 == id } }
            }
            invocation.reply()
        }
    }
}

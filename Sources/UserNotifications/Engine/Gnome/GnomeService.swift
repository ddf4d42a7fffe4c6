import DBus
import DesktopNotificationsSupport
import Foundation
import FreedesktopNotifications

/// The service of an app with a desktop entry on GNOME: notifications go to GNOME Shell's own
/// interface, `org.gtk.Notifications`, as GLib's `GNotification` sends them, so that they stay
/// in the message tray after the app exits and a click relaunches the app. The engine core
/// works in front of it (``ServiceTransport``).
///
/// A request's identifier is its GNOME notification id: adding it again replaces the
/// notification in place, and withdrawing it is `RemoveNotification` (by identifier, also one
/// an earlier launch posted). The click and every button are the action
/// `app.notification-response`, whose target is the response itself (``GnomeActionTarget``):
/// GNOME Shell calls `org.freedesktop.Application.ActivateAction` with it on the app id's bus
/// name, D-Bus starts the app when it has exited, and the app side
/// (``UNUserNotificationCenter/serveApplicationInterface()``) hands the target to the engine,
/// which takes it from GNOME Shell only (``click(target:activationToken:sender:)``). The app
/// must therefore serve that interface, and GNOME needs its desktop entry (else
/// `AddNotification` fails with ``GtkNotificationsError/applicationNotFound(appID:)``).
///
/// GNOME has no scheduler, cannot list what it shows, and says nothing when a notification is
/// closed: the engine keeps the lists, in the app's state file under `org.gtk.Notifications`,
/// apart from the portal's, so a relaunched app still has its pending requests, and lists and
/// can withdraw what an earlier launch showed.
final class GnomeService: NotificationService {
    /// How long a call to GNOME Shell may take.
    static let callDeadline: Duration = .seconds(10)

    let identity: ApplicationIdentity
    let connection: DBusConnection

    var kind: NotificationEngineKind { .gnome }
    var busName: String { GnomeInterface.busName }
    /// GNOME keeps the notifications across the app's exit and ignores an id it does not show.
    var withdrawsUnlisted: Bool { true }

    /// The service of the app `identity` on `connection`.
    init(identity: ApplicationIdentity, connection: DBusConnection) {
        self.identity = identity
        self.connection = connection
    }

    /// Nothing to hear: GNOME's clicks come through `ActivateAction` on the app, and its
    /// capabilities are constants.
    func start(clicked: @escaping @Sendable (ServiceClick) -> Void, restarted: @escaping @Sendable () -> Void) async {}

    func close() {}

    /// Sends `AddNotification(app_id, id, notification)`; returns once GNOME took it. GNOME's
    /// targets are the responses themselves, taken from GNOME Shell only: no nonce.
    ///
    /// - Throws: ``GtkNotificationsError`` when GNOME answers with an error;
    ///   ``NotificationDeliveryError/noNotificationServer(_:)`` when it does not answer.
    func post(
        _ notification: UNNotification, category: UNNotificationCategory?, options: UNNotificationPresentationOptions, replacing: Bool
    ) async throws -> String? {
        let entries = GnomePayload(identity: identity).entries(for: notification, category: category)
        do {
            let message = try GtkNotificationsSpec.Call.addNotification(.init(
                appID: identity.id, id: notification.request.identifier, notification: Dictionary(entries) { _, later in later }
            )).message(to: GnomeInterface.busName, path: GnomeInterface.path)
            _ = try await connection.call(message, timeout: Self.callDeadline)
        } catch DBusError.remote(let name, let text) {
            throw Self.error(name: name, message: text, appID: identity.id)
        } catch {
            throw NotificationDeliveryError.noNotificationServer(String(describing: error))
        }
        return nil
    }

    /// The typed error of GNOME's error reply `name`.
    static func error(name: String, message: String, appID: String) -> GtkNotificationsError {
        name == GnomeInterface.invalidAppError ? .applicationNotFound(appID: appID) : .refused(name: name, message: message)
    }

    /// Sends `RemoveNotification(app_id, id)` without waiting: GNOME answers nothing useful,
    /// and the call keeps its place before any later `AddNotification`.
    func withdraw(_ identifier: String) {
        do {
            let message = try GtkNotificationsSpec.Call.removeNotification(.init(appID: identity.id, id: identifier))
                .message(to: GnomeInterface.busName, path: GnomeInterface.path, flags: .noReplyExpected)
            try connection.send(message)
        } catch {
            SubsystemLog.center.logger.info("RemoveNotification was not sent", metadata: ["identifier": "\(identifier)", "error": SubsystemLog.describe(error)])
        }
    }

    /// GNOME Shell 43 shows a plain body, a themed icon and buttons through this interface,
    /// and keeps the notifications across the app's exit (`persistence`).
    func capabilities() async -> Set<NotificationCapability> {
        [.body, .actions, .iconStatic, .persistence]
    }

    /// Whether `org.gtk.Notifications` has an owner (GNOME Shell owns it; it is never
    /// D-Bus activated).
    func reachable() async -> Bool {
        (try? await connection.nameOwner(of: GnomeInterface.busName)) != nil
    }

    /// The click a GNOME target stands for: the action it names, with the response it archives
    /// for an app that does not list the notification (one GNOME relaunched). The engine uses
    /// its own record of the notification when it lists it (the whole content). `nil`, logged,
    /// for another sender than GNOME Shell or a target that does not read as a response.
    func click(target: String, activationToken: String?, sender: String) async -> ServiceClick? {
        guard let response = await Self.response(target: target, activationToken: activationToken, sender: sender, on: connection) else {
            return nil
        }
        return ServiceClick(
            identifier: response.notification.request.identifier, action: .named(response.actionIdentifier),
            userText: (response as? UNTextInputNotificationResponse)?.userText, activationToken: response.activationToken,
            archived: response)
    }

    /// The response a GNOME target carries, when `sender` owns `org.gtk.Notifications` (any
    /// session peer may call `ActivateAction`, and the target is the response itself) and the
    /// target reads; `nil`, logged, otherwise.
    static func response(target: String, activationToken: String?, sender: String, on connection: DBusConnection) async -> UNNotificationResponse? {
        guard await ActivationSender.owns(GnomeInterface.busName, sender: sender, on: connection) else { return nil }
        do {
            return try GnomeActionTarget.decode(target, activationToken: activationToken)
        } catch {
            SubsystemLog.center.logger.warning("a notification response that does not read as GNOME's was refused", metadata: ["error": "\(error)"])
            return nil
        }
    }
}

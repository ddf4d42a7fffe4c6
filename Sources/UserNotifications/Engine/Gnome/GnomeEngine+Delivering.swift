import DBus
import DesktopNotificationsSupport
import Foundation

// A delivery: the host's options, `AddNotification(app_id, id, notification)` to GNOME Shell,
// the entry in the engine's own list; a trigger that fires delivers the same way.
extension GnomeEngine {
    /// Shows `request` as the host's options say; returns once GNOME took it (or once the
    /// options showed nothing).
    ///
    /// - Throws: ``GtkNotificationsError`` when GNOME answers with an error;
    ///   ``NotificationDeliveryError/noNotificationServer(_:)`` when it does not answer.
    func deliver(_ request: UNNotificationRequest, date: Date) async throws {
        let request = request.resolvingDeferredLocalizations()
        let notification = UNNotification(date: date, request: request)
        let options = await presentation(of: notification)
        guard options.showsBanner || options.showsInList else { return }
        let category = state.withLock { $0.categories[request.content.categoryIdentifier] }
        let entries = GnomePayload(identity: identity).entries(for: notification, category: category)
        do {
            let message = try GtkNotificationsSpec.Call.addNotification(.init(
                appID: identity.id, id: request.identifier, notification: Dictionary(entries) { _, later in later }
            )).message(to: GnomeInterface.busName, path: GnomeInterface.path)
            _ = try await connection.call(message, timeout: Self.callDeadline)
        } catch DBusError.remote(let name, let text) {
            throw Self.error(name: name, message: text, appID: identity.id)
        } catch {
            throw NotificationDeliveryError.noNotificationServer(String(describing: error))
        }
        state.withLock { $0.delivered[request.identifier] = GnomeDelivered(notification: notification) }
        stateChanged()
        tellContentExtensionShown(notification)
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
}

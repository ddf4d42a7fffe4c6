import DBus
import DesktopNotificationsSupport
import Foundation

/// The `AddNotification` dictionary of the GNOME engine: GNotification's keys
/// (``GNotificationPayload``), with the click and each of the category's actions as
/// `app.notification-response` and the response as its target (``GnomeActionTarget``).
///
/// GNOME Shell 43 has no inline reply for `org.gtk.Notifications`: a text-input action is a
/// plain button, and its response is a ``UNTextInputNotificationResponse`` with empty text
/// (the app asks for the text itself). When a target cannot be made, the notification goes
/// without that action (logged): GNOME then opens the app for a click on it.
struct GnomePayload {
    let identity: ApplicationIdentity

    /// The dictionary's entries for `notification`, with the buttons of `category`.
    func entries(for notification: UNNotification, category: UNNotificationCategory?) -> [(String, DBusValue)] {
        var payload = GNotificationPayload(notification.request.content, identity: identity)
        if let target = target(notification, UNNotificationDefaultActionIdentifier, textInput: false) {
            payload.defaultAction = GnomeInterface.responseAction
            payload.defaultActionTarget = target
        }
        for action in category?.actions ?? [] {
            guard let target = target(notification, action.identifier, textInput: action is UNTextInputNotificationAction) else { continue }
            payload.buttons.append(GNotificationPayload.Button(label: action.title, action: GnomeInterface.responseAction, target: target))
        }
        return payload.entries
    }

    private func target(_ notification: UNNotification, _ action: String, textInput: Bool) -> DBusValue? {
        guard let text = GnomeActionTarget.encode(notification.request, date: notification.date, actionIdentifier: action, textInput: textInput) else {
            SubsystemLog.center.logger.warning(
                "an action of a notification was left out: its response does not fit GNOME's action target",
                metadata: ["identifier": "\(notification.request.identifier)", "action": "\(action)"])
            return nil
        }
        return .string(text)
    }
}

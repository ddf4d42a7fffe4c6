import DBus
import DesktopNotificationsSupport
import Foundation
import FreedesktopNotifications

/// The `AddNotification` dictionary of the GNOME engine: GNotification's keys
/// (``GNotificationPayload``), with the click and each of the category's actions as
/// `app.notification-response` and the response as its target (``GnomeActionTarget``).
///
/// GNOME Shell 43 has no inline reply for `org.gtk.Notifications`: a text-input action is a
/// plain button, and its response is a ``UNTextInputNotificationResponse`` with empty text
/// (the app asks for the text itself). When a target cannot be made, the notification goes
/// without that action (logged): GNOME then opens the app for a click on it.
///
/// The image attachment shown (the first image whose thumbnail is not hidden, as the
/// freedesktop mapping picks it) is the icon, as a serialized `GBytesIcon` of its bytes (the
/// clipped thumbnail as PNG when it has a clipping rectangle); without one, or when it is too
/// large or cannot be read (logged), the app's themed icon.
struct GnomePayload {
    /// The largest image sent as the icon, in bytes: the portal's bound
    /// (``PortalSealedFile/maximumIconBytes``), as GNOME Shell is sent the portal's icons too.
    static let maximumIconBytes = PortalSealedFile.maximumIconBytes

    let identity: ApplicationIdentity

    /// The dictionary's entries for `notification`, with the buttons of `category`.
    func entries(for notification: UNNotification, category: UNNotificationCategory?) -> [(String, DBusValue)] {
        var payload = GNotificationPayload(notification.request.content, identity: identity)
        if let image = NotificationBridge.shownImage(among: notification.request.content.attachments) {
            do {
                payload.icon = GNotificationPayload.bytesIcon(try image.iconBytes(limit: Self.maximumIconBytes))
            } catch {
                SubsystemLog.center.logger.warning(
                    "a notification's image was not sent; GNOME shows the app's icon",
                    metadata: ["identifier": "\(TerminalText.singleLine(notification.request.identifier))", "error": "\(error)"])
            }
        }
        let buttons = category?.actions ?? []
        let actions = [GnomeActionTarget.Action(identifier: UNNotificationDefaultActionIdentifier, textInput: false)]
            + buttons.map { GnomeActionTarget.Action(identifier: $0.identifier, textInput: $0 is UNTextInputNotificationAction) }
        let targets = GnomeActionTarget.encode(notification.request, date: notification.date, actions: actions)
        for (action, target) in zip(actions, targets) where target == nil {
            SubsystemLog.center.logger.warning(
                "an action of a notification was left out: its response does not fit GNOME's action target",
                metadata: ["identifier": "\(notification.request.identifier)", "action": "\(action.identifier)"])
        }
        if let target = targets[0] {
            payload.defaultAction = GnomeInterface.responseAction
            payload.defaultActionTarget = .string(target)
        }
        for (button, target) in zip(buttons, targets.dropFirst()) {
            guard let target else { continue }
            payload.buttons.append(GNotificationPayload.Button(label: button.title, action: GnomeInterface.responseAction, target: .string(target)))
        }
        return payload.entries
    }
}

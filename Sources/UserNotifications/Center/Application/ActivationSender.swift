import DBus
import DesktopNotificationsSupport
import FreedesktopNotifications

/// The check every notification click that reaches the app through
/// `org.freedesktop.Application.ActivateAction` passes: any session peer may call it, so a
/// click is taken only from the current owner of the notification service that showed it
/// (`org.gtk.Notifications`, the portal).
enum ActivationSender {
    /// Whether `sender` owns `busName` now; a refusal is logged with both names.
    static func owns(_ busName: String, sender: String, on connection: DBusConnection) async -> Bool {
        let owner = try? await connection.nameOwner(of: busName)
        guard let owner, owner == sender else {
            SubsystemLog.center.logger.warning(
                "a notification response not sent by the owner of \(busName) was refused",
                metadata: ["sender": "\(TerminalText.singleLine(sender))", "owner": "\(owner ?? "none")"])
            return false
        }
        return true
    }
}

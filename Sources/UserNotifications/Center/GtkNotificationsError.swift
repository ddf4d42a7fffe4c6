/// Why GNOME Shell refused a notification sent through `org.gtk.Notifications` (the engine
/// ``NotificationEngineKind/gnome``). A Linux addition.
public enum GtkNotificationsError: Error, Sendable, Hashable, CustomStringConvertible {
    /// GNOME found no desktop entry `<app id>.desktop` for the app id
    /// (`org.gtk.Notifications.InvalidApp`): the app needs one where GNOME looks
    /// (`applications/` under `XDG_DATA_HOME` or `XDG_DATA_DIRS`); `notify app-files` writes it.
    case applicationNotFound(appID: String)
    /// Another D-Bus error reply: its name and text.
    case refused(name: String, message: String)

    /// What GNOME refused, in one line.
    public var description: String {
        switch self {
        case .applicationNotFound(let appID): "GNOME found no desktop entry \(appID).desktop for the app"
        case .refused(let name, let message): "GNOME refused the notification: \(name): \(message)"
        }
    }
}

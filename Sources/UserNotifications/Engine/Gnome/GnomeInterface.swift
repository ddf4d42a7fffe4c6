import DBus

/// The names of `org.gtk.Notifications`, GNOME Shell's own notification interface (the one
/// GLib's `GNotification` uses), and the action the GNOME engine names there.
/// `dbus/org.gtk.Notifications.xml` describes the interface; the build generates
/// ``GtkNotificationsSpec`` from it.
///
/// Every action is `app.notification-response` with a target (``GnomeActionTarget``): GNOME
/// Shell activates an `app.*` action through `org.freedesktop.Application.ActivateAction` on
/// the app id's bus name, which D-Bus starts the app for when it has exited, and drops any
/// other action. The app side (``UNUserNotificationCenter/serveApplicationInterface()``)
/// takes `notification-response` with one string parameter.
enum GnomeInterface {
    static let busName = "org.gtk.Notifications"
    static let path = try! DBusObjectPath("/org/gtk/Notifications")

    /// The action of the click on the notification and of every button.
    static let responseAction = "app." + ApplicationInterface.notificationResponseAction

    /// The error GNOME Shell answers `AddNotification` with when it finds no desktop entry
    /// `<app id>.desktop`.
    static let invalidAppError = "org.gtk.Notifications.InvalidApp"
}

public import DBus

/// The names of the freedesktop notification service (Desktop Notifications spec 1.2).
public enum NotificationsInterface {
    /// The well-known bus name a notification server owns.
    public static let busName = "org.freedesktop.Notifications"
    /// The interface name.
    public static let name = NotificationsSpec.name
    /// The object path of the server.
    public static let path = try! DBusObjectPath("/org/freedesktop/Notifications")

    /// The `<interface>` element describing the service, including the KDE inline-reply
    /// signal: the text of `dbus/org.freedesktop.Notifications.xml`, which the build turns into
    /// this module's declarations of the interface.
    public static let introspectionXML = NotificationsSpec.introspectionXML

    /// The signature of Notify's arguments.
    public static let notifySignature = NotificationsSpec.Method.notify.inputSignature
}

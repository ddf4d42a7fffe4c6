import DBus

/// The names of `org.freedesktop.portal.Notification` (xdg-desktop-portal), and how the portal
/// engine names its actions there. `dbus/org.freedesktop.portal.Notification.xml` describes the
/// members the engine uses; the build generates ``PortalNotificationSpec`` from it.
///
/// The frontend sends a non-exported action back to the app that added the notification as the
/// `ActionInvoked` signal, while an `app.*` action goes to
/// `org.freedesktop.Application.ActivateAction` on the app's bus name, which an app only has
/// when it exports that interface. Actions are named here as plain names: the click on the
/// notification is `default`; the category's action at index `n` is `action.n`, mapped back
/// through the actions of the notification's category, so an action
/// identifier of any text travels safely. For an app that serves `org.freedesktop.Application`
/// the engine sends them as `app.notification-response` instead, with these names inside the
/// target (``PortalResponseID``).
enum PortalInterface {
    static let busName = "org.freedesktop.portal.Desktop"
    static let path = try! DBusObjectPath("/org/freedesktop/portal/desktop")
    static let interface = PortalNotificationSpec.name

    /// The action of a click on the notification itself.
    static let defaultAction = "default"
    /// The button purpose that asks the server for an inline text reply (version 2).
    static let replyPurpose = "im.reply-with-text"
    /// The categories (version 2) that mean an instant message, in order of preference: the
    /// specification names `im.received`, frontends before 1.20 list `im.message`.
    static let messageCategories = ["im.received", "im.message"]

    /// The portal action name of the category's action at `index`.
    static func actionName(at index: Int) -> String {
        "action.\(index)"
    }

    /// The index named by a portal action name from ``actionName(at:)``, or `nil`.
    static func actionIndex(of name: String) -> Int? {
        guard name.hasPrefix("action."), name.utf8.count <= 16 else { return nil }
        return Int(name.dropFirst("action.".count)).flatMap { $0 >= 0 ? $0 : nil }
    }
}

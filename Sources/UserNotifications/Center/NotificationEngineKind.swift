/// Where a center's notifications live. A Linux addition: on Apple platforms the system's own
/// notification service always keeps them.
///
/// Choose one with ``UNUserNotificationCenter/configure(identity:bus:clock:persistent:engine:)``,
/// ``UNUserNotificationCenter/init(identity:bus:clock:persistent:stateDirectory:engine:)`` or
/// the environment variable `DESKTOPNOTIFICATIONS_ENGINE` (`agent`, `in-process`, `portal` or
/// `gnome`); without a choice a sandboxed app (Flatpak's `/.flatpak-info`, or `$SNAP`) uses the
/// portal, any other the agent when one is reachable, else GNOME's own interface when the
/// session is GNOME and the app is D-Bus activatable, else its own process. The "Porting from
/// Apple platforms" article says what differs.
public enum NotificationEngineKind: Sendable, Hashable {
    /// In the app's own process: pending requests fire only while the app runs, and its
    /// notifications are the app's (some desktops remove them, or their buttons, when it exits).
    case inProcess
    /// In the per-user agent (`notify agent`, `org.desktopnotifications.Agent` on the session
    /// bus): requests fire while the app is not running, notifications stay after it exits,
    /// and a click after it exits launches it and reaches its delegate.
    case agent
    /// Through the notification portal (`org.freedesktop.portal.Notification`), the interface
    /// a sandbox lets an app reach: pending requests fire only while the app runs, the
    /// delivered list is the app's own record (both kept in the app's state across launches),
    /// images and sounds go as sealed memory files from portal version 2, and a click after the
    /// app exited relaunches it when it serves `org.freedesktop.Application`.
    case portal
    /// Through GNOME Shell's own interface (`org.gtk.Notifications`, what GLib's
    /// `GNotification` uses), for an app with a desktop entry: GNOME keeps the notifications
    /// after the app exits and a click relaunches the app by D-Bus activation and reaches its
    /// delegate (the app must call ``UNUserNotificationCenter/serveApplicationInterface()``).
    /// Pending requests fire only while the app runs, the delivered list is the app's own
    /// record of this launch, a text-input action is a plain button (its response carries
    /// empty text), and there are no close reasons or dismiss responses.
    case gnome
}

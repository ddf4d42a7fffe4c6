/// Where a center's notifications live. A Linux addition: on Apple platforms the system's own
/// notification service always keeps them.
///
/// Choose one with ``UNUserNotificationCenter/configure(identity:bus:clock:persistent:engine:)``,
/// ``UNUserNotificationCenter/init(identity:bus:clock:persistent:stateDirectory:engine:)`` or
/// the environment variable `DESKTOPNOTIFICATIONS_ENGINE` (`agent`, `in-process` or `portal`);
/// without a choice a sandboxed app (Flatpak's `/.flatpak-info`, or `$SNAP`) uses the portal,
/// any other the agent when one is reachable. The "Porting from Apple platforms"
/// article says what differs.
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
}

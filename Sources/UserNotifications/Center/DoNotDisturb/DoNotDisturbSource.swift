/// Where a ``DoNotDisturbStatus`` was read: the notification server's own switch.
///
/// A Linux addition: Apple's Focus state is not visible to apps in this form (an app learns
/// only that a notification was held back). On Linux each server keeps its own switch; the
/// center asks the server that runs (by its `GetServerInformation` name) through that switch.
public enum DoNotDisturbSource: String, Sendable, Hashable, CaseIterable {
    /// GNOME Shell: the GSettings key `org.gnome.desktop.notifications` `show-banners`
    /// (off means Do Not Disturb).
    case gnomeShowBanners
    /// KDE Plasma: the `Inhibited` property of `org.freedesktop.Notifications`, on while any
    /// program holds an `Inhibit` or the person turned Do Not Disturb on.
    case plasmaInhibited
    /// dunst: the `paused` property of `org.dunstproject.cmd0` (`dunstctl set-paused`).
    case dunstPaused
    /// mako: the mode named `do-not-disturb` among its modes (`makoctl mode -a do-not-disturb`),
    /// the name mako's documentation gives the mode its configuration hides notifications in.
    case makoMode
    /// xfce4-notifyd: the xfconf setting `/do-not-disturb` of channel `xfce4-notifyd`.
    case xfceSetting
    /// A server with no switch the center knows.
    case unsupported
    /// No notification server answered.
    case noServer
}

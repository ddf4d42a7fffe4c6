/// Whether the desktop holds notifications back (Do Not Disturb), and where that was read.
///
/// A Linux addition (see ``UNUserNotificationCenter/doNotDisturb()``). While it is on, the
/// servers still take notifications: they go to the history without a banner (GNOME Shell,
/// Plasma, xfce4-notifyd, mako with its mode configured) or wait (dunst), and critical ones
/// (``UNNotificationInterruptionLevel/critical``, sent with critical urgency) are shown by GNOME
/// Shell and, by its default setting, by Plasma.
public struct DoNotDisturbStatus: Sendable, Hashable, CustomStringConvertible {
    /// `true` when Do Not Disturb is on, `false` when off, `nil` when it could not be told
    /// (a server without a switch, no server, or a switch that did not answer).
    public var isOn: Bool?
    /// The switch that was read.
    public var source: DoNotDisturbSource

    /// A status as read from `source`.
    public init(isOn: Bool?, source: DoNotDisturbSource) {
        self.isOn = isOn
        self.source = source
    }

    /// "on", "off" or "unknown", with the source in parentheses.
    public var description: String {
        let state = isOn.map { $0 ? "on" : "off" } ?? "unknown"
        return "\(state) (\(source.rawValue))"
    }
}

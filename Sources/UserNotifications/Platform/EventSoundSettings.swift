/// The desktop's own event-sound settings, read from GSettings `org.gnome.desktop.sound`
/// (GNOME, and the desktops that share its schemas): `event-sounds`, whether event sounds
/// play at all, and `theme-name`, the XDG sound theme they come from. Read afresh for each
/// sound, so that a change applies at once.
///
/// Read through ``GSettingsReader``. When GIO or the schema is not installed, sounds play from
/// libcanberra's default theme (`freedesktop`).
struct EventSoundSettings: Sendable, Equatable {
    /// Whether event sounds play (`event-sounds`).
    var isEnabled: Bool
    /// The sound theme (`theme-name`); `nil`: libcanberra's default.
    var themeName: String?

    /// What applies without the schema.
    static let unset = EventSoundSettings(isEnabled: true, themeName: nil)

    /// The session's settings now; ``unset`` when GIO or the schema is not installed.
    ///
    /// - Parameter keyfile: read this GSettings keyfile instead of the session's settings
    ///   (for tests).
    static func current(keyfile: String? = nil) -> EventSoundSettings {
        GSettingsReader.read("org.gnome.desktop.sound", keyfile: keyfile) { keys in
            let theme = keys.string("theme-name")
            return EventSoundSettings(isEnabled: keys.bool("event-sounds"), themeName: theme?.isEmpty == false ? theme : nil)
        } ?? .unset
    }
}

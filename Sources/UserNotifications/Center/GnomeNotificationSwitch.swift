/// GNOME's per-application notification switch (Settings → Notifications → the app), read
/// from GSettings: `org.gnome.desktop.notifications.application` at
/// `/org/gnome/desktop/notifications/application/<name>/`, key `enable`.
///
/// Read through ``GSettingsReader`` (GIO loaded at run time): a system without GLib simply has
/// no switch, and the package builds without GLib's headers.
enum GnomeNotificationSwitch {
    /// Whether the person turned notifications off for `appID`; `false` when GIO or the
    /// schema is not installed (not a GNOME system) or nothing was set.
    ///
    /// - Parameter keyfile: read this GSettings keyfile instead of the session's settings
    ///   (for tests).
    static func isTurnedOff(appID: String, keyfile: String? = nil) -> Bool {
        let path = "/org/gnome/desktop/notifications/application/\(settingsName(appID))/"
        return GSettingsReader.read("org.gnome.desktop.notifications.application", path: path, keyfile: keyfile) { !$0.bool("enable") }
            ?? false
    }

    /// GNOME's `show-banners` (`org.gnome.desktop.notifications`): `false` while Do Not
    /// Disturb is on; `nil` when GIO or the schema is not installed (not a GNOME system).
    ///
    /// - Parameter keyfile: read this GSettings keyfile instead of the session's settings
    ///   (for tests).
    static func showsBanners(keyfile: String? = nil) -> Bool? {
        GSettingsReader.read("org.gnome.desktop.notifications", keyfile: keyfile) { $0.bool("show-banners") }
    }

    /// GNOME's name for an application's settings: the desktop id in lower case, with every
    /// character outside `[a-z0-9]` written as `-`.
    static func settingsName(_ appID: String) -> String {
        String(appID.lowercased().unicodeScalars.map { scalar -> Character in
            ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) ? Character(scalar) : "-"
        })
    }
}

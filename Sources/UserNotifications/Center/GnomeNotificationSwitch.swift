/// GNOME's per-application notification switch (Settings → Notifications → the app), read
/// from GSettings: `org.gnome.desktop.notifications.application` at
/// `/org/gnome/desktop/notifications/application/<name>/`, key `enable`.
///
/// GIO is loaded when first needed (``GIOLibrary``), not linked: a system without GLib simply
/// has no switch, and the package builds without GLib's headers.
enum GnomeNotificationSwitch {
    private typealias SourceDefault = @convention(c) () -> OpaquePointer?
    private typealias SourceLookup = @convention(c) (OpaquePointer?, UnsafePointer<CChar>, Int32) -> OpaquePointer?
    private typealias Release = @convention(c) (OpaquePointer?) -> Void
    private typealias NewSettings = @convention(c) (OpaquePointer?, OpaquePointer?, UnsafePointer<CChar>) -> OpaquePointer?
    private typealias GetBoolean = @convention(c) (OpaquePointer?, UnsafePointer<CChar>) -> Int32
    private typealias KeyfileBackend = @convention(c) (UnsafePointer<CChar>, UnsafePointer<CChar>, UnsafePointer<CChar>?) -> OpaquePointer?

    private struct GIO: @unchecked Sendable {
        let sourceDefault: SourceDefault
        let sourceLookup: SourceLookup
        let schemaUnref: Release
        let newSettings: NewSettings
        let getBoolean: GetBoolean
        let objectUnref: Release
        let keyfileBackend: KeyfileBackend
    }

    private static let gio: GIO? = {
        guard let library = GIOLibrary.shared,
              let sourceDefault = library.function("g_settings_schema_source_get_default", as: SourceDefault.self),
              let sourceLookup = library.function("g_settings_schema_source_lookup", as: SourceLookup.self),
              let schemaUnref = library.function("g_settings_schema_unref", as: Release.self),
              let newSettings = library.function("g_settings_new_full", as: NewSettings.self),
              let getBoolean = library.function("g_settings_get_boolean", as: GetBoolean.self),
              let objectUnref = library.function("g_object_unref", as: Release.self),
              let keyfileBackend = library.function("g_keyfile_settings_backend_new", as: KeyfileBackend.self) else { return nil }
        return GIO(
            sourceDefault: sourceDefault, sourceLookup: sourceLookup, schemaUnref: schemaUnref,
            newSettings: newSettings, getBoolean: getBoolean, objectUnref: objectUnref, keyfileBackend: keyfileBackend)
    }()

    /// Whether the person turned notifications off for `appID`; `false` when GIO or the
    /// schema is not installed (not a GNOME system) or nothing was set.
    ///
    /// - Parameter keyfile: read this GSettings keyfile instead of the session's settings
    ///   (for tests).
    static func isTurnedOff(appID: String, keyfile: String? = nil) -> Bool {
        guard let gio, let source = gio.sourceDefault(),
              let schema = gio.sourceLookup(source, "org.gnome.desktop.notifications.application", 1) else { return false }
        defer { gio.schemaUnref(schema) }
        let backend = keyfile.flatMap { gio.keyfileBackend($0, "/", nil) }
        defer { if let backend { gio.objectUnref(backend) } }
        let path = "/org/gnome/desktop/notifications/application/\(settingsName(appID))/"
        guard let settings = gio.newSettings(schema, backend, path) else { return false }
        defer { gio.objectUnref(settings) }
        return gio.getBoolean(settings, "enable") == 0
    }

    /// GNOME's `show-banners` (`org.gnome.desktop.notifications`): `false` while Do Not
    /// Disturb is on; `nil` when GIO or the schema is not installed (not a GNOME system).
    ///
    /// - Parameter keyfile: read this GSettings keyfile instead of the session's settings
    ///   (for tests).
    static func showsBanners(keyfile: String? = nil) -> Bool? {
        guard let gio, let source = gio.sourceDefault(),
              let schema = gio.sourceLookup(source, "org.gnome.desktop.notifications", 1) else { return nil }
        defer { gio.schemaUnref(schema) }
        let backend = keyfile.flatMap { gio.keyfileBackend($0, "/", nil) }
        defer { if let backend { gio.objectUnref(backend) } }
        guard let settings = gio.newSettings(schema, backend, "/org/gnome/desktop/notifications/") else { return nil }
        defer { gio.objectUnref(settings) }
        return gio.getBoolean(settings, "show-banners") != 0
    }

    /// GNOME's name for an application's settings: the desktop id in lower case, with every
    /// character outside `[a-z0-9]` written as `-`.
    static func settingsName(_ appID: String) -> String {
        String(appID.lowercased().unicodeScalars.map { scalar -> Character in
            ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) ? Character(scalar) : "-"
        })
    }
}

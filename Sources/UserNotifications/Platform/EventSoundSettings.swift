/// The desktop's own event-sound settings, read from GSettings `org.gnome.desktop.sound`
/// (GNOME, and the desktops that share its schemas): `event-sounds`, whether event sounds
/// play at all, and `theme-name`, the XDG sound theme they come from. Read afresh for each
/// sound, so that a change applies at once.
///
/// GIO is loaded when first needed (``GIOLibrary``), not linked. When GIO or the schema is not
/// installed, sounds play from libcanberra's default theme (`freedesktop`).
struct EventSoundSettings: Sendable, Equatable {
    /// Whether event sounds play (`event-sounds`).
    var isEnabled: Bool
    /// The sound theme (`theme-name`); `nil`: libcanberra's default.
    var themeName: String?

    /// What applies without the schema.
    static let unset = EventSoundSettings(isEnabled: true, themeName: nil)

    private typealias SourceDefault = @convention(c) () -> OpaquePointer?
    private typealias SourceLookup = @convention(c) (OpaquePointer?, UnsafePointer<CChar>, Int32) -> OpaquePointer?
    private typealias Release = @convention(c) (OpaquePointer?) -> Void
    private typealias NewSettings = @convention(c) (OpaquePointer?, OpaquePointer?, UnsafePointer<CChar>?) -> OpaquePointer?
    private typealias GetBoolean = @convention(c) (OpaquePointer?, UnsafePointer<CChar>) -> Int32
    private typealias GetString = @convention(c) (OpaquePointer?, UnsafePointer<CChar>) -> UnsafeMutablePointer<CChar>?
    private typealias KeyfileBackend = @convention(c) (UnsafePointer<CChar>, UnsafePointer<CChar>, UnsafePointer<CChar>?) -> OpaquePointer?

    private struct GIO: @unchecked Sendable {
        let sourceDefault: SourceDefault
        let sourceLookup: SourceLookup
        let schemaUnref: Release
        let newSettings: NewSettings
        let getBoolean: GetBoolean
        let getString: GetString
        let free: GIOLibrary.Free
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
              let getString = library.function("g_settings_get_string", as: GetString.self),
              let free = library.function("g_free", as: GIOLibrary.Free.self),
              let objectUnref = library.function("g_object_unref", as: Release.self),
              let keyfileBackend = library.function("g_keyfile_settings_backend_new", as: KeyfileBackend.self) else { return nil }
        return GIO(
            sourceDefault: sourceDefault, sourceLookup: sourceLookup, schemaUnref: schemaUnref, newSettings: newSettings,
            getBoolean: getBoolean, getString: getString, free: free, objectUnref: objectUnref, keyfileBackend: keyfileBackend)
    }()

    /// The session's settings now; ``unset`` when GIO or the schema is not installed.
    ///
    /// - Parameter keyfile: read this GSettings keyfile instead of the session's settings
    ///   (for tests).
    static func current(keyfile: String? = nil) -> EventSoundSettings {
        guard let gio, let source = gio.sourceDefault(),
              let schema = gio.sourceLookup(source, "org.gnome.desktop.sound", 1) else { return .unset }
        defer { gio.schemaUnref(schema) }
        let backend = keyfile.flatMap { gio.keyfileBackend($0, "/", nil) }
        defer { if let backend { gio.objectUnref(backend) } }
        guard let settings = gio.newSettings(schema, backend, nil) else { return .unset }
        defer { gio.objectUnref(settings) }
        let enabled = gio.getBoolean(settings, "event-sounds") != 0
        var theme: String?
        if let name = gio.getString(settings, "theme-name") {
            theme = String(cString: name)
            gio.free(name)
        }
        return EventSoundSettings(isEnabled: enabled, themeName: theme?.isEmpty == false ? theme : nil)
    }
}

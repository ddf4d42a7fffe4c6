/// Reads GSettings keys through GIO, loaded when first needed (``GIOLibrary``), not linked:
/// the one reader of the desktop's settings (GNOME's per-app switch and `show-banners`, the
/// event-sound settings). Nothing is read when GIO or the schema is not installed.
enum GSettingsReader {
    fileprivate typealias SourceDefault = @convention(c) () -> OpaquePointer?
    fileprivate typealias SourceLookup = @convention(c) (OpaquePointer?, UnsafePointer<CChar>, Int32) -> OpaquePointer?
    fileprivate typealias Release = @convention(c) (OpaquePointer?) -> Void
    fileprivate typealias NewSettings = @convention(c) (OpaquePointer?, OpaquePointer?, UnsafePointer<CChar>?) -> OpaquePointer?
    fileprivate typealias GetBoolean = @convention(c) (OpaquePointer?, UnsafePointer<CChar>) -> Int32
    fileprivate typealias GetString = @convention(c) (OpaquePointer?, UnsafePointer<CChar>) -> UnsafeMutablePointer<CChar>?
    fileprivate typealias KeyfileBackend = @convention(c) (UnsafePointer<CChar>, UnsafePointer<CChar>, UnsafePointer<CChar>?) -> OpaquePointer?

    fileprivate struct GIO: @unchecked Sendable {
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

    /// One settings object's keys, valid while ``read(_:path:keyfile:_:)`` runs its body.
    struct Keys {
        fileprivate let gio: GIO
        fileprivate let settings: OpaquePointer

        /// The boolean `key`.
        func bool(_ key: String) -> Bool { gio.getBoolean(settings, key) != 0 }

        /// The string `key`.
        func string(_ key: String) -> String? {
            guard let value = gio.getString(settings, key) else { return nil }
            defer { gio.free(value) }
            return String(cString: value)
        }
    }

    /// Runs `body` on the settings of `schema` (at `path` for a relocatable schema); `nil` when
    /// GIO or the schema is not installed.
    ///
    /// - Parameter keyfile: read this GSettings keyfile instead of the session's settings
    ///   (for tests).
    static func read<T>(_ schema: String, path: String? = nil, keyfile: String? = nil, _ body: (Keys) -> T) -> T? {
        guard let gio, let source = gio.sourceDefault(), let found = gio.sourceLookup(source, schema, 1) else { return nil }
        defer { gio.schemaUnref(found) }
        let backend = keyfile.flatMap { gio.keyfileBackend($0, "/", nil) }
        defer { if let backend { gio.objectUnref(backend) } }
        guard let settings = gio.newSettings(found, backend, path) else { return nil }
        defer { gio.objectUnref(settings) }
        return body(Keys(gio: gio, settings: settings))
    }
}

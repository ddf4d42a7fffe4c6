import DBus

/// Why an app could not be launched for a notification response.
package enum ApplicationLaunchError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The app id cannot name a desktop entry (empty, with `/`, starting with `.`, too long) or,
    /// for a D-Bus-activatable entry, is not a valid bus name.
    case invalidApplicationID(String)
    /// No `<app-id>.desktop` in any of the folders searched, or the first one found is `Hidden`.
    case noDesktopEntry(appID: String, searched: [String])
    /// The desktop entry exists but cannot be read.
    case unreadableDesktopEntry(path: String, reason: String)
    /// The desktop entry breaks the format, or its Exec key the quoting rules.
    case invalidDesktopEntry(path: String, DesktopEntryError)
    /// The entry's `Type` is not `Application`.
    case notAnApplication(path: String, type: String?)
    /// The entry is neither D-Bus activatable nor has an `Exec` key.
    case noExec(path: String)
    /// Starting the program failed with `errno` (`ENOENT`: not found on `PATH`).
    case spawnFailed(program: String, errno: Int32)
    /// The `ActivateAction` call failed.
    case dbus(appID: String, DBusError)

    package var description: String {
        switch self {
        case .invalidApplicationID(let id):
            "\(id.debugDescription) is not an app id (a reverse-DNS name such as org.example.App)"
        case .noDesktopEntry(let id, let searched):
            "no desktop entry \(id).desktop (or it is Hidden) in \(searched.joined(separator: ", ")); install one there"
        case .unreadableDesktopEntry(let path, let reason):
            "cannot read \(path): \(reason)"
        case .invalidDesktopEntry(let path, let error):
            "\(path): \(error)"
        case .notAnApplication(let path, let type):
            "\(path) has Type=\(type ?? "(none)"); only Type=Application can be launched"
        case .noExec(let path):
            "\(path) has no Exec key and does not say DBusActivatable=true; add one of them"
        case .spawnFailed(let program, let code):
            "could not start \(program): \(BoundedFile.describe(errno: code))"
        case .dbus(let id, let error):
            "ActivateAction on \(id) failed: \(error)"
        }
    }
}

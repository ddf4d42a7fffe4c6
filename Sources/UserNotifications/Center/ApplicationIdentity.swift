import Foundation

/// Who the app is on the desktop: the id that names its desktop entry, the name shown as
/// `app_name`, and its icon. A Linux addition; Apple takes all three from the app bundle.
public struct ApplicationIdentity: Sendable, Hashable {
    /// The reverse-DNS id, also the desktop-entry name (`org.example.App` for
    /// `org.example.App.desktop`), used for the `desktop-entry` hint, the launcher badge and
    /// the state folder `$XDG_STATE_HOME/<id>/`.
    public var id: String
    /// The display name, sent as `app_name`.
    public var displayName: String
    /// An icon name from the icon theme, or an absolute path; empty for none.
    public var icon: String

    /// Creates an identity.
    public init(id: String, displayName: String, icon: String = "") {
        self.id = id
        self.displayName = displayName
        self.icon = icon
    }

    /// The identity derived when none is configured: `DESKTOPNOTIFICATIONS_APP_ID` /
    /// `DESKTOPNOTIFICATIONS_APP_NAME` / `DESKTOPNOTIFICATIONS_APP_ICON` when set, else the
    /// bundle identifier and name when the app has an Info.plist, else the executable name.
    public static var derived: ApplicationIdentity {
        let environment = ProcessInfo.processInfo.environment
        let executable = (CommandLine.arguments.first.map { URL(fileURLWithPath: $0).lastPathComponent }).flatMap { $0.isEmpty ? nil : $0 } ?? "app"
        let id = environment["DESKTOPNOTIFICATIONS_APP_ID"] ?? Bundle.main.bundleIdentifier ?? executable
        let name = environment["DESKTOPNOTIFICATIONS_APP_NAME"]
            ?? (Bundle.main.object(forInfoDictionaryKey: "CFBundleName") as? String) ?? executable
        let icon = environment["DESKTOPNOTIFICATIONS_APP_ICON"] ?? ""
        return ApplicationIdentity(id: id, displayName: name, icon: icon)
    }

    /// Where the center keeps its state: `$XDG_STATE_HOME/<id>/`, by default
    /// `~/.local/state/<id>/`.
    public var stateDirectory: URL {
        let environment = ProcessInfo.processInfo.environment
        let base = environment["XDG_STATE_HOME"].flatMap { $0.hasPrefix("/") ? URL(fileURLWithPath: $0) : nil }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/state")
        let safe = id.map { $0 == "/" ? "_" : $0 }
        return base.appendingPathComponent(String(safe), isDirectory: true)
    }
}

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
    ///
    /// - Throws: ``InvalidApplicationIdentifierError`` when ``id`` cannot name a folder (see
    ///   ``validate(id:)``): an id such as `..` would put the state outside `$XDG_STATE_HOME`.
    public var stateDirectory: URL {
        get throws(InvalidApplicationIdentifierError) {
            try Self.validate(id: id)
            return Self.stateHome.appendingPathComponent(id, isDirectory: true)
        }
    }

    /// `$XDG_STATE_HOME` when it is an absolute path, else `~/.local/state`.
    package static var stateHome: URL {
        ProcessInfo.processInfo.environment["XDG_STATE_HOME"].flatMap { $0.hasPrefix("/") ? URL(fileURLWithPath: $0) : nil }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/state")
    }

    /// The longest id, in bytes: a file name's limit (255) less `.desktop`.
    public static let maximumIDLength = 247

    /// Checks that `id` can name a desktop entry and a folder: dot-separated names of ASCII
    /// letters, digits, `_` and `-` (a D-Bus well-known name's characters, as the
    /// desktop-entry specification asks of an id), none of them empty, so never `.`, `..` or
    /// the empty id, and at most ``maximumIDLength`` bytes. A Linux addition: Apple checks a
    /// bundle identifier when the app is built.
    ///
    /// - Throws: ``InvalidApplicationIdentifierError`` naming the id and what is wrong.
    public static func validate(id: String) throws(InvalidApplicationIdentifierError) {
        func invalid(_ reason: String) -> InvalidApplicationIdentifierError { .init(id: id, reason: reason) }
        guard !id.isEmpty else { throw invalid("it is empty") }
        guard id.utf8.count <= maximumIDLength else { throw invalid("it is longer than \(maximumIDLength) bytes") }
        guard id.utf8.allSatisfy(isIDByte) else {
            throw invalid("only ASCII letters, digits, '_', '-' and '.' may appear in it")
        }
        guard !hasEmptyName(id) else {
            throw invalid("'.' must separate names, so it cannot start or end the id or follow another '.'")
        }
    }

    /// Whether a '.' starts or ends `id` or follows another (the agent checks the id of every
    /// call it takes: no array of names is made for it).
    private static func hasEmptyName(_ id: String) -> Bool {
        var previous = UInt8(ascii: ".")
        for byte in id.utf8 {
            if byte == UInt8(ascii: "."), previous == UInt8(ascii: ".") { return true }
            previous = byte
        }
        return previous == UInt8(ascii: ".")
    }

    private static func isIDByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."):
            true
        default:
            false
        }
    }
}

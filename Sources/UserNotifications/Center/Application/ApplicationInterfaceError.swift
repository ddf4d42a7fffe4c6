/// Why ``UNUserNotificationCenter/serveApplicationInterface()`` could not serve
/// `org.freedesktop.Application`. A Linux addition: Apple launches apps without D-Bus.
public enum ApplicationInterfaceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The app id is not a well-known D-Bus name (dot-separated names of ASCII letters,
    /// digits, `_` and `-`, at least two, none starting with a digit), so it cannot own its
    /// bus name: the desktop-entry specification asks this of a D-Bus activatable app's id.
    case invalidApplicationID(String)
    /// Another connection owns the app id's bus name: another process of the app serves it.
    case nameTaken(String)
    /// The bus could not be reached, or refused the name; the D-Bus error's text.
    case bus(String)

    public var description: String {
        switch self {
        case .invalidApplicationID(let id): "the app id \(id.debugDescription) is not a well-known D-Bus name"
        case .nameTaken(let id): "another connection owns the bus name \(id)"
        case .bus(let detail): "the bus refused to serve org.freedesktop.Application: \(detail)"
        }
    }
}

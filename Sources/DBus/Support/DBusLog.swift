import DesktopNotificationsSupport
import Logging

/// The D-Bus layer's logger (label `org.desktopnotifications.dbus`): what it drops with nobody
/// to tell (a signal it cannot decode, a match rule it could not remove, a message it could not
/// send after the caller returned) is said here. The app chooses the backend with
/// `LoggingSystem.bootstrap`; tests may put in a logger of their own.
package enum DBusLog {
    private static let current = Locked(Logger(label: "org.desktopnotifications.dbus"))

    /// The logger in use.
    package static var logger: Logger { current.withLock { $0 } }

    /// Uses `logger` from now on (for tests, which cannot bootstrap the logging system twice).
    package static func use(_ logger: Logger) {
        current.withLock { $0 = logger }
    }

    /// `text` from a peer, fit for a log line: control and format characters (line breaks,
    /// escapes, bidirectional overrides) become U+FFFD.
    package static func clean(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { scalar in
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator: "\u{FFFD}"
            default: scalar
            }
        }))
    }
}

import Logging

/// The center's logger: what it cannot return to a caller (a delegate that never answers, a
/// response dropped from a full queue, a save that runs after its operation returned, a state
/// file set aside) is said here, with the notification's identifier and never its text. The
/// app chooses the backend with `LoggingSystem.bootstrap`.
enum CenterLog {
    static let logger = Logger(label: "org.desktopnotifications.center")

    /// `text` (a path, an id, an error's description) with its control characters shown as
    /// `?`, so that nothing reaches a terminal as a command.
    static func printable(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { scalar in
            scalar.properties.generalCategory == .control ? "?" : scalar
        }))
    }
}

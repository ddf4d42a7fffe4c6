import FreedesktopNotifications
import Logging

/// The center's logger: what it cannot return to a caller (a delegate that never answers, a
/// response dropped from a full queue, a save that runs after its operation returned, a state
/// file set aside, a failed delivery of a trigger that fired) is said here, with the
/// notification's identifier and never its text. The app chooses the backend with
/// `LoggingSystem.bootstrap`.
enum CenterLog {
    static let logger = Logger(label: "org.desktopnotifications.center")

    /// An error as log metadata, on one line with control characters neutralised: its text
    /// may come from a bus peer.
    static func describe(_ error: any Error) -> Logger.MetadataValue {
        .string(TerminalText.singleLine(String(describing: error)))
    }
}

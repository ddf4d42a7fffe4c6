import DesktopNotificationsSupport
import FreedesktopNotifications
import Logging

/// The agent's logger (label `org.desktopnotifications.agent`): what it launched, whom it
/// refused, and what no caller can be told (a response dropped from a full queue, a state save
/// that failed). It never carries a notification's text or a response's parameter. The program
/// chooses the backend with `LoggingSystem.bootstrap`; tests may put in a logger of their own.
package enum AgentLog {
    private static let current = Locked(Logger(label: "org.desktopnotifications.agent"))

    /// The logger in use.
    package static var logger: Logger { current.withLock { $0 } }

    /// Uses `logger` from now on (for tests, which cannot bootstrap the logging system twice).
    package static func use(_ logger: Logger) {
        current.withLock { $0 = logger }
    }

    /// An error as log metadata, on one line with control characters neutralised: its text
    /// may come from a bus peer.
    package static func describe(_ error: any Error) -> Logger.MetadataValue {
        .string(TerminalText.singleLine(String(describing: error)))
    }
}

import DesktopNotificationsSupport
import Logging

/// The agent's logger (label `org.desktopnotifications.agent`): what it launched and whom it
/// refused. It never carries a notification's text or a response's parameter. The program
/// chooses the backend with `LoggingSystem.bootstrap`; tests may put in a logger of their own.
package enum AgentLog {
    private static let current = Locked(Logger(label: "org.desktopnotifications.agent"))

    /// The logger in use.
    package static var logger: Logger { current.withLock { $0 } }

    /// Uses `logger` from now on (for tests, which cannot bootstrap the logging system twice).
    package static func use(_ logger: Logger) {
        current.withLock { $0 = logger }
    }
}

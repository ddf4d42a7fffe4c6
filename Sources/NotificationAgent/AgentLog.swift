import FreedesktopNotifications
import Logging

/// The agent's log, for what no caller can be told: a response dropped from a full queue, a
/// state save that failed, a launch that did not happen. Never a notification's text.
enum AgentLog {
    static let logger = Logger(label: "org.desktopnotifications.agent")

    /// An error as log metadata, on one line with control characters neutralised: its text
    /// may come from a bus peer.
    static func describe(_ error: any Error) -> Logger.MetadataValue {
        .string(TerminalText.singleLine(String(describing: error)))
    }
}

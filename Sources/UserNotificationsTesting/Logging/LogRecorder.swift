import DesktopNotificationsSupport
import Logging

/// Keeps what is logged through its loggers, for a test that checks what the library logs.
///
/// Make a `Logger` with ``logger(label:)`` and give it to the code under test, then read
/// ``entries`` or ``lines``. Not part of Apple's UserNotifications: the library logs through
/// swift-log, and this is a handler of that API.
public final class LogRecorder: Sendable {
    /// One thing logged.
    public struct Entry: Sendable, Equatable {
        /// Its level.
        public let level: Logger.Level
        /// Its message.
        public let message: String
        /// Its metadata, each value as text.
        public let metadata: [String: String]

        /// `level message`, then each metadata `key=value`, sorted by key.
        public var line: String {
            ([level.rawValue, message] + metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }).joined(separator: " ")
        }
    }

    private let kept = Locked<[Entry]>([])

    /// A recorder that has kept nothing yet.
    public init() {}

    /// What was logged, in order.
    public var entries: [Entry] { kept.withLock { $0 } }

    /// What was logged, one ``Entry/line`` each.
    public var lines: [String] { entries.map(\.line) }

    /// The messages logged with `identifier` as their `identifier` metadata.
    public func messages(about identifier: String) -> [String] {
        entries.filter { $0.metadata["identifier"] == identifier }.map(\.message)
    }

    /// A logger labelled `label` that logs every level into this recorder.
    public func logger(label: String) -> Logger {
        Logger(label: label) { _ in Handler(recorder: self) }
    }

    private struct Handler: LogHandler {
        let recorder: LogRecorder
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { $1 }
            let entry = Entry(level: event.level, message: event.message.description, metadata: merged.mapValues(\.description))
            recorder.kept.withLock { $0.append(entry) }
        }
    }
}

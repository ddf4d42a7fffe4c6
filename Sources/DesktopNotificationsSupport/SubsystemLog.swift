import Logging

/// One of the package's loggers, named by its label: ``center`` (the app's
/// `UNUserNotificationCenter`), ``agent`` (the per-user agent) and ``dbus`` (the D-Bus layer).
/// Each says what its part cannot return to a caller (a response dropped from a full queue, a
/// save that ran after its operation returned, a signal that did not decode), never a
/// notification's text or a response's parameter. The program chooses the backend with
/// `LoggingSystem.bootstrap`; tests, which cannot bootstrap the logging system twice, put in a
/// logger of their own with ``use(_:)``.
package final class SubsystemLog: Sendable {
    /// The center's logger, `org.desktopnotifications.center`.
    package static let center = SubsystemLog(label: "org.desktopnotifications.center")
    /// The agent's logger, `org.desktopnotifications.agent`.
    package static let agent = SubsystemLog(label: "org.desktopnotifications.agent")
    /// The D-Bus layer's logger, `org.desktopnotifications.dbus`.
    package static let dbus = SubsystemLog(label: "org.desktopnotifications.dbus")

    /// The label of the logger it starts with.
    package let label: String
    private let current: Locked<Logger>

    /// A logger labelled `label`, until ``use(_:)`` puts in another.
    package init(label: String) {
        self.label = label
        current = Locked(Logger(label: label))
    }

    /// The logger in use.
    package var logger: Logger { current.withLock { $0 } }

    /// Uses `logger` from now on (for tests).
    package func use(_ logger: Logger) {
        current.withLock { $0 = logger }
    }

    /// Uses a logger of ``label`` again, as at the start.
    package func reset() {
        use(Logger(label: label))
    }

    /// An error as log metadata, ``clean(_:)``: its text may come from a bus peer.
    package static func describe(_ error: any Error) -> Logger.MetadataValue {
        .string(clean(String(describing: error)))
    }

    /// `text` from a peer, fit for one log line: control and format characters (line breaks,
    /// tabs, escapes, bidirectional overrides) become U+FFFD.
    package static func clean(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { scalar in
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator: "\u{FFFD}"
            default: scalar
            }
        }))
    }
}

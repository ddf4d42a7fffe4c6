import DesktopNotificationsSupport
import Logging
import Testing

@Suite("SubsystemLog: one logger type for the center, the agent and the D-Bus layer")
struct SubsystemLogTests {
    /// Keeps each line logged through it: level and message.
    private struct Recording: LogHandler {
        let lines: Locked<[String]>
        var logLevel: Logger.Level = .trace
        var metadata: Logger.Metadata = [:]

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            lines.withLock { $0.append("\(event.level) \(event.message)") }
        }
    }

    private struct PeerError: Error, CustomStringConvertible {
        let description: String
    }

    @Test("each subsystem keeps its label")
    func labels() {
        #expect(SubsystemLog.center.label == "org.desktopnotifications.center")
        #expect(SubsystemLog.agent.label == "org.desktopnotifications.agent")
        #expect(SubsystemLog.dbus.label == "org.desktopnotifications.dbus")
        #expect(SubsystemLog.center.logger.label == "org.desktopnotifications.center")
    }

    @Test("a logger put in with use(_:) takes what is logged from then on, for that subsystem alone")
    func use() {
        let log = SubsystemLog(label: "org.example.test")
        let other = SubsystemLog(label: "org.example.other")
        let lines = Locked<[String]>([])
        log.use(Logger(label: "org.example.test") { _ in Recording(lines: lines) })
        log.logger.warning("kept")
        other.logger.warning("not here")
        #expect(lines.withLock { $0 } == ["warning kept"])
    }

    @Test("a peer's text loses its control and format characters; an error is described so")
    func cleaning() {
        let text = "a\nb\u{1B}[31m\u{202E}c\td\u{200B}e"
        #expect(SubsystemLog.clean(text) == "a\u{FFFD}b\u{FFFD}[31m\u{FFFD}c\u{FFFD}d\u{FFFD}e")
        #expect(SubsystemLog.clean("plain été") == "plain été")
        #expect(SubsystemLog.describe(PeerError(description: "line\r\nbreak")) == .string("line\u{FFFD}\u{FFFD}break"))
    }
}

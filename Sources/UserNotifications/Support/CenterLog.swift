import Logging

/// The center's logger: what it cannot return to a caller (a delegate that never answers, a
/// response dropped from a full queue, a save that runs after its operation returned, a state
/// file set aside) is said here, with the notification's identifier and never its text. The
/// app chooses the backend with `LoggingSystem.bootstrap`.
enum CenterLog {
    static let logger = Logger(label: "org.desktopnotifications.center")
}

import Foundation

/// The center's side of `org.freedesktop.Application`: the app's handlers and the server,
/// once ``UNUserNotificationCenter/serveApplicationInterface()`` has started it.
struct ApplicationSide: Sendable {
    /// ``UNUserNotificationCenter/applicationActivateHandler``.
    var activateHandler: (@MainActor @Sendable (ApplicationActivation) -> Void)?
    /// ``UNUserNotificationCenter/applicationOpenHandler``.
    var openHandler: (@MainActor @Sendable ([URL], ApplicationActivation) -> Void)?
    /// The server, once it serves.
    var server: ApplicationInterfaceServer?
    /// A call of ``UNUserNotificationCenter/serveApplicationInterface()`` is starting it.
    var starting = false
}

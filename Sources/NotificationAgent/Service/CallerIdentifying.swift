public import DBus
public import UserNotifications

/// Decides whether a connection may act for an app id.
///
/// The agent asks it at each `Connect`; a connection that connected for an app id is bound to
/// it, and every other call for that id must come from the bound connection.
public protocol CallerIdentifying: Sendable {
    /// Whether `sender` (a unique bus name, of process `senderPID`) may act for `appID`, which
    /// is bound now to `boundSender` of process `boundPID` (`boundSender` `nil`: bound to no
    /// live connection); `connection` is the agent's, to ask the bus about `sender`.
    ///
    /// - Throws: ``UserNotifications/NotificationAgentError/notAllowed(_:)`` to refuse.
    func authorize(
        sender: String, senderPID: UInt32?, appID: String, boundSender: String?, boundPID: UInt32?, on connection: DBusConnection
    ) async throws(NotificationAgentError)
}

/// The caller identification used when none is given: an app id is what its caller declares,
/// as any process of the same user may (same user, same trust domain), with one rule: while a
/// live connection of one process is bound to an id, a connection of another process claiming
/// it is refused. A second connection of the same process (the same PID) takes the id over.
///
/// It cannot tell a sandboxed or systemd-scoped app's real id; `notify agent` uses
/// ``CallerIdentityResolver``, which reads `/.flatpak-info` and the unit name and keeps this
/// rule for callers that neither names.
public struct DeclaredAppIdentity: CallerIdentifying {
    /// Creates the identification.
    public init() {}

    /// Refuses a claim on an id bound to a live connection of another process.
    public func authorize(
        sender: String, senderPID: UInt32?, appID: String, boundSender: String?, boundPID: UInt32?, on connection: DBusConnection
    ) async throws(NotificationAgentError) {
        try authorizeDeclared(sender: sender, senderPID: senderPID, appID: appID, boundSender: boundSender, boundPID: boundPID)
    }

    /// The first-binding rule alone: what ``authorize(sender:senderPID:appID:boundSender:boundPID:on:)``
    /// decides, without asking the bus.
    package func authorizeDeclared(
        sender: String, senderPID: UInt32?, appID: String, boundSender: String?, boundPID: UInt32?
    ) throws(NotificationAgentError) {
        guard let boundSender, boundSender != sender else { return }
        guard let senderPID, senderPID == boundPID else {
            throw .notAllowed("\(appID) is connected from another process")
        }
    }
}

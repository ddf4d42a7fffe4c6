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
    /// - Returns: how the caller is confined, which decides what the agent takes from it
    ///   (a sandboxed caller hands attachments as descriptors, names icons from the theme, and
    ///   sees its own status alone).
    /// - Throws: ``UserNotifications/NotificationAgentError/notAllowed(_:)`` to refuse.
    func authorize(
        sender: String, senderPID: UInt32?, appID: String, boundSender: String?, boundPID: UInt32?, on connection: DBusConnection
    ) async throws(NotificationAgentError) -> CallerConfinement

    /// How `sender` is confined, for a call that names no app (`Status`).
    ///
    /// - Throws: ``UserNotifications/NotificationAgentError/notAllowed(_:)`` for a caller the
    ///   agent serves not at all (another user's).
    func confinement(of sender: String, on connection: DBusConnection) async throws(NotificationAgentError) -> CallerConfinement
}

extension CallerIdentifying {
    /// ``CallerConfinement/host``: an identification that cannot tell a sandbox takes every
    /// caller as the user's own.
    public func confinement(of sender: String, on connection: DBusConnection) async throws(NotificationAgentError) -> CallerConfinement {
        .host
    }
}

/// How a caller the agent admitted is confined.
public enum CallerConfinement: Sendable, Hashable {
    /// A process of the agent's user on the host, in the user's own trust domain: it may name
    /// files by path (opened by the agent without following links, regular files only) and
    /// icons by path, and may read the whole `Status`.
    case host
    /// A sandboxed app (Flatpak): its files reach the agent as descriptors only (`AddFiles`),
    /// its icons are theme names, and `Status` tells it about itself alone.
    case sandboxed
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
    ///
    /// - Returns: ``CallerConfinement/host``: this identification cannot tell a sandbox.
    public func authorize(
        sender: String, senderPID: UInt32?, appID: String, boundSender: String?, boundPID: UInt32?, on connection: DBusConnection
    ) async throws(NotificationAgentError) -> CallerConfinement {
        try authorizeDeclared(sender: sender, senderPID: senderPID, appID: appID, boundSender: boundSender, boundPID: boundPID)
        return .host
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

import DBus
import UserNotifications

extension CallerIdentityResolver: CallerIdentifying {
    /// Lets `sender` act for `appID` when its sandbox or systemd unit names that id (such an id
    /// is authoritative: it may take over a binding), or, when neither names an id, by
    /// ``DeclaredAppIdentity``'s first-binding rule. A caller of another user, one whose
    /// sandbox or unit names another app, or one the bus cannot tell about is refused.
    ///
    /// - Throws: ``UserNotifications/NotificationAgentError/notAllowed(_:)`` with the reason.
    package func authorize(
        sender: String, senderPID: UInt32?, appID: String, boundSender: String?, boundPID: UInt32?, on connection: DBusConnection
    ) async throws(NotificationAgentError) {
        let identity: CallerIdentity
        do {
            identity = try await caller(sender, on: connection).identity
            _ = try identity.verify(claimed: appID)
        } catch {
            throw .notAllowed(error.description)
        }
        guard case .declared = identity else { return }
        try DeclaredAppIdentity().authorizeDeclared(
            sender: sender, senderPID: senderPID, appID: appID, boundSender: boundSender, boundPID: boundPID)
    }
}

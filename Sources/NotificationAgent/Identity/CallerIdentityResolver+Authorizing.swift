import DBus
import UserNotifications

extension CallerIdentityResolver: CallerIdentifying {
    /// Lets `sender` act for `appID` when its sandbox or systemd unit names that id, or, when
    /// neither names an id, on its own claim; in every case by ``DeclaredAppIdentity``'s
    /// first-binding rule: while a live connection of another process is bound to the id, the
    /// claim is refused, whoever makes it. A sandbox's word never takes over a live app, since
    /// a process of the user's own can fake a sandbox (``CallerIdentity``). A caller of another
    /// user, one whose sandbox or unit names another app, or one the bus cannot tell about is
    /// refused.
    ///
    /// - Returns: ``CallerConfinement/sandboxed`` for a Flatpak app, else ``CallerConfinement/host``.
    /// - Throws: ``UserNotifications/NotificationAgentError/notAllowed(_:)`` with the reason.
    package func authorize(
        sender: String, senderPID: UInt32?, appID: String, boundSender: String?, boundPID: UInt32?, on connection: DBusConnection
    ) async throws(NotificationAgentError) -> CallerConfinement {
        let identity: CallerIdentity
        do {
            identity = try await caller(sender, on: connection).identity
            _ = try identity.verify(claimed: appID)
        } catch {
            throw .notAllowed(error.description)
        }
        try DeclaredAppIdentity().authorizeDeclared(
            sender: sender, senderPID: senderPID, appID: appID, boundSender: boundSender, boundPID: boundPID)
        if case .flatpak = identity { return .sandboxed }
        return .host
    }

    /// How `sender` is confined: ``CallerConfinement/sandboxed`` for a Flatpak app (or a
    /// process whose sandbox information cannot be used), else ``CallerConfinement/host``.
    ///
    /// - Throws: ``UserNotifications/NotificationAgentError/notAllowed(_:)`` for a caller of
    ///   another user or one the bus cannot tell about.
    package func confinement(of sender: String, on connection: DBusConnection) async throws(NotificationAgentError) -> CallerConfinement {
        do {
            if case .flatpak = try await caller(sender, on: connection).identity { return .sandboxed }
            return .host
        } catch .unreadableSandboxInfo {
            return .sandboxed
        } catch {
            throw .notAllowed(error.description)
        }
    }
}

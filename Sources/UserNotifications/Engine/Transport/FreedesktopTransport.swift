import FreedesktopNotifications

/// The freedesktop notification service (`org.freedesktop.Notifications`) as the engine's
/// transport: a post is a `Notify` made by ``NotificationBridge``, a withdrawal a
/// `CloseNotification`, the events the server's signals as ``NotificationsClient`` reads them.
final class FreedesktopTransport: NotificationTransport {
    let client: NotificationsClient
    /// Whose notifications these are: the bridge's `desktop-entry` and the launcher badge.
    let identity: ApplicationIdentity

    init(client: NotificationsClient, identity: ApplicationIdentity) {
        self.client = client
        self.identity = identity
    }

    var kind: NotificationEngineKind { .inProcess }
    var serverOwner: String? { client.serverOwner }

    func openChannel(_ receive: @escaping @Sendable (NotificationChannelItem) -> Void) -> NotificationChannel {
        client.openChannel(receive)
    }

    func connect() async throws(NotificationsError) {
        _ = try await client.connect()
    }

    /// Posts the `Notify` of `post`; the sound it asks for is played here when the server has
    /// no `sound` capability (dunst, mako, xfce4-notifyd).
    func post(_ post: TransportPost, tag: UInt64, on channel: NotificationChannel, keepSound: (EventSound) -> Void) {
        var arguments = NotificationBridge(identity: identity, capabilities: post.capabilities).notifyRequest(
            for: post.request, category: post.category, options: post.options, replacesID: post.replacesID)
        if post.resident { arguments.hints.resident = true }
        if let sound = EventSound(hints: arguments.hints, capabilities: post.capabilities) { keepSound(sound) }
        client.post(arguments, tag: tag, on: channel)
    }

    func withdraw(id: UInt32, identifier: String) async throws(NotificationsError) {
        try await client.closeNotification(id: id)
    }

    func capabilityAnswer() async throws(NotificationsError) -> (capabilities: [NotificationCapability], server: String?) {
        try await client.capabilityAnswer()
    }

    func isServerAvailable() async throws(NotificationsError) -> Bool {
        try await client.isServerAvailable()
    }

    func setBadge(appID: String, count: Int) async throws(NotificationsError) {
        try await client.setBadge(appID: appID, count: count)
    }
}

import DesktopNotificationsSupport
import FreedesktopNotifications

/// The freedesktop notification service (`org.freedesktop.Notifications`) as the engine's
/// transport: a post is a `Notify` made by ``NotificationBridge``, a withdrawal a
/// `CloseNotification`, the events the server's signals as ``NotificationsClient`` reads them.
final class FreedesktopTransport: NotificationTransport {
    let client: NotificationsClient
    /// Whose notifications these are: the bridge's `desktop-entry`.
    let identity: ApplicationIdentity
    private let channel = Locked<NotificationChannel?>(nil)

    init(client: NotificationsClient, identity: ApplicationIdentity) {
        self.client = client
        self.identity = identity
    }

    var kind: NotificationEngineKind { .inProcess }
    var serverOwner: String? { client.serverOwner }
    var withdrawsUnlisted: Bool { false }
    /// None: the server says when a notification closes, and a server that goes takes its
    /// notifications with it.
    var deliveredBound: Int? { nil }

    func open(_ receive: @escaping @Sendable (TransportItem) -> Void) async {
        let opened = client.openChannel { item in
            switch item.kind {
            case .event(let event):
                receive(TransportItem(owner: item.owner, kind: .event(event)))
            case .posted(let tag, let outcome):
                receive(TransportItem(
                    owner: item.owner,
                    kind: .posted(tag: tag, outcome.map { ($0, nil) }.mapError { NotificationDeliveryError($0) as any Error })))
            }
        }
        channel.withLock { $0 = opened }
    }

    func shut() {
        channel.withLock { $0 }?.close()
    }

    func connect() async throws(NotificationsError) {
        _ = try await client.connect()
    }

    /// Posts the `Notify` of `post`; the sound it asks for is played here when the server has
    /// no `sound` capability (dunst, mako, xfce4-notifyd).
    func post(_ post: TransportPost, tag: UInt64, keepSound: (EventSound) -> Void) {
        guard let channel = channel.withLock({ $0 }) else {
            // The engine posts only once its channel is open; this is a bug if it is ever logged.
            return SubsystemLog.center.logger.error("a notification was posted before the engine's channel opened; it is not shown")
        }
        var arguments = NotificationBridge(identity: identity, capabilities: post.capabilities).notifyRequest(
            for: post.notification.request, category: post.category, options: post.options, replacesID: post.replacesID)
        if post.resident { arguments.hints.resident = true }
        if let sound = EventSound(hints: arguments.hints, capabilities: post.capabilities) { keepSound(sound) }
        client.post(arguments, tag: tag, on: channel)
    }

    /// Sends `CloseNotification(id)` for each, without waiting for one reply before the next
    /// call (``NotificationsClient/closeNotifications(ids:)``); nothing for one with no id (the
    /// server shows only what it gave an id).
    func withdraw(_ notifications: [TransportWithdrawal]) {
        let ids = notifications.compactMap(\.id)
        guard !ids.isEmpty else { return }
        let client = self.client
        Task {
            for (id, error) in await client.closeNotifications(ids: ids) {
                // Servers answer an id that closed meanwhile with an error; nothing is lost.
                SubsystemLog.center.logger.debug("CloseNotification failed", metadata: ["id": "\(id)", "error": SubsystemLog.describe(error)])
            }
        }
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

    /// The saved id: it still means the notification while the server instance that gave it
    /// owns the name, and only its notifications are restored.
    func restoredID(_ id: UInt32) -> UInt32 { id }

    /// None: the server's clicks come as its `ActionInvoked` signal.
    func click(target: String, activationToken: String?, sender: String) async -> ServiceClick? { nil }

    func applicationInterfaceServed() {}
}

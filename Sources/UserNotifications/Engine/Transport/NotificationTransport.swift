import FreedesktopNotifications

/// Where the in-process engine's notifications go, and where what the person did with them
/// comes back from: the engine core (``InProcessEngine``: validation, the pending list and
/// its triggers, the delivered list, ordering, persistence, responses) talks to the server
/// through this and nothing else.
///
/// Every outcome of a ``post(_:tag:on:keepSound:)`` and every event of the server comes back on the
/// channel the engine opened (``openChannel(_:)``), in the order the server gave them, so the
/// engine never repairs an order. A notification is known by the server instance that showed
/// it and the id it gave (``ServerKey``).
///
/// The freedesktop notification service is such a transport (``FreedesktopTransport``).
protocol NotificationTransport: AnyObject, Sendable {
    /// What the center reports as its engine.
    var kind: NotificationEngineKind { get }
    /// The server instance that shows the notifications now, as last known; `nil` with none.
    var serverOwner: String? { get }

    /// Starts the channel on which the outcome of every later post and every event of the
    /// server come to `receive`, in order, until the channel is closed.
    func openChannel(_ receive: @escaping @Sendable (NotificationChannelItem) -> Void) -> NotificationChannel
    /// Reaches the server, so that its instance (``serverOwner``) is known.
    func connect() async throws(NotificationsError)
    /// Shows `post`; the outcome comes to `channel` under `tag`, in its place among the
    /// server's events. Before anything is sent, `keepSound` gets the sound this process
    /// plays once the server took the notification, because the server plays none
    /// (``EventSound``); it is not called when there is none.
    func post(
        _ post: TransportPost, tag: UInt64, on channel: NotificationChannel, keepSound: (EventSound) -> Void)
    /// Withdraws the notification the server knows as `id` (its request identifier is
    /// `identifier`).
    func withdraw(id: UInt32, identifier: String) async throws(NotificationsError)
    /// The server's capabilities, and the instance that answered (which need not own the name
    /// by the time the answer comes).
    func capabilityAnswer() async throws(NotificationsError) -> (capabilities: [NotificationCapability], server: String?)
    /// Whether a server can be reached.
    func isServerAvailable() async throws(NotificationsError) -> Bool
    /// Shows `count` on the app's launcher icon.
    func setBadge(appID: String, count: Int) async throws(NotificationsError)
}

/// A notification the engine asks its transport to show (``NotificationTransport/post(_:tag:on:keepSound:)``).
struct TransportPost: Sendable {
    let request: UNNotificationRequest
    /// Its category, whose actions it shows.
    let category: UNNotificationCategory?
    /// The options the host gave it.
    let options: UNNotificationPresentationOptions
    /// The id of the notification it replaces on the same server instance; 0 for none.
    let replacesID: UInt32
    /// A content extension shows it: it stays on screen after an action.
    let resident: Bool
    /// The capabilities of the server it goes to.
    let capabilities: Set<NotificationCapability>
}

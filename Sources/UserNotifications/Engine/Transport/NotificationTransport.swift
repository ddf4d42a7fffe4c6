import FreedesktopNotifications

/// Where the engine's notifications go, and where what the person did with them comes back
/// from: the engine core (``EngineCore``: validation, the pending list and its triggers,
/// the delivered list, ordering, persistence, responses) talks to the server through this and
/// nothing else.
///
/// Every outcome of a ``post(_:tag:keepSound:)`` and every event of the server comes back on
/// the channel the engine opened (``open(_:)``), in the order the server gave them, so the
/// engine never repairs an order. A notification is known by the server instance that showed
/// it and the id it gave (``ServerKey``).
///
/// The freedesktop notification service is such a transport (``FreedesktopTransport``), and
/// so is every ``NotificationService`` (the portal, GNOME's `org.gtk.Notifications`), through
/// ``ServiceTransport``.
protocol NotificationTransport: AnyObject, Sendable {
    /// What the center reports as its engine.
    var kind: NotificationEngineKind { get }
    /// The server instance that shows the notifications now, as last known; `nil` with none.
    var serverOwner: String? { get }
    /// Whether the engine withdraws an identifier it does not list (GNOME keeps an earlier
    /// launch's notifications).
    var withdrawsUnlisted: Bool { get }
    /// The most notifications the engine lists, for a server that never says one closed;
    /// `nil` for no bound.
    var deliveredBound: Int? { get }

    /// Starts the channel on which the outcome of every later post and every event of the
    /// server come to `receive`, in order, until ``shut()``.
    func open(_ receive: @escaping @Sendable (TransportItem) -> Void) async
    /// Closes the channel and lets the server go.
    func shut()
    /// Reaches the server, so that its instance (``serverOwner``) is known.
    func connect() async throws(NotificationsError)
    /// Shows `post`; the outcome comes to the channel under `tag`, in its place among the
    /// server's events. Before anything is sent, `keepSound` gets the sound this process plays
    /// once the server took the notification, because the server plays none (``EventSound``);
    /// it is not called when there is none.
    func post(_ post: TransportPost, tag: UInt64, keepSound: (EventSound) -> Void)
    /// Withdraws `notifications`, each by the id the server knows it as and its request
    /// identifier (no id for one the engine does not list), in order and without waiting: the
    /// withdrawals keep their place before any later post. A failure is logged.
    func withdraw(_ notifications: [TransportWithdrawal])
    /// The server's capabilities, and the instance that answered (which need not own the name
    /// by the time the answer comes).
    func capabilityAnswer() async throws(NotificationsError) -> (capabilities: [NotificationCapability], server: String?)
    /// Whether a server can be reached.
    func isServerAvailable() async throws(NotificationsError) -> Bool
    /// Shows `count` on the app's launcher icon.
    func setBadge(appID: String, count: Int) async throws(NotificationsError)
    /// The id a notification saved under this server with `id` is listed under after a
    /// restart.
    func restoredID(_ id: UInt32) -> UInt32
    /// The click that `target`, the parameter of `org.freedesktop.Application.ActivateAction`
    /// on the app, stands for, from the unique name `sender`; `nil` when this server's clicks
    /// do not come that way or it refuses the call.
    func click(target: String, activationToken: String?, sender: String) async -> ServiceClick?
    /// The app's center now serves `org.freedesktop.Application`.
    func applicationInterfaceServed()
}

/// A notification the engine asks its transport to show (``NotificationTransport/post(_:tag:keepSound:)``).
struct TransportPost: Sendable {
    let notification: UNNotification
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

/// A notification the engine asks its transport to withdraw
/// (``NotificationTransport/withdraw(_:)``).
struct TransportWithdrawal: Sendable {
    /// The id the server knows it as; `nil` for one the engine does not list.
    let id: UInt32?
    let identifier: String
}

/// What comes back on a transport's channel, in the server's order.
struct TransportItem: Sendable {
    enum Kind: Sendable {
        /// An event of the server (or of the connection: server changed, disconnected).
        case event(NotificationEvent)
        /// The outcome of the post `tag`: where the server shows it, and the nonce its action
        /// targets carry (``ServiceClick/nonce``), or the error to report.
        case posted(tag: UInt64, Result<(posting: NotificationPosting, nonce: String?), any Error>)
        /// A click the server reported by a signal of its own.
        case click(ServiceClick)
        /// The service's name changed hands (it restarted, or another took it): what it was
        /// seen to support is asked again.
        case serviceRestarted
    }

    /// The server instance as of this item.
    let owner: String?
    let kind: Kind
}

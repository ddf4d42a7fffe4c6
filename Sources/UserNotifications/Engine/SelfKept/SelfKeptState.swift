/// What an engine in front of a service that keeps no lists (the portal, GNOME's interface)
/// keeps itself, under its one lock: the pending list, its own delivered list, the categories
/// and the authorization. ``SelfKeptEngine`` works on it.
protocol SelfKeptState: Sendable {
    associatedtype Delivered: SelfKeptDelivered
    var pending: PendingTable { get set }
    var delivered: [String: Delivered] { get set }
    var categories: [String: UNNotificationCategory] { get set }
    var authorizationStatus: UNAuthorizationStatus { get set }
    var authorizationOptions: UNAuthorizationOptions { get set }
    /// Set by ``NotificationEngine/close()``: a trigger that falls due after it delivers nothing.
    var closed: Bool { get set }
}

/// An entry of a ``SelfKeptState``'s delivered list.
protocol SelfKeptDelivered: Sendable {
    var notification: UNNotification { get }
    /// The secret its action targets carry, saved with it so that a click after a restart is
    /// still taken; `nil` when they carry none.
    var actionNonce: String? { get }
    /// The entry of `notification`, read back from the state file with its saved `nonce`,
    /// with the engine's `categories` as they are after the read.
    init(restoring notification: UNNotification, nonce: String?, categories: [String: UNNotificationCategory])
}

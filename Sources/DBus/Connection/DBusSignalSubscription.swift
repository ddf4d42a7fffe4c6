import Synchronization

/// What a signal subscription delivers, in the order the connection received it.
public enum DBusSignalEvent: Sendable, Hashable {
    /// A signal that matched one of the subscription's rules (and, with an owner to track,
    /// came from the current owner of that name).
    case signal(DBusMessage)
    /// The tracked name changed hands; signals after this event are checked against `newOwner`.
    case ownerChanged(name: String, oldOwner: String?, newOwner: String?)
    /// The connection closed; the stream ends after this event.
    case disconnected
}

/// A live subscription: its rules were installed on the bus before it was returned.
///
/// Iterate ``events`` to receive signals. Ending the iteration (or dropping the stream)
/// removes the rules from the bus.
public struct DBusSignalSubscription: Sendable {
    /// The events, in order. The buffer is unbounded, so no signal is lost to a slow reader.
    public let events: AsyncStream<DBusSignalEvent>
    /// The owner of the tracked name when the subscription started (nil: none, or not tracked).
    public let initialOwner: String?
}

/// A subscription whose events go to a handler on the connection's executor; see
/// ``DBusConnection/subscribe(to:senderMustOwn:handler:)``.
public struct DBusSignalHandle: Sendable {
    let cancelAction: @Sendable () -> Void
    /// The owner of the tracked name when the subscription started (nil: none, or not tracked).
    public let initialOwner: String?

    /// Ends the subscription and removes its rules from the bus.
    public func cancel() { cancelAction() }
}

private let subscriptionCounter = Atomic<UInt64>(1)

/// A subscription as the connection core keeps it.
final class SignalSubscription: Sendable {
    /// Orders deliveries: older subscriptions see a signal first.
    let id = subscriptionCounter.wrappingAdd(1, ordering: .relaxed).oldValue
    let rules: [DBusMatchRule]
    let ownerName: String?
    /// Called on the connection's executor, in order; the last event is `.disconnected` when
    /// the connection closes first.
    let deliver: @Sendable (DBusSignalEvent) -> Void

    init(rules: [DBusMatchRule], ownerName: String?, deliver: @escaping @Sendable (DBusSignalEvent) -> Void) {
        self.rules = rules
        self.ownerName = ownerName
        self.deliver = deliver
    }
}
/// A well-known name whose owner the connection follows for one or more subscriptions.
struct TrackedName {
    var subscribers = 0
    var owner: String?
    var resolved = false
    var lookupStarted = false
    var waiters: [(Result<String?, DBusError>) -> Void] = []

    var ownerChangedRule: DBusMatchRule?
}

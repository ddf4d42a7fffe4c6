import Foundation
import FreedesktopNotifications

/// A request on its way to the server: asked of the host, then posted, then answered.
struct Delivery {
    /// Names the delivery, and its `Notify` in the client's channel.
    let tag: UInt64
    let notification: UNNotification
    /// The stored attachment folders the delivery holds in the ledger until it ends.
    let folders: [URL]
    /// Who waits for the outcome (`add`); `nil` for a trigger that fired.
    let waiter: EngineAnswer<Result<Void, any Error>>?
    /// The presentation options given with the request (its app answered before sending it to
    /// the agent); `nil`: the host is asked.
    var presentation: UNNotificationPresentationOptions? = nil
    var options: UNNotificationPresentationOptions = []
    /// A content extension shows it: posted resident, and told when shown.
    var intercepted = false
    /// Withdrawn while on its way: closed as soon as its id is known.
    var withdrawOnArrival = false
    /// Its `Notify` is on the wire.
    var isPosted = false
    /// The request as it waits in the pending list until the server took it (an immediate
    /// request the agent accepted before delivering it); `nil` otherwise.
    var kept: UNNotificationRequest? = nil

    var identifier: String { notification.request.identifier }
}

/// The deliveries under way, one at a time per identifier (an update must know the id of the
/// notification it replaces, so it waits for the delivery before it), and the signals that came
/// before the reply that names their id.
///
/// A value type: the engine starts the next delivery of an identifier when ``finish(_:)``
/// returns it.
struct DeliveryQueue {
    /// Per identifier, in arrival order; the first is the one under way.
    private var queues: [String: [Delivery]] = [:]
    private var identifiers: [UInt64: String] = [:]
    /// Signals whose id no reply has named yet, in the order received; kept only while a
    /// `Notify` is on the wire (a server may signal before it replies).
    private(set) var early: [EarlySignal] = []
    private(set) var postsInFlight = 0

    /// The most signals kept while waiting for replies; older ones are dropped past it.
    static let earlyLimit = 1024

    var count: Int { identifiers.count }
    var isEmpty: Bool { identifiers.isEmpty }

    /// Queues `delivery`; `true` when it is the first of its identifier (start it now).
    mutating func enqueue(_ delivery: Delivery) -> Bool {
        identifiers[delivery.tag] = delivery.identifier
        queues[delivery.identifier, default: []].append(delivery)
        return queues[delivery.identifier]?.count == 1
    }

    /// Whether a delivery of `identifier` is under way or waits for one.
    func isUnderWay(_ identifier: String) -> Bool {
        queues[identifier] != nil
    }

    /// The delivery under way with `tag`.
    subscript(tag: UInt64) -> Delivery? {
        guard let identifier = identifiers[tag], let first = queues[identifier]?.first, first.tag == tag else { return nil }
        return first
    }

    /// Changes the delivery under way with `tag`.
    mutating func update(_ tag: UInt64, _ change: (inout Delivery) -> Void) {
        guard let identifier = identifiers[tag], var first = queues[identifier]?.first, first.tag == tag else { return }
        change(&first)
        queues[identifier]?[0] = first
    }

    /// Marks the delivery's `Notify` as sent.
    mutating func markPosted(_ tag: UInt64) {
        guard self[tag]?.isPosted == false else { return }
        update(tag) { $0.isPosted = true }
        postsInFlight += 1
    }

    /// Marks every delivery of `identifier` (under way or waiting) to be withdrawn when it
    /// lands; `false` when there is none.
    mutating func withdrawOnArrival(_ identifier: String) -> Bool {
        guard var queue = queues[identifier] else { return false }
        for index in queue.indices { queue[index].withdrawOnArrival = true }
        queues[identifier] = queue
        return true
    }

    /// Ends the delivery under way with `tag`; returns it and the next of its identifier.
    mutating func finish(_ tag: UInt64) -> (finished: Delivery, next: Delivery?)? {
        guard let finished = self[tag] else { return nil }
        identifiers.removeValue(forKey: tag)
        if finished.isPosted {
            postsInFlight -= 1
            if postsInFlight == 0 { early.removeAll() }
        }
        queues[finished.identifier]?.removeFirst()
        if queues[finished.identifier]?.isEmpty == true { queues.removeValue(forKey: finished.identifier) }
        return (finished, queues[finished.identifier]?.first)
    }

    /// Keeps a signal whose id is unknown while a reply may still name it; `false` when none
    /// can (it is for somebody else) or the oldest kept one was dropped to make room.
    mutating func holdEarly(_ signal: EarlySignal) -> Bool {
        guard postsInFlight > 0 else { return false }
        early.append(signal)
        guard early.count > Self.earlyLimit else { return true }
        early.removeFirst()
        return false
    }

    /// Takes the kept signals for `key`, in the order received.
    mutating func takeEarly(for key: ServerKey) -> [EarlySignal] {
        guard early.contains(where: { $0.key == key }) else { return [] }
        let taken = early.filter { $0.key == key }
        early.removeAll { $0.key == key }
        return taken
    }
}

/// A server signal about one notification, by where it was shown.
struct EarlySignal {
    let key: ServerKey
    let event: NotificationEvent
}

import Foundation

/// A request waiting for its trigger.
struct PendingEntry {
    var request: UNNotificationRequest
    /// When the trigger's interval is counted from (the moment it was added).
    var anchor: Date
    var nextFire: Date

    var identifier: String { request.identifier }
}

/// The pending list: one entry per identifier. A value type; the engine keeps the scheduler's
/// alarm in step with it.
struct PendingTable {
    private(set) var entries: [String: PendingEntry] = [:]
    /// How many entries are kept immediate requests (``PendingEntry/awaitsDelivery``).
    private(set) var awaitingDelivery = 0

    var count: Int { entries.count }
    var isEmpty: Bool { entries.isEmpty }

    subscript(identifier: String) -> PendingEntry? { entries[identifier] }

    /// The requests, soonest first (ties by identifier, so the order is stable).
    var requests: [UNNotificationRequest] {
        entries.values.sorted { ($0.nextFire, $0.identifier) < ($1.nextFire, $1.identifier) }.map(\.request)
    }

    /// Adds `entry`; returns the entry of the same identifier it replaces.
    @discardableResult
    mutating func insert(_ entry: PendingEntry) -> PendingEntry? {
        let replaced = entries.updateValue(entry, forKey: entry.identifier)
        awaitingDelivery += (entry.awaitsDelivery ? 1 : 0) - (replaced?.awaitsDelivery == true ? 1 : 0)
        return replaced
    }

    @discardableResult
    mutating func remove(_ identifier: String) -> PendingEntry? {
        let removed = entries.removeValue(forKey: identifier)
        if removed?.awaitsDelivery == true { awaitingDelivery -= 1 }
        return removed
    }

    mutating func removeAll() -> [PendingEntry] {
        defer { entries = [:]; awaitingDelivery = 0 }
        return Array(entries.values)
    }

    /// Moves a repeating entry to its next fire date.
    mutating func reschedule(_ identifier: String, to next: Date) {
        entries[identifier]?.nextFire = next
    }
}

import Foundation

/// A notification the server shows, or showed until a moment ago.
struct DeliveredEntry {
    var notification: UNNotification
    var key: ServerKey
    /// The notification has answered (a response was made, or it was withdrawn): later
    /// signals for it count for nothing.
    var responded = false
    var activationToken: String?
    /// Closed as dismissed by the person, with a category that asks for the dismiss action:
    /// the dismiss response goes out when the grace period ends, unless an action comes first.
    var dismissPending = false
    /// The nonce its action targets carry (``ServiceClick/nonce``); `nil` when they carry
    /// none, and then a click that names a nonce is not taken for it.
    var nonce: String?
    /// When the table recorded it, in order: of two shown at one date, the earlier recorded is
    /// the older (``DeliveredTable/trim(to:)``).
    fileprivate(set) var recorded: UInt64 = 0

    var identifier: String { notification.request.identifier }
}

/// The delivered list: live notifications by identifier, the index from a server's id back to
/// the identifier, and the notifications closed a moment ago that still absorb late signals.
///
/// A value type with no clock and no I/O; the engine decides when a closing entry's grace
/// period ends (``finishClosing(_:)``).
struct DeliveredTable {
    private(set) var live: [String: DeliveredEntry] = [:]
    private var index: [ServerKey: String] = [:]
    /// Closed notifications in their grace period, by where they were shown.
    private(set) var closing: [ServerKey: DeliveredEntry] = [:]
    private var lastRecorded: UInt64 = 0

    var isEmpty: Bool { live.isEmpty && closing.isEmpty }
    var indexCount: Int { index.count }

    /// The live notifications, oldest first.
    var notifications: [UNNotification] {
        live.values.map(\.notification).sorted { $0.date < $1.date }
    }

    subscript(identifier: String) -> DeliveredEntry? { live[identifier] }

    /// The id to send as `replaces_id` when `identifier` is posted again on `server`: its live
    /// id there, else 0 (a new notification).
    func replacementID(for identifier: String, on server: String?) -> UInt32 {
        guard let key = live[identifier]?.key, key.server == server else { return 0 }
        return key.id
    }

    /// Records a posted notification; returns the entry it replaces, which leaves the table.
    @discardableResult
    mutating func record(_ entry: DeliveredEntry) -> DeliveredEntry? {
        var entry = entry
        lastRecorded += 1
        entry.recorded = lastRecorded
        let previous = live.updateValue(entry, forKey: entry.identifier)
        if let previous { index.removeValue(forKey: previous.key) }
        index[entry.key] = entry.identifier
        return previous
    }

    /// Whether a signal for `key` concerns a notification of this table (live or closing).
    func knows(_ key: ServerKey) -> Bool {
        index[key] != nil || closing[key] != nil
    }

    /// Runs `change` on the live or closing entry at `key`; `false` when there is none.
    @discardableResult
    mutating func update(_ key: ServerKey, _ change: (inout DeliveredEntry) -> Void) -> Bool {
        if let identifier = index[key], var entry = live[identifier] {
            change(&entry)
            live[identifier] = entry
            return true
        }
        guard var entry = closing[key] else { return false }
        change(&entry)
        closing[key] = entry
        return true
    }

    /// Runs `change` on the live entry of `identifier`, if any.
    mutating func update(identifier: String, _ change: (inout DeliveredEntry) -> Void) {
        guard var entry = live[identifier] else { return }
        change(&entry)
        live[identifier] = entry
    }

    /// The live entry at `key`.
    func liveEntry(at key: ServerKey) -> DeliveredEntry? {
        index[key].flatMap { live[$0] }
    }

    /// Moves the live entry of `identifier` to the closing entries, where late signals still
    /// find it; `change` is applied first. Returns the entry moved.
    @discardableResult
    mutating func close(_ identifier: String, _ change: (inout DeliveredEntry) -> Void = { _ in }) -> DeliveredEntry? {
        guard var entry = live.removeValue(forKey: identifier) else { return nil }
        index.removeValue(forKey: entry.key)
        change(&entry)
        closing[entry.key] = entry
        return entry
    }

    /// Ends the grace period of the closing entry at `key`, which leaves the table.
    mutating func finishClosing(_ key: ServerKey) -> DeliveredEntry? {
        closing.removeValue(forKey: key)
    }

    /// Removes everything shown by `server` (it is gone: its ids mean nothing any more);
    /// returns the entries removed, live and closing.
    mutating func dropServer(_ server: String) -> [DeliveredEntry] {
        let liveGone = live.values.filter { $0.key.server == server }
        for entry in liveGone { remove(entry.identifier) }
        let closingGone = closing.values.filter { $0.key.server == server }
        for entry in closingGone { closing.removeValue(forKey: entry.key) }
        return liveGone + closingGone
    }

    /// Removes the live entry of `identifier` at once, with no grace period (a service that
    /// withdraws an activated notification sends no signal after).
    @discardableResult
    mutating func remove(_ identifier: String) -> DeliveredEntry? {
        guard let entry = live.removeValue(forKey: identifier) else { return nil }
        index.removeValue(forKey: entry.key)
        return entry
    }

    /// Removes the oldest live entries (by date; of one date, the one recorded first) until at
    /// most `count` are left; returns them, oldest first.
    mutating func trim(to count: Int) -> [DeliveredEntry] {
        guard live.count > count else { return [] }
        let oldest = live.values.sorted { ($0.notification.date, $0.recorded) < ($1.notification.date, $1.recorded) }
            .prefix(live.count - count)
        for entry in oldest { remove(entry.identifier) }
        return Array(oldest)
    }

    /// The servers that show something now.
    var servers: Set<String> {
        Set(live.values.map(\.key.server)).union(closing.keys.map(\.server))
    }
}

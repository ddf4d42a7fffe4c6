import Dispatch

/// The bookkeeping of many deadlines served by one timer: which entries wait, which are due,
/// and when the timer must ring next.
///
/// The timer is armed at the earliest deadline and moves only for an earlier one: moving a
/// dispatch timer wakes libdispatch's manager thread, so an entry removed before its deadline
/// leaves the timer where it is. When the timer rings, ``takeDue(at:)`` hands out what is due
/// and says where to arm it next, or that nothing waits and the timer can rest.
///
/// Inlinable, as ``DeadlineTimer`` is: it serves other modules, where a generic body that is not
/// inlined runs unspecialized, looking up its types' metadata at each call.
public struct DeadlineSet<Key: Hashable, Payload> {
    @usableFromInline var entries: [Key: (deadline: DispatchTime, payload: Payload)] = [:]
    /// Where the timer is armed, or `nil` when it is not.
    @usableFromInline package internal(set) var armedAt: DispatchTime?

    /// An empty set; the timer is not armed.
    @inlinable
    package init() {}

    /// How many entries wait.
    @inlinable
    package var count: Int { entries.count }

    /// The payload waiting under `key`, if any.
    @inlinable
    package subscript(key: Key) -> Payload? { entries[key]?.payload }

    /// Adds `payload` under `key` (replacing an entry of the same key), due at `deadline`.
    ///
    /// - Returns: The instant to arm the timer at, when it must move (no timer armed, or armed
    ///   later than `deadline`); `nil` when the armed timer rings early enough.
    @inlinable
    package mutating func insert(_ payload: Payload, for key: Key, at deadline: DispatchTime) -> DispatchTime? {
        entries[key] = (deadline, payload)
        guard armedAt.map({ deadline < $0 }) ?? true else { return nil }
        armedAt = deadline
        return deadline
    }

    /// Removes the entry of `key` before its deadline; the timer stays armed.
    @inlinable
    @discardableResult
    package mutating func remove(_ key: Key) -> Payload? {
        entries.removeValue(forKey: key)?.payload
    }

    /// Removes and returns the entries due at `now`, in deadline order, with the instant to arm
    /// the timer at next (`nil`: nothing waits).
    @inlinable
    package mutating func takeDue(at now: DispatchTime) -> (due: [Payload], next: DispatchTime?) {
        var due: [(deadline: DispatchTime, payload: Payload)] = []
        var earliest: DispatchTime?
        for (key, entry) in entries {
            if entry.deadline <= now {
                due.append(entry)
                entries.removeValue(forKey: key)
            } else if earliest.map({ entry.deadline < $0 }) ?? true {
                earliest = entry.deadline
            }
        }
        armedAt = earliest
        return (due.sorted { $0.deadline < $1.deadline }.map(\.payload), earliest)
    }

    /// Removes every entry and returns their payloads; the timer can rest.
    @inlinable
    package mutating func removeAll() -> [Payload] {
        defer {
            entries = [:]
            armedAt = nil
        }
        return entries.values.sorted { $0.deadline < $1.deadline }.map(\.payload)
    }
}

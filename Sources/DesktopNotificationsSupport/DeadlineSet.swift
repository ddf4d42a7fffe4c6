import Dispatch

/// The bookkeeping of many deadlines served by one timer: which entries wait, which are due,
/// and when the timer must ring next. The deadlines are kept in a ``DeadlineHeap``, so what
/// is due is found without reading what is not.
///
/// The timer is armed at the earliest deadline and moves only for an earlier one: moving a
/// dispatch timer wakes libdispatch's manager thread, so an entry removed before its deadline
/// leaves the timer where it is. When the timer rings, ``takeDue(at:)`` hands out what is due
/// and says where to arm it next, or that nothing waits and the timer can rest.
///
/// Public, with its members `package` and inlinable, as ``DeadlineHeap`` and ``DeadlineTimer``
/// are: the members of a `package` type are not serialized for other modules even when
/// `@inlinable`, and other modules would run this generic code unspecialized, looking up its
/// types' metadata at each call. The module is not a product.
public struct DeadlineSet<Key: Hashable, Payload> {
    @usableFromInline var deadlines = DeadlineHeap<Key, DispatchTime>()
    @usableFromInline var payloads: [Key: Payload] = [:]
    /// Where the timer is armed, or `nil` when it is not.
    @usableFromInline package internal(set) var armedAt: DispatchTime?

    /// An empty set; the timer is not armed.
    @inlinable
    package init() {}

    /// How many entries wait.
    @inlinable
    package var count: Int { deadlines.count }

    /// The payload waiting under `key`, if any.
    @inlinable
    package subscript(key: Key) -> Payload? { payloads[key] }

    /// Adds `payload` under `key` (replacing an entry of the same key), due at `deadline`.
    ///
    /// - Returns: The instant to arm the timer at, when it must move (no timer armed, or armed
    ///   later than `deadline`); `nil` when the armed timer rings early enough.
    @inlinable
    package mutating func insert(_ payload: Payload, for key: Key, at deadline: DispatchTime) -> DispatchTime? {
        deadlines.insert(key, at: deadline)
        payloads[key] = payload
        guard armedAt.map({ deadline < $0 }) ?? true else { return nil }
        armedAt = deadline
        return deadline
    }

    /// Removes the entry of `key` before its deadline; the timer stays armed.
    @inlinable
    @discardableResult
    package mutating func remove(_ key: Key) -> Payload? {
        deadlines.remove(key)
        return payloads.removeValue(forKey: key)
    }

    /// Removes and returns the entries due at `now`, in deadline order (of equal deadlines,
    /// the first added first), with the instant to arm the timer at next (`nil`: nothing
    /// waits).
    @inlinable
    package mutating func takeDue(at now: DispatchTime) -> (due: [Payload], next: DispatchTime?) {
        let due = deadlines.popAll(dueBy: now).compactMap { payloads.removeValue(forKey: $0.key) }
        armedAt = deadlines.first?.deadline
        return (due, armedAt)
    }

    /// Removes every entry and returns their payloads, soonest first; the timer can rest.
    @inlinable
    package mutating func removeAll() -> [Payload] {
        defer { armedAt = nil }
        return takeDue(at: .distantFuture).due
    }
}

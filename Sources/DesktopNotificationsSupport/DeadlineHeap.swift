/// A binary min-heap of keys by deadline, with at most one entry per key: the one deadline
/// structure of the project, under the triggers' scheduler (wall-clock `Date`s), the oldest of
/// a delivered list, and the timers of calls and answers (``DeadlineSet``, monotonic
/// `DispatchTime`s).
///
/// Entries with the same deadline come out in the order they were inserted. An index from key
/// to position makes replacing and removing a key O(log n), like inserting and popping.
///
/// Public, with its members `package` and inlinable: other modules use it (the timers of the
/// D-Bus module, the scheduler of the library), and the members of a `package` type are not
/// serialized for them even when `@inlinable`; unspecialized, each call looked up its types'
/// metadata at run time, and the timers' add and remove cost three times as many
/// instructions. The module is not a product.
public struct DeadlineHeap<Key: Hashable, Deadline: Comparable> {
    /// A key and its deadline.
    public struct Entry {
        /// The key.
        @usableFromInline package let key: Key
        /// When it is due.
        @usableFromInline package let deadline: Deadline
        /// Insertion order, to break ties between equal deadlines.
        @usableFromInline let sequence: UInt64

        @inlinable
        init(key: Key, deadline: Deadline, sequence: UInt64) {
            self.key = key
            self.deadline = deadline
            self.sequence = sequence
        }

        @inlinable
        func comesBefore(_ other: Entry) -> Bool {
            (deadline, sequence) < (other.deadline, other.sequence)
        }
    }

    @usableFromInline var entries: [Entry] = []
    @usableFromInline var positions: [Key: Int] = [:]
    @usableFromInline var nextSequence: UInt64 = 0

    /// An empty heap.
    @inlinable
    package init() {}

    /// How many keys wait.
    @inlinable
    package var count: Int { entries.count }

    /// The entry with the earliest deadline.
    @inlinable
    package var first: Entry? { entries.first }

    /// The deadline of `key`, when it waits.
    @inlinable
    package func deadline(of key: Key) -> Deadline? {
        positions[key].map { entries[$0].deadline }
    }

    /// Adds `key` at `deadline`, replacing its earlier entry if there is one.
    @inlinable
    package mutating func insert(_ key: Key, at deadline: Deadline) {
        remove(key)
        let entry = Entry(key: key, deadline: deadline, sequence: nextSequence)
        nextSequence += 1
        entries.append(entry)
        positions[key] = entries.count - 1
        siftUp(from: entries.count - 1)
    }

    /// Removes the entry for `key`, if any.
    @inlinable
    @discardableResult
    package mutating func remove(_ key: Key) -> Entry? {
        guard let position = positions[key] else { return nil }
        return remove(at: position)
    }

    /// Removes every entry.
    @inlinable
    package mutating func removeAll() {
        entries.removeAll()
        positions.removeAll()
    }

    /// Removes and returns, earliest first, every entry whose deadline is at or before `instant`.
    @inlinable
    package mutating func popAll(dueBy instant: Deadline) -> [Entry] {
        var due: [Entry] = []
        while let first, first.deadline <= instant {
            due.append(remove(at: 0))
        }
        return due
    }

    // MARK: - Heap order

    @inlinable
    mutating func remove(at position: Int) -> Entry {
        let removed = entries[position]
        positions[removed.key] = nil
        let last = entries.removeLast()
        guard position < entries.count else { return removed }
        entries[position] = last
        positions[last.key] = position
        if position > 0, last.comesBefore(entries[parent(of: position)]) {
            siftUp(from: position)
        } else {
            siftDown(from: position)
        }
        return removed
    }

    @inlinable
    mutating func siftUp(from start: Int) {
        var child = start
        let entry = entries[child]
        while child > 0 {
            let parent = parent(of: child)
            guard entry.comesBefore(entries[parent]) else { break }
            place(entries[parent], at: child)
            child = parent
        }
        place(entry, at: child)
    }

    @inlinable
    mutating func siftDown(from start: Int) {
        var parent = start
        let entry = entries[parent]
        while true {
            var earliest = 2 * parent + 1
            guard earliest < entries.count else { break }
            let right = earliest + 1
            if right < entries.count, entries[right].comesBefore(entries[earliest]) {
                earliest = right
            }
            guard entries[earliest].comesBefore(entry) else { break }
            place(entries[earliest], at: parent)
            parent = earliest
        }
        place(entry, at: parent)
    }

    @inlinable
    mutating func place(_ entry: Entry, at position: Int) {
        entries[position] = entry
        positions[entry.key] = position
    }

    @inlinable
    func parent(of position: Int) -> Int {
        (position - 1) / 2
    }
}

extension DeadlineHeap: Sendable where Key: Sendable, Deadline: Sendable {}
extension DeadlineHeap.Entry: Sendable where Key: Sendable, Deadline: Sendable {}

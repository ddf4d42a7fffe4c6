import Foundation

/// A binary min-heap of keys by deadline, with at most one entry per key.
///
/// Entries with the same deadline come out in the order they were inserted. An index from key
/// to position makes replacing and removing a key O(log n), like inserting and popping.
struct DeadlineHeap<Key: Hashable> {
    struct Entry {
        let key: Key
        let deadline: Date
        /// Insertion order, to break ties between equal deadlines.
        let sequence: UInt64

        func comesBefore(_ other: Entry) -> Bool {
            (deadline, sequence) < (other.deadline, other.sequence)
        }
    }

    private var entries: [Entry] = []
    private var positions: [Key: Int] = [:]
    private var nextSequence: UInt64 = 0

    var count: Int { entries.count }

    /// The entry with the earliest deadline.
    var first: Entry? { entries.first }

    func deadline(of key: Key) -> Date? {
        positions[key].map { entries[$0].deadline }
    }

    /// Adds `key` at `deadline`, replacing its earlier entry if there is one.
    mutating func insert(_ key: Key, at deadline: Date) {
        remove(key)
        let entry = Entry(key: key, deadline: deadline, sequence: nextSequence)
        nextSequence += 1
        entries.append(entry)
        positions[key] = entries.count - 1
        siftUp(from: entries.count - 1)
    }

    /// Removes the entry for `key`, if any.
    @discardableResult
    mutating func remove(_ key: Key) -> Entry? {
        guard let position = positions[key] else { return nil }
        return remove(at: position)
    }

    mutating func removeAll() {
        entries.removeAll()
        positions.removeAll()
    }

    /// Removes and returns, earliest first, every entry whose deadline is at or before `instant`.
    mutating func popAll(dueBy instant: Date) -> [Entry] {
        var due: [Entry] = []
        while let first, first.deadline <= instant {
            due.append(remove(at: 0))
        }
        return due
    }

    // MARK: - Heap order

    private mutating func remove(at position: Int) -> Entry {
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

    private mutating func siftUp(from start: Int) {
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

    private mutating func siftDown(from start: Int) {
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

    private mutating func place(_ entry: Entry, at position: Int) {
        entries[position] = entry
        positions[entry.key] = position
    }

    private func parent(of position: Int) -> Int {
        (position - 1) / 2
    }
}

extension DeadlineHeap: Sendable where Key: Sendable {}
extension DeadlineHeap.Entry: Sendable where Key: Sendable {}

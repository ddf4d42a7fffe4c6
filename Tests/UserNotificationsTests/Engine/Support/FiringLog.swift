import Foundation
import Synchronization

/// Records what a scheduler's handler was called with, from any thread.
final class FiringLog<Key: Sendable>: Sendable {
    struct Firing: Sendable {
        let key: Key
        let deadline: Date
    }

    private let firings = Mutex<[Firing]>([])

    func record(_ key: Key, _ deadline: Date) {
        firings.withLock { $0.append(Firing(key: key, deadline: deadline)) }
    }

    var all: [Firing] { firings.withLock { $0 } }
    var keys: [Key] { all.map(\.key) }
    var deadlines: [Date] { all.map(\.deadline) }
}

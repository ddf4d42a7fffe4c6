import DesktopNotificationsSupport

/// The texts `localizedUserNotificationString(forKey:arguments:)` returned lately, each with
/// the lookup that made it, so that content given such a text can look it up again when it is
/// delivered (Apple returns a string object that defers the lookup; Swift's `String` cannot).
///
/// ``shared`` is the process-wide table; it is thread-safe and holds the last 1024 texts: an
/// older text is forgotten, and content given it afterwards keeps it as plain text. The same
/// text returned for two lookups stands for the later one.
final class DeferredLocalizationTable: Sendable {
    static let shared = DeferredLocalizationTable(capacity: 1024)

    private struct Storage {
        var entries: [String: (localization: DeferredLocalization, slot: Int)] = [:]
        /// The text in each slot, reused in turn: the oldest text goes first.
        var slots: [String?]
        var next = 0
    }

    private let storage: Locked<Storage>

    init(capacity: Int) {
        storage = Locked(Storage(slots: [String?](repeating: nil, count: max(capacity, 1))))
    }

    /// Remembers that `text` came from `localization`.
    func remember(_ text: String, from localization: DeferredLocalization) {
        storage.withLock { storage in
            let slot = storage.next
            if let evicted = storage.slots[slot], storage.entries[evicted]?.slot == slot {
                storage.entries[evicted] = nil
            }
            storage.slots[slot] = text
            storage.entries[text] = (localization, slot)
            storage.next = (slot + 1) % storage.slots.count
        }
    }

    /// The lookup that returned `text` lately, or `nil` for any other text.
    func localization(for text: String) -> DeferredLocalization? {
        guard !text.isEmpty else { return nil }
        return storage.withLock { $0.entries[text]?.localization }
    }
}

import Foundation

/// How many holders use each folder of stored attachments: a pending request, a delivery on
/// its way, a shown notification and a closing one each count once. A folder whose count
/// falls to zero is returned for removal; nothing is scanned.
struct AttachmentLedger {
    /// The store whose folders the ledger counts, and removes once unused (its request-level
    /// calls, ``hold(_:)`` and ``release(_:)``); `nil` when no state is kept: they do nothing.
    let store: AttachmentStore?
    private(set) var counts: [URL: Int] = [:]

    init(store: AttachmentStore? = nil) {
        self.store = store
    }

    var isEmpty: Bool { counts.isEmpty }

    /// Counts one more holder of each of `folders`.
    mutating func retain<Folders: Sequence<URL>>(_ folders: Folders) {
        for folder in Set(folders) { counts[folder, default: 0] += 1 }
    }

    /// Counts one holder fewer of each of `folders`; returns those no holder uses any more.
    /// A folder not counted is returned as unused (it was never retained: nobody holds it).
    mutating func release<Folders: Sequence<URL>>(_ folders: Folders) -> [URL] {
        var unused: [URL] = []
        for folder in Set(folders) {
            let remaining = (counts[folder] ?? 0) - 1
            if remaining > 0 {
                counts[folder] = remaining
            } else {
                counts.removeValue(forKey: folder)
                unused.append(folder)
            }
        }
        return unused
    }
}

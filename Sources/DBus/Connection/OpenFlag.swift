import Synchronization

/// Whether a connection is open, readable from any thread without a queue hop.
final class OpenFlag: Sendable {
    private let open = Atomic<Bool>(true)

    var isOpen: Bool { open.load(ordering: .acquiring) }

    /// Marks the connection closed; `true` for the call that closed it.
    func close() -> Bool {
        open.exchange(false, ordering: .acquiringAndReleasing)
    }
}

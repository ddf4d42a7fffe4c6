import Foundation

// What the engine does with a request's attachments: copy them into the store of the
// app's state folder when the request comes in, and count who holds each copy
// (``AttachmentLedger``) until nobody does.
extension AttachmentStore {
    /// The store in `stateDirectory`'s `attachments` folder; `nil` when no state is kept (no
    /// folder, or an app id that cannot name one): attachments then stay where the app put them.
    init?(stateDirectory: Result<URL, InvalidApplicationIdentifierError>?) {
        guard let folder = try? stateDirectory?.get() else { return nil }
        self.init(root: folder.appendingPathComponent("attachments", isDirectory: true))
    }

    /// `request` with its attachments copied into the store (``store(_:)``; `request` itself
    /// when it has none), read from `files` when given (``store(_:from:)``: the descriptors an
    /// app handed the agent), else from the paths they name.
    ///
    /// - Throws: what ``store(_:)`` or ``store(_:from:)`` throw.
    func storing(_ request: UNNotificationRequest, files: [Int32]? = nil) throws -> UNNotificationRequest {
        guard !request.content.attachments.isEmpty else { return request }
        let stored = try files.map { try store(request.content.attachments, from: $0) } ?? store(request.content.attachments)
        guard let content = request.content.mutableCopy() as? UNMutableNotificationContent else { return request }
        content.attachments = stored.attachments
        return UNNotificationRequest(identifier: request.identifier, content: content, trigger: request.trigger)
    }

    /// The store folders `request`'s attachments live in.
    func folders(of request: UNNotificationRequest) -> [URL] {
        request.content.attachments.compactMap(folder(of:))
    }
}

extension AttachmentLedger {
    /// Counts one more holder of the store's folders that `request`'s attachments live in
    /// (nothing without a store).
    mutating func hold(_ request: UNNotificationRequest) {
        guard let store else { return }
        retain(store.folders(of: request))
    }

    /// Counts one holder fewer of `request`'s folders, and removes those nobody holds any more.
    mutating func release(_ request: UNNotificationRequest) {
        guard let store else { return }
        release(folders: store.folders(of: request))
    }

    /// Counts one holder fewer of each of `folders`, and removes from the store those nobody
    /// holds any more.
    mutating func release(folders: [URL]) {
        guard let store else { return }
        for folder in release(folders) { store.release(folder) }
    }

    /// Removes from the store every folder the ledger does not count (after a state was read:
    /// what no restored request or notification uses).
    func prune() {
        store?.prune(keeping: Set(counts.keys))
    }
}

import Foundation
import FreedesktopNotifications

/// Where accepted attachment files live while their notification is pending or shown:
/// `<state folder>/attachments/<one folder per request>/`. Files are copied in (the caller's
/// file stays where it was) and removed when their notification leaves both lists. The store
/// is private (``PrivateStorage``): folders 0700, files 0600, and removal never follows a link.
struct AttachmentStore: Sendable {
    let root: URL
    /// The most the store may hold, in bytes (default 100 MB).
    let quota: Int

    init(root: URL, quota: Int = 100 * 1024 * 1024) {
        self.root = root
        self.quota = quota
    }

    /// Copies the files of `attachments` into a new folder and returns the attachments that
    /// point at the copies, with the folder to release later. The shown image's clipped
    /// thumbnail is decoded from its copy now, so that delivery finds it ready.
    ///
    /// - Throws: ``UNError`` `attachmentMoveIntoDataStoreFailed` when a copy fails or the store
    ///   would go over its quota; `attachmentNotInDataStore` when a file vanished since the
    ///   attachment was made.
    func store(_ attachments: [UNNotificationAttachment]) throws -> (attachments: [UNNotificationAttachment], folder: URL) {
        let files = FileManager.default
        var incoming = 0
        for attachment in attachments {
            guard let size = try? attachment.url.resourceValues(forKeys: [.fileSizeKey]).fileSize else {
                throw UNError(.attachmentNotInDataStore, description: "\(attachment.url.path) is no longer there")
            }
            incoming += size
        }
        let used = usedBytes()
        guard used + incoming <= quota else {
            throw UNError(
                .attachmentMoveIntoDataStoreFailed,
                description: "the attachment store holds \(used) bytes; \(incoming) more would pass its quota of \(quota)")
        }
        let folder = root.appendingPathComponent(UUID().uuidString, isDirectory: true)
        do {
            try PrivateStorage.prepareFolder(root.path)
            try files.createDirectory(at: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            let stored = try attachments.enumerated().map { index, attachment in
                let copy = folder.appendingPathComponent("\(index)-\(attachment.url.lastPathComponent)")
                try files.copyItem(at: attachment.url, to: copy)
                try files.setAttributes([.posixPermissions: 0o600], ofItemAtPath: copy.path)
                return UNNotificationAttachment(
                    identifier: attachment.identifier, url: copy, type: attachment.type,
                    isThumbnailHidden: attachment.isThumbnailHidden, thumbnailClippingRect: attachment.thumbnailClippingRect)
            }
            _ = NotificationBridge.shownImage(among: stored)?.clippedThumbnail
            return (stored, folder)
        } catch {
            remove(folder)
            throw UNError(.attachmentMoveIntoDataStoreFailed, description: "could not copy into \(folder.path): \(error.localizedDescription)")
        }
    }

    /// Removes a folder made by ``store(_:)``.
    func release(_ folder: URL) {
        guard folder.deletingLastPathComponent().standardizedFileURL == root.standardizedFileURL else { return }
        remove(folder)
    }

    /// Removes every entry not in `keeping` (after a restart, what no restored request uses).
    func prune(keeping: Set<URL>) {
        let kept = Set(keeping.map(\.standardizedFileURL))
        let names: [String]
        do {
            guard try PrivateStorage.checkFolder(root.path) else { return }
            names = try StateFileSystem.names(inFolder: root.path)
        } catch {
            CenterLog.logger.error(
                "stored attachments were not pruned", metadata: ["error": CenterLog.describe(error)])
            return
        }
        for name in names {
            let entry = root.appendingPathComponent(name, isDirectory: true)
            if !kept.contains(entry.standardizedFileURL) { remove(entry) }
        }
    }

    /// Removes `folder` without following links, reporting a failure.
    private func remove(_ folder: URL) {
        do {
            try PrivateStorage.remove(folder.path)
        } catch {
            CenterLog.logger.error(
                "a stored attachment was not removed", metadata: ["error": CenterLog.describe(error)])
        }
    }

    /// The folder a stored attachment lives in, or `nil` for a file outside the store.
    func folder(of attachment: UNNotificationAttachment) -> URL? {
        let folder = attachment.url.deletingLastPathComponent().standardizedFileURL
        return folder.deletingLastPathComponent() == root.standardizedFileURL ? folder : nil
    }

    private func usedBytes() -> Int {
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.fileSizeKey]) else { return 0 }
        var total = 0
        for case let file as URL in walker {
            total += (try? file.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0
        }
        return total
    }
}

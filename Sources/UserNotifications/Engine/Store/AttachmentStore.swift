import DesktopNotificationsSupport
import Foundation
import FreedesktopNotifications
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where accepted attachment files live while their notification is pending or shown:
/// `<state folder>/attachments/<one folder per request>/`. Files are copied in (the caller's
/// file stays where it was) and removed when their notification leaves both lists. The store
/// is private (``PrivateStorage``): folders 0700, files 0600, and removal never follows a link.
package struct AttachmentStore: Sendable {
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
    /// Each file is opened once and copied from its descriptor (``AttachmentCopy``): a symbolic
    /// link, a folder, a FIFO or a device is refused before anything is read or changed, and
    /// the store's quota is checked against each file's size as its descriptor reports it.
    ///
    /// - Throws: ``UNError`` `attachmentMoveIntoDataStoreFailed` when a copy fails or the store
    ///   would go over its quota; `attachmentNotInDataStore` when a file vanished since the
    ///   attachment was made; `attachmentInvalidURL` for a link or anything but a regular file.
    func store(_ attachments: [UNNotificationAttachment]) throws -> (attachments: [UNNotificationAttachment], folder: URL) {
        var sources: [Int32] = []
        defer { for descriptor in sources { close(descriptor) } }
        for attachment in attachments {
            do throws(AttachmentCopy.Refusal) {
                sources.append(try AttachmentCopy.openSource(path: attachment.url.path))
            } catch .cannotOpen(let code) where code == ENOENT {
                throw UNError(.attachmentNotInDataStore, description: "\(attachment.url.path) is no longer there")
            } catch {
                throw UNError(.attachmentInvalidURL, description: "\(attachment.url.path) was not copied: \(error)")
            }
        }
        return try store(attachments, from: sources)
    }

    /// ``store(_:)`` with each attachment's bytes read from the open descriptor at the same
    /// index of `sources` (which stay the caller's), never from its URL: the agent copies what
    /// an app handed over this way (`AddFiles`), whatever path the request names.
    ///
    /// - Throws: ``UNError`` `attachmentInvalidURL` for a descriptor that is not a regular file;
    ///   `attachmentMoveIntoDataStoreFailed` past the quota or when a copy fails.
    func store(_ attachments: [UNNotificationAttachment], from sources: [Int32]) throws -> (attachments: [UNNotificationAttachment], folder: URL) {
        guard sources.count == attachments.count else {
            throw UNError(
                .attachmentMoveIntoDataStoreFailed, description: "\(attachments.count) attachments came with \(sources.count) files")
        }
        var incoming = 0
        for (attachment, source) in zip(attachments, sources) {
            do throws(AttachmentCopy.Refusal) {
                incoming += try AttachmentCopy.regularFileSize(of: source)
            } catch {
                throw UNError(.attachmentInvalidURL, description: "\(attachment.url.lastPathComponent) was not copied: \(error)")
            }
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
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            var room = quota - used
            let stored = try zip(attachments, sources).enumerated().map { index, pair in
                let (attachment, source) = pair
                let copy = folder.appendingPathComponent("\(index)-\(Self.storedName(attachment.url.lastPathComponent))")
                room -= try AttachmentCopy.copy(from: source, to: copy.path, room: room)
                return UNNotificationAttachment(
                    identifier: attachment.identifier, url: copy, type: attachment.type,
                    isThumbnailHidden: attachment.isThumbnailHidden, thumbnailClippingRect: attachment.thumbnailClippingRect)
            }
            _ = NotificationBridge.shownImage(among: stored)?.clippedThumbnail
            return (stored, folder)
        } catch {
            remove(folder)
            throw UNError(.attachmentMoveIntoDataStoreFailed, description: "could not copy into \(folder.path): \(error)")
        }
    }

    /// A file name for the copy: the source's last path element, at most 128 bytes, with no
    /// `/` and no NUL (a name from another process is not trusted to be one element).
    static func storedName(_ name: String) -> String {
        let cleaned = String(name.unicodeScalars.filter { $0 != "/" && $0 != "\0" }.map(Character.init))
        var result = ""
        for character in cleaned {
            guard result.utf8.count + String(character).utf8.count <= 128 else { break }
            result.append(character)
        }
        return result.isEmpty || result == "." || result == ".." ? "attachment" : result
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
            SubsystemLog.center.logger.error(
                "stored attachments were not pruned", metadata: ["error": SubsystemLog.describe(error)])
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
            SubsystemLog.center.logger.error(
                "a stored attachment was not removed", metadata: ["error": SubsystemLog.describe(error)])
        }
    }

    /// The folder a stored attachment lives in, or `nil` for a file outside the store.
    func folder(of attachment: UNNotificationAttachment) -> URL? {
        let folder = attachment.url.deletingLastPathComponent().standardizedFileURL
        return folder.deletingLastPathComponent() == root.standardizedFileURL ? folder : nil
    }

    private func usedBytes() -> Int {
        Self.usedBytes(under: root)
    }

    /// The bytes of the regular files under `root`, a store's folder (none when it is missing).
    package static func usedBytes(under root: URL) -> Int {
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.fileSizeKey, .isRegularFileKey]) else { return 0 }
        var total = 0
        for case let file as URL in walker {
            guard let values = try? file.resourceValues(forKeys: [.fileSizeKey, .isRegularFileKey]), values.isRegularFile == true else { continue }
            total += values.fileSize ?? 0
        }
        return total
    }
}

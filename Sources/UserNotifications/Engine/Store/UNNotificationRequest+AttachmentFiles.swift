import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension UNNotificationRequest {
    /// The request with its attachments pointing at `urls`, in order (the agent's staged copies
    /// of the files an app handed over); every other field as it was.
    package func replacingAttachmentURLs(_ urls: [URL]) -> UNNotificationRequest {
        guard let content = content.mutableCopy() as? UNMutableNotificationContent, urls.count == content.attachments.count else { return self }
        content.attachments = zip(content.attachments, urls).map { attachment, url in
            UNNotificationAttachment(
                identifier: attachment.identifier, url: url, type: attachment.type,
                isThumbnailHidden: attachment.isThumbnailHidden, thumbnailClippingRect: attachment.thumbnailClippingRect)
        }
        return UNNotificationRequest(identifier: identifier, content: content, trigger: trigger)
    }

    /// A name for the copy of attachment `index`: its file's last path element, at most 128
    /// bytes, with no `/` or NUL, after the index.
    package static func stagedAttachmentName(_ index: Int, of url: URL) -> String {
        "\(index)-\(AttachmentStore.storedName(url.lastPathComponent))"
    }

    /// Opens each attachment's file for reading, in the app's own process and with its rights,
    /// without waiting on a FIFO (`O_NONBLOCK`), for the agent's `AddFiles`: the agent copies
    /// from these descriptors and never opens the paths.
    ///
    /// - Returns: one descriptor per attachment, owned by the caller.
    /// - Throws: ``UNError`` `attachmentNotInDataStore` when a file cannot be opened (the
    ///   descriptors opened before are closed).
    package func openAttachmentFiles() throws -> [Int32] {
        var descriptors: [Int32] = []
        for attachment in content.attachments {
            let descriptor = open(attachment.url.path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
            guard descriptor >= 0 else {
                let code = errno
                for opened in descriptors { close(opened) }
                throw UNError(
                    .attachmentNotInDataStore, description: "\(attachment.url.path) cannot be opened: \(String(cString: strerror(code)))")
            }
            descriptors.append(descriptor)
        }
        return descriptors
    }
}

import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension UNNotificationRequest {
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

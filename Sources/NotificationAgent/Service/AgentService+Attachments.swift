import DBus
import Foundation
import UserNotifications
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension AgentService {
    /// Adds `request` with attachments. Their bytes come from `sources`, the descriptors an app
    /// handed over (`AddFiles`), one per attachment in order; without them (`Add`,
    /// `AddRequests`) from the paths the request names, which the agent opens only for a host
    /// app, never following a link and never waiting on a FIFO, and refuses for a sandboxed
    /// one, before anything is opened.
    ///
    /// Each source must be a regular file; the sizes its descriptor reports must fit the app's
    /// and the agent's attachment budgets (``AgentLimits/appAttachmentBytes``,
    /// ``AgentLimits/agentAttachmentBytes``) before a byte is copied. The bytes are copied into
    /// a folder of the agent's own (`<app>/incoming/`), from which the engine's store takes
    /// them; the folder is removed once the request is accepted or refused.
    func addWithFiles(
        _ request: UNNotificationRequest, bytes: Int, sources: [DBusFileDescriptor]?, to app: AgentApp,
        presentation: UNNotificationPresentationOptions?, accepted: (@Sendable () -> Void)?
    ) async throws {
        let attachments = request.content.attachments
        guard attachments.count <= AgentLimits.attachmentsPerRequest else {
            throw NotificationAgentError.invalidArgument(
                "a request carries at most \(AgentLimits.attachmentsPerRequest) attachments, not \(attachments.count)")
        }
        var descriptors: [Int32] = []
        defer { for descriptor in descriptors { close(descriptor) } }
        if let sources {
            guard sources.count == attachments.count else {
                throw NotificationAgentError.invalidArgument("AddFiles takes one file per attachment: \(attachments.count) attachments, \(sources.count) files")
            }
            for source in sources { descriptors.append(try source.duplicate()) }
        } else {
            guard app.confinement == .host else {
                throw NotificationAgentError.notAllowed("a sandboxed app hands its attachment files over as descriptors (AddFiles), not as paths")
            }
            for attachment in attachments {
                do throws(AttachmentCopy.Refusal) {
                    descriptors.append(try AttachmentCopy.openSource(path: attachment.url.path))
                } catch {
                    throw UNError(.attachmentInvalidURL, userInfo: [NSLocalizedDescriptionKey: "\(attachment.url.path) was not taken: \(error)"])
                }
            }
        }
        var room = min(
            AgentLimits.appAttachmentBytes - Self.attachmentBytes(under: app.folder, depth: 1),
            AgentLimits.agentAttachmentBytes - Self.attachmentBytes(under: stateRoot, depth: 2))
        let incoming = app.folder.appendingPathComponent("incoming", isDirectory: true)
        let staging = incoming.appendingPathComponent(UUID().uuidString, isDirectory: true)
        try PrivateStorage.prepareFolder(incoming.path)
        try PrivateStorage.prepareFolder(staging.path)
        defer {
            do {
                try PrivateStorage.remove(staging.path)
            } catch {
                AgentLog.logger.error("staged attachment files were not removed", metadata: ["app": "\(app.appID)", "error": AgentLog.describe(error)])
            }
        }
        var urls: [URL] = []
        for (index, pair) in zip(attachments, descriptors).enumerated() {
            let url = staging.appendingPathComponent(UNNotificationRequest.stagedAttachmentName(index, of: pair.0.url))
            do throws(AttachmentCopy.Refusal) {
                room -= try AttachmentCopy.copy(from: pair.1, to: url.path, room: max(room, 0))
            } catch .tooLarge(let size, let left) {
                throw NotificationAgentError.limitReached("attachment \(index) holds \(size) bytes; the app's attachment budget has \(left) left")
            } catch {
                throw UNError(.attachmentInvalidURL, userInfo: [NSLocalizedDescriptionKey: "attachment \(index) was not taken: \(error)"])
            }
            urls.append(url)
        }
        try await app.add(
            request.replacingAttachmentURLs(urls), travelBytes: bytes, othersBytes: othersBytes(app), presentation: presentation,
            accepted: accepted)
    }

    /// The bytes of the regular files in the `attachments` folders under `folder`: an app's
    /// own (`depth` 1: `folder/attachments`) or every app's (`depth` 2: `folder/*/attachments`).
    static func attachmentBytes(under folder: URL, depth: Int) -> Int {
        let files = FileManager.default
        let roots: [URL] = depth <= 1
            ? [folder.appendingPathComponent("attachments")]
            : ((try? files.contentsOfDirectory(atPath: folder.path)) ?? []).map {
                folder.appendingPathComponent($0).appendingPathComponent("attachments")
            }
        var total = 0
        for root in roots {
            guard let walker = files.enumerator(at: root, includingPropertiesForKeys: [.fileSizeKey, .isRegularFileKey]) else { continue }
            for case let file as URL in walker {
                guard let values = try? file.resourceValues(forKeys: [.fileSizeKey, .isRegularFileKey]), values.isRegularFile == true else { continue }
                total += values.fileSize ?? 0
            }
        }
        return total
    }
}

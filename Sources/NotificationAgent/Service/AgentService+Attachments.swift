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
    /// Each source must be a regular file, and the sizes their descriptors report must fit the
    /// app's and the agent's attachment budgets (``AgentLimits/appAttachmentBytes``,
    /// ``AgentLimits/agentAttachmentBytes``) before a byte is copied. The engine's store
    /// copies each from its descriptor, once, at most that many bytes.
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
                throw AgentApp.attachmentPathsRefused
            }
            for attachment in attachments {
                do throws(AttachmentCopy.Refusal) {
                    descriptors.append(try AttachmentCopy.openSource(path: attachment.url.path))
                } catch {
                    throw UNError(.attachmentInvalidURL, userInfo: [NSLocalizedDescriptionKey: "\(attachment.url.path) was not taken: \(error)"])
                }
            }
        }
        var incoming = 0
        for (index, descriptor) in descriptors.enumerated() {
            do throws(AttachmentCopy.Refusal) {
                incoming += try AttachmentCopy.regularFileSize(of: descriptor)
            } catch {
                throw UNError(.attachmentInvalidURL, userInfo: [NSLocalizedDescriptionKey: "attachment \(index) was not taken: \(error)"])
            }
        }
        let appRoom = AgentLimits.appAttachmentBytes - AttachmentStore.usedBytes(under: app.folder.appendingPathComponent("attachments"))
        let agentRoom = AgentLimits.agentAttachmentBytes - agentAttachmentBytes()
        guard incoming <= min(appRoom, agentRoom) else {
            throw NotificationAgentError.limitReached(
                "the attachments hold \(incoming) bytes; the app's attachment budget has \(max(appRoom, 0)) left, the agent's \(max(agentRoom, 0))")
        }
        try await app.add(
            request, travelBytes: bytes, othersBytes: othersBytes(app), presentation: presentation, files: descriptors, accepted: accepted)
    }

    /// The bytes of every app's stored attachments.
    private func agentAttachmentBytes() -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: stateRoot.path)) ?? []
        return names.reduce(0) { total, name in
            total + AttachmentStore.usedBytes(under: stateRoot.appendingPathComponent(name).appendingPathComponent("attachments"))
        }
    }
}

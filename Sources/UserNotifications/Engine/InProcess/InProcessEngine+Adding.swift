import Foundation
import FreedesktopNotifications

// Requests come in: validated, their attachments copied into the store, then scheduled or
// delivered at once; pending ones fire from the scheduler.
extension InProcessEngine {
    func accept(
        _ request: UNNotificationRequest, presentation: UNNotificationPresentationOptions?, waiter: EngineAnswer<Result<Void, any Error>>
    ) {
        do {
            try Self.validate(request)
            let request = try storingAttachments(of: request)
            if let trigger = request.trigger as? UNLocationNotificationTrigger {
                watch(request, trigger: trigger)
                waiter.resolve(.success(()))
            } else if let trigger = request.trigger, !(trigger is UNPushNotificationTrigger) {
                try schedule(request, trigger: trigger)
                waiter.resolve(.success(()))
            } else {
                cancelPending([request.identifier])
                deliver(request, date: clock.now, waiter: waiter, presentation: presentation)
            }
        } catch {
            // `add` told the location hub of this region before it came in: tell it again
            // what is watched, so a refused request leaves no client running for nothing.
            if request.trigger is UNLocationNotificationTrigger { regionsChanged() }
            waiter.resolve(.failure(error))
        }
    }

    static func validate(_ request: UNNotificationRequest) throws {
        try request.trigger?.validate()
        let content = request.content
        let fields = [
            ("identifier", request.identifier), ("title", content.title), ("subtitle", content.subtitle),
            ("body", content.body), ("categoryIdentifier", content.categoryIdentifier),
            ("threadIdentifier", content.threadIdentifier),
        ]
        for (field, text) in fields where text.utf8.contains(0) {
            throw NotificationDeliveryError.invalidContent(field: field, reason: "contains a NUL character")
        }
        if !content.userInfo.isEmpty { _ = try NotificationContentSnapshot(content) }
    }

    /// The request with its attachments copied into the store (unchanged without a store).
    private func storingAttachments(of request: UNNotificationRequest) throws -> UNNotificationRequest {
        guard let attachmentStore, !request.content.attachments.isEmpty else { return request }
        let stored = try attachmentStore.store(request.content.attachments)
        guard let content = request.content.mutableCopy() as? UNMutableNotificationContent else { return request }
        content.attachments = stored.attachments
        return UNNotificationRequest(identifier: request.identifier, content: content, trigger: request.trigger)
    }

    // MARK: - Attachment holds

    /// The store folders the request's attachments live in.
    func folders(of request: UNNotificationRequest) -> [URL] {
        guard let attachmentStore else { return [] }
        return request.content.attachments.compactMap(attachmentStore.folder(of:))
    }

    /// Counts one more holder of the request's stored attachments.
    func hold(_ request: UNNotificationRequest) {
        ledger.retain(folders(of: request))
    }

    /// Counts one holder fewer; removes the folders nobody holds any more.
    func release(_ request: UNNotificationRequest) {
        release(folders: folders(of: request))
    }

    func release(folders: [URL]) {
        guard let attachmentStore else { return }
        for folder in ledger.release(folders) { attachmentStore.release(folder) }
    }

    // MARK: - Pending

    func schedule(_ request: UNNotificationRequest, trigger: UNNotificationTrigger) throws {
        let entry = try PendingEntry(scheduling: request, trigger: trigger, at: clock.now)
        hold(entry.request)
        if let replaced = pending.insert(entry) {
            release(replaced.request)
            if replaced.request.trigger is UNLocationNotificationTrigger {
                regionMonitor.unwatch(replaced.identifier)
                regionsChanged()
            }
        }
        scheduler?.schedule(request.identifier, at: entry.nextFire)
        scheduleSave()
    }

    func cancelPending(_ identifiers: [String]?) {
        let removed: [PendingEntry]
        if let identifiers {
            removed = identifiers.compactMap { pending.remove($0) }
            for entry in removed {
                scheduler?.cancel(entry.identifier)
                regionMonitor.unwatch(entry.identifier)
            }
        } else {
            removed = pending.removeAll()
            scheduler?.cancelAll()
            regionMonitor.unwatchAll()
        }
        if removed.contains(where: { $0.request.trigger is UNLocationNotificationTrigger }) { regionsChanged() }
        for entry in removed { release(entry.request) }
        if !removed.isEmpty || identifiers == nil { scheduleSave() }
    }

    /// A pending request fell due: a repeating one is scheduled again, the others leave the
    /// list; then it is delivered.
    func fire(_ identifier: String, due: Date) {
        guard let entry = pending[identifier], entry.nextFire == due else { return }
        var leaves = true
        if let next = entry.nextFire(afterFiringAt: due, now: clock.now) {
            pending.reschedule(identifier, to: next)
            scheduler?.schedule(identifier, at: next)
            leaves = false
        } else {
            pending.remove(identifier)
        }
        scheduleSave()
        deliver(entry.request, date: due, waiter: nil)
        if leaves { release(entry.request) }
    }
}

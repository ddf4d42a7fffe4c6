import DBus
import Foundation
import FreedesktopNotifications

// Requests come in: validated, their attachments copied into the store, then scheduled or
// delivered at once; pending ones fire from the scheduler.
extension EngineCore {
    func accept(
        _ request: UNNotificationRequest, presentation: UNNotificationPresentationOptions?, files: [Int32]?,
        waiter: EngineAnswer<Result<Void, any Error>>
    ) {
        var stored: UNNotificationRequest?
        do {
            try request.validateForDelivery()
            let request = try attachmentStore?.storing(request, files: files) ?? request
            stored = request
            if let trigger = request.trigger as? UNLocationNotificationTrigger {
                watch(request, trigger: trigger)
                waiter.resolve(.success(()))
            } else if let trigger = request.trigger, !(trigger is UNPushNotificationTrigger) {
                try schedule(request, trigger: trigger)
                waiter.resolve(.success(()))
            } else if undeliveredAfterAcceptance != nil {
                cancelPending([request.identifier])
                keep(request)
                waiter.resolve(.success(()))
                // Behind a delivery of its identifier under way, if any: shown in call order.
                deliver(request, date: clock.now, waiter: nil, presentation: presentation, kept: request)
            } else {
                cancelPending([request.identifier])
                deliver(request, date: clock.now, waiter: waiter, presentation: presentation)
            }
        } catch {
            // Refused after its copies were made (a trigger that never fires), before anything
            // held them: they go now.
            if let stored { ledger.release(stored) }
            // `add` told the location hub of this region before it came in: tell it again
            // what is watched, so a refused request leaves no client running for nothing.
            if request.trigger is UNLocationNotificationTrigger { regionWatch.regionsChanged() }
            waiter.resolve(.failure(error))
        }
    }

    // MARK: - Attachment holds

    /// The store folders the request's attachments live in.
    func folders(of request: UNNotificationRequest) -> [URL] {
        attachmentStore?.folders(of: request) ?? []
    }

    // MARK: - Pending

    func schedule(_ request: UNNotificationRequest, trigger: UNNotificationTrigger) throws {
        let entry = try PendingEntry(scheduling: request, trigger: trigger, at: clock.now)
        ledger.hold(entry.request)
        if let replaced = pending.insert(entry) {
            ledger.release(replaced.request)
            regionWatch.unwatch([replaced.identifier])
        }
        scheduler?.schedule(request.identifier, at: entry.nextFire)
        scheduleSave()
    }

    func cancelPending(_ identifiers: [String]?) {
        let removed: [PendingEntry]
        if let identifiers {
            removed = identifiers.compactMap { pending.remove($0) }
            for entry in removed { scheduler?.cancel(entry.identifier) }
            regionWatch.unwatch(removed.map(\.identifier))
        } else {
            removed = pending.removeAll()
            scheduler?.cancelAll()
            regionWatch.unwatchAll()
        }
        for entry in removed { ledger.release(entry.request) }
        if !removed.isEmpty || identifiers == nil { scheduleSave() }
    }

    // MARK: - Accepted before delivery (the agent)

    /// Keeps an accepted immediate request in the pending list, with no trigger and due now,
    /// saved as a scheduled request is, until the server took it.
    private func keep(_ request: UNNotificationRequest) {
        let now = clock.now
        ledger.hold(request)
        if let replaced = pending.insert(PendingEntry(request: request, anchor: now, nextFire: now)) { ledger.release(replaced.request) }
        scheduleSave()
    }

    /// Delivers a kept request again, unless a delivery of its identifier is under way.
    func deliverKept(_ request: UNNotificationRequest) {
        guard !deliveries.isUnderWay(request.identifier) else { return }
        deliver(request, date: clock.now, waiter: nil, kept: request)
    }

    /// A kept request's delivery ended: it leaves the pending list when the server took it
    /// (or the host chose not to show it), unless a later request of its identifier replaced
    /// it there meanwhile; a failure is reported and the request stays (a replaced request's
    /// failure loses nothing: the request that replaced it is delivered after it).
    ///
    /// With `retry` (the delivery was under way when a server got the name), a failure is tried
    /// once more: it may have failed on the server before (whose `GetCapabilities` or `Notify`
    /// was answered after the new one took the name), and nothing else would try it again.
    func keptDeliveryEnded(_ request: UNNotificationRequest, _ outcome: Result<Void, any Error>, retry: Bool) {
        guard let entry = pending[request.identifier], entry.request === request else { return }
        switch outcome {
        case .success:
            pending.remove(request.identifier)
            scheduler?.cancel(request.identifier)
            ledger.release(request)
            scheduleSave()
        case .failure where retry:
            deliverKept(request)
        case .failure(let error):
            undeliveredAfterAcceptance?(
                request.identifier, error as? NotificationDeliveryError ?? .serverFailed(String(describing: error)))
        }
    }

    /// A notification server got the name: the kept requests are delivered again, oldest
    /// first; one whose delivery is under way is marked to be tried again if that delivery fails.
    func retryKept() {
        let kept = pending.entries.values.filter(\.awaitsDelivery).sorted { ($0.anchor, $0.identifier) < ($1.anchor, $1.identifier) }
        for entry in kept {
            if deliveries.isUnderWay(entry.identifier) {
                keptRetries.insert(entry.identifier)
            } else {
                deliver(entry.request, date: clock.now, waiter: nil, kept: entry.request)
            }
        }
    }

    /// Cancels the app's pending requests (`nil`: all): those with a trigger; a kept request
    /// (accepted, not shown yet) is not among them, as it is not in the list the app is given.
    func cancelScheduled(_ identifiers: [String]?) {
        guard pending.entries.values.contains(where: \.awaitsDelivery) else { return cancelPending(identifiers) }
        let chosen = identifiers ?? Array(pending.entries.keys)
        cancelPending(chosen.filter { pending[$0].map { !$0.awaitsDelivery } ?? false })
        if identifiers == nil { scheduleSave() }
    }

    /// A pending request fell due: a repeating one is scheduled again, the others leave the
    /// list; then it is delivered. A kept request (no trigger: accepted before the agent
    /// stopped) stays in the list until the server took it.
    func fire(_ identifier: String, due: Date) {
        if let kept = pending[identifier], kept.nextFire == due, kept.awaitsDelivery { return deliverKept(kept.request) }
        guard let (entry, next) = pending.takeFired(identifier, due: due, now: clock.now) else { return }
        if let next { scheduler?.schedule(identifier, at: next) }
        scheduleSave()
        deliver(entry.request, date: due, waiter: nil)
        if next == nil { ledger.release(entry.request) }
    }
}

extension PendingEntry {
    /// An immediate request the agent accepted and keeps until the server took it (no trigger,
    /// or a push trigger, which the engine shows at once): not in the list the app is given.
    var awaitsDelivery: Bool {
        !Self.isScheduled(request)
    }

    /// Whether `request` waits for a trigger (it is listed as pending).
    static func isScheduled(_ request: UNNotificationRequest) -> Bool {
        guard let trigger = request.trigger else { return false }
        return !(trigger is UNPushNotificationTrigger)
    }
}

import DesktopNotificationsSupport
import Foundation

// Location triggers, as the in-process engine takes them: a pending location request is
// watched by the engine's ``RegionWatch``, not the scheduler, and positions from GeoClue2 fire
// the requests whose regions they cross, delivered through the engine's own service. The
// region watch's lock is only ever taken inside the engine's, so a position is weighed
// against the pending list as it is.
extension ServiceEngine {
    /// Takes a location request in, once the location service runs: pending (after every
    /// dated request), its region watched; a request of the same identifier leaves the list
    /// and the scheduler.
    ///
    /// - Throws: ``LocationServiceError`` when GeoClue is absent or denies the app.
    func watch(_ request: UNNotificationRequest, trigger: UNLocationNotificationTrigger) async throws(LocationServiceError) {
        let region = trigger.regionRecord
        try await regionWatch.need(adding: region)
        let entry = PendingEntry(request: request, anchor: clock.now, nextFire: RegionWatch.pendingDate)
        state.withLock { state in
            if let replaced = state.pending.insert(entry) { state.ledger.release(replaced.request) }
            regionWatch.watch(request.identifier, region: region)
        }
        scheduler?.cancel(request.identifier)
        stateChanged()
    }

    /// Takes a saved location request back in, under the engine's lock (``restore()``):
    /// pending and watched. One whose region cannot be watched (a damaged or hand-edited
    /// state file) is logged and dropped; it leaves the file at the next save.
    func restoreWatch(_ entry: PendingEntry, trigger: UNLocationNotificationTrigger, into state: inout ServiceEngineState) {
        if let problem = trigger.regionRecord.problem {
            SubsystemLog.center.logger.error(
                "a saved location request was dropped", metadata: ["identifier": "\(entry.identifier)", "reason": "\(problem)"])
            return
        }
        state.pending.insert(PendingEntry(request: entry.request, anchor: entry.anchor, nextFire: RegionWatch.pendingDate))
        state.ledger.hold(entry.request)
        regionWatch.watch(entry.identifier, region: trigger.regionRecord)
    }

    /// An event of the location service: the requests whose regions a position crossed as
    /// they ask fire; a repeating one stays pending and watched, the others leave the list.
    /// They are delivered one after the other, in the order of their identifiers, and a
    /// failure is logged (nobody waits for it).
    func takeLocation(_ event: GeoClueClient.Event) {
        let now = clock.now
        let fired = state.withLock { state -> [UNNotificationRequest] in
            guard !state.closed else { return [] }
            let crossed = state.pending.takeCrossed(regionWatch.crossings(event), unwatchingIn: regionWatch)
            // Each delivery holds the attachments: a request that left the list hands its hold on.
            for (request, stays) in crossed where stays { state.ledger.hold(request) }
            return crossed.map(\.request)
        }
        guard !fired.isEmpty else { return }
        stateChanged()
        Task {
            for request in fired {
                do {
                    try await self.deliver(request, date: now)
                } catch {
                    SubsystemLog.center.logger.error(
                        "a notification whose location trigger fired was not delivered",
                        metadata: ["identifier": "\(request.identifier)", "error": SubsystemLog.describe(error)])
                }
            }
        }
    }
}

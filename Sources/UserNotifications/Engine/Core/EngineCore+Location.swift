import DesktopNotificationsSupport
import Foundation

// Location triggers: a pending request with one is watched by the engine's region watch
// (``RegionWatch``), not the scheduler; positions come from the location hub (GeoClue2) and
// fire the requests whose regions they cross.
extension EngineCore {
    /// Makes sure the location service runs before a location request is taken in.
    ///
    /// - Throws: ``LocationServiceError`` when GeoClue is absent or denies the app.
    nonisolated func prepareLocation(adding region: LocationTriggerRegion) async throws(LocationServiceError) {
        await drain()
        try await regionWatch.need(adding: region)
    }

    /// Takes a location request in: pending, its region watched.
    func watch(_ request: UNNotificationRequest, trigger: UNLocationNotificationTrigger) {
        let entry = PendingEntry(request: request, anchor: clock.now, nextFire: RegionWatch.pendingDate)
        ledger.hold(entry.request)
        if let replaced = pending.insert(entry) {
            scheduler?.cancel(replaced.identifier)
            ledger.release(replaced.request)
        }
        regionWatch.watch(request.identifier, region: trigger.regionRecord)
        scheduleSave()
    }

    /// Takes a saved location request back in; one whose region cannot be watched (a damaged
    /// or hand-edited state file) is reported and dropped.
    func restoreWatch(_ request: UNNotificationRequest, trigger: UNLocationNotificationTrigger, anchor: Date) {
        if let problem = trigger.regionRecord.problem {
            SubsystemLog.center.logger.error(
                "a saved location request was dropped", metadata: ["identifier": "\(request.identifier)", "reason": "\(problem)"])
            ledger.release(request)
            scheduleSave()
            return
        }
        pending.insert(PendingEntry(request: request, anchor: anchor, nextFire: RegionWatch.pendingDate))
        regionWatch.watch(request.identifier, region: trigger.regionRecord)
    }

    /// An event of the location service: the requests whose regions a position crossed as
    /// they ask fire (``PendingTable/takeCrossed(_:unwatchingIn:)``) and are delivered.
    func takeLocation(_ event: GeoClueClient.Event) {
        let fired = pending.takeCrossed(regionWatch.crossings(event), unwatchingIn: regionWatch)
        guard !fired.isEmpty else { return }
        scheduleSave()
        for (request, stays) in fired {
            deliver(request, date: clock.now, waiter: nil)
            if !stays { ledger.release(request) }
        }
    }
}

import DesktopNotificationsSupport
import Foundation

// Location triggers: a pending request with one is watched by the region monitor, not the
// scheduler; positions come from the location hub (GeoClue2) and fire the requests whose
// regions they cross.
extension InProcessEngine {
    /// Pending location requests sort after every dated one.
    static let locationPendingDate = Date.distantFuture

    /// Makes sure the location service runs before a location request is taken in.
    ///
    /// - Throws: ``LocationServiceError`` when GeoClue is absent or denies the app.
    nonisolated func prepareLocation(adding region: LocationTriggerRegion) async throws(LocationServiceError) {
        await drain()
        guard let subscriber = await locationSubscriber else { throw .serviceUnavailable("the engine has stopped") }
        let current = await regionMonitor.regions.values.map(\.radius).min()
        try await locationHub.need(subscriber, smallestRadius: min(current ?? region.radius, region.radius))
    }

    /// Takes a location request in: pending, its region watched.
    func watch(_ request: UNNotificationRequest, trigger: UNLocationNotificationTrigger) {
        let entry = PendingEntry(request: request, anchor: clock.now, nextFire: Self.locationPendingDate)
        hold(entry.request)
        if let replaced = pending.insert(entry) {
            scheduler?.cancel(replaced.identifier)
            release(replaced.request)
        }
        regionMonitor.watch(request.identifier, region: trigger.regionRecord)
        regionsChanged()
        scheduleSave()
    }

    /// Takes a saved location request back in; one whose region cannot be watched (a damaged
    /// or hand-edited state file) is reported and dropped.
    func restoreWatch(_ request: UNNotificationRequest, trigger: UNLocationNotificationTrigger, anchor: Date) {
        if let problem = trigger.regionRecord.problem {
            SubsystemLog.center.logger.error(
                "a saved location request was dropped", metadata: ["identifier": "\(request.identifier)", "reason": "\(problem)"])
            release(request)
            scheduleSave()
            return
        }
        pending.insert(PendingEntry(request: request, anchor: anchor, nextFire: Self.locationPendingDate))
        regionMonitor.watch(request.identifier, region: trigger.regionRecord)
        regionsChanged()
    }

    /// Tells the hub the smallest radius watched now (none: the client may stop).
    func regionsChanged() {
        guard let locationSubscriber else { return }
        let radius = regionMonitor.regions.values.map(\.radius).min()
        let hub = locationHub
        Task {
            do {
                try await hub.need(locationSubscriber, smallestRadius: radius)
            } catch {
                SubsystemLog.center.logger.warning(
                    "the location service cannot watch the pending location requests", metadata: ["error": SubsystemLog.describe(error)])
            }
        }
    }

    /// An event of the location service.
    func takeLocation(_ event: GeoClueClient.Event) {
        guard case .fix(let fix) = event else { return }
        for crossing in regionMonitor.take(fix) {
            fireLocation(crossing.key)
        }
    }

    /// A location request's region was crossed as it asks: a repeating one stays pending and
    /// watched, the others leave the list; then it is delivered.
    private func fireLocation(_ identifier: String) {
        guard let entry = pending[identifier] else { return }
        let repeats = entry.request.trigger?.repeats ?? false
        if !repeats {
            pending.remove(identifier)
            regionMonitor.unwatch(identifier)
            regionsChanged()
        }
        scheduleSave()
        deliver(entry.request, date: clock.now, waiter: nil)
        if !repeats { release(entry.request) }
    }
}

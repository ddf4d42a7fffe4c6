import Foundation

extension PendingTable {
    /// Takes the entry `identifier` whose trigger fell due at `due`: a repeating one is
    /// rescheduled (its next date is returned), any other leaves the table. `nil` when the
    /// entry is gone or was rescheduled since (a stale alarm).
    mutating func takeFired(_ identifier: String, due: Date, now: Date) -> (entry: PendingEntry, next: Date?)? {
        guard let entry = self[identifier], entry.nextFire == due else { return nil }
        let next = entry.nextFire(afterFiringAt: due, now: now)
        if let next { reschedule(identifier, to: next) } else { remove(identifier) }
        return (entry, next)
    }
}

extension PendingTable {
    /// Takes the location entries whose regions a position crossed (`identifiers`, from
    /// ``RegionWatch/crossings(_:)``): a repeating one stays pending and watched, the others
    /// leave the table and `regionWatch`. Returns the requests to deliver, in the order given,
    /// each with whether it stays pending.
    mutating func takeCrossed(
        _ identifiers: [String], unwatchingIn regionWatch: RegionWatch
    ) -> [(request: UNNotificationRequest, stays: Bool)] {
        identifiers.compactMap { identifier in
            guard let entry = self[identifier] else { return nil }
            let stays = entry.request.trigger?.repeats ?? false
            if !stays {
                remove(identifier)
                regionWatch.unwatch([identifier])
            }
            return (entry.request, stays)
        }
    }
}

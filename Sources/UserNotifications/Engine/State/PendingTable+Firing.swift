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

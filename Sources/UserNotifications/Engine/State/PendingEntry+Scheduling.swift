import Foundation

// The trigger arithmetic every engine with a scheduler shares: the entry a request makes when
// it is added, and where a repeating one goes after it fires.
extension PendingEntry {
    /// The entry for `request` added at `anchor`: a time-interval trigger counts from the
    /// anchor (the request keeps it, so a saved state fires on time).
    ///
    /// - Throws: `UNError(.notificationInvalidNoDate)` when the trigger never fires after `anchor`.
    init(scheduling request: UNNotificationRequest, trigger: UNNotificationTrigger, at anchor: Date) throws {
        guard let next = trigger.nextFireDate(after: anchor, anchor: anchor, calendar: .current) else {
            throw UNError(.notificationInvalidNoDate, description: "the trigger never fires after \(anchor)")
        }
        let anchored = (trigger as? UNTimeIntervalNotificationTrigger)
            .map { UNNotificationRequest(identifier: request.identifier, content: request.content, trigger: $0.anchored(at: anchor)) }
            ?? request
        self.init(request: anchored, anchor: anchor, nextFire: next)
    }

    /// When a repeating entry that fell due at `due` fires next (`nil`: it does not repeat, or
    /// its trigger has no later date), counted from `now` when the clock is past `due`.
    func nextFire(afterFiringAt due: Date, now: Date) -> Date? {
        guard let trigger = request.trigger, trigger.repeats else { return nil }
        return trigger.nextFireDate(after: max(due, now), anchor: anchor, calendar: .current)
    }
}

extension EngineCore {
    /// How full the pending and delivered lists are, and whether `identifier` is in each, once
    /// every input put in before has been taken: a cap check that costs the same with one
    /// pending request or ten thousand.
    package func occupancy(of identifier: String) async -> EngineOccupancy {
        await drain()
        // A kept immediate request (accepted, not shown yet) counts as shown, not pending.
        let kept = pending[identifier]?.awaitsDelivery
        return EngineOccupancy(
            pending: pending.count - pending.awaitingDelivery, delivered: delivered.live.count + pending.awaitingDelivery,
            isPending: kept == false, isDelivered: delivered[identifier] != nil || kept == true, underWay: deliveries.count)
    }
}

extension EngineCore {
    /// When the pending requests next need the process, once every input put in before has
    /// been taken. One pass over the pending list.
    package func pendingWake() async -> PendingWake {
        await drain()
        var wake = PendingWake.nothing
        for entry in pending.entries.values {
            guard !entry.awaitsDelivery, !(entry.request.trigger is UNLocationNotificationTrigger) else { return .watching }
            wake = wake.combined(with: .at(entry.nextFire))
        }
        return wake
    }
}

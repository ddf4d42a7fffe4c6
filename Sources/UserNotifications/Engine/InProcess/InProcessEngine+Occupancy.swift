extension InProcessEngine {
    /// How full the pending and delivered lists are, and whether `identifier` is in each, once
    /// every input put in before has been taken: a cap check that costs the same with one
    /// pending request or ten thousand.
    func occupancy(of identifier: String) async -> EngineOccupancy {
        await drain()
        return EngineOccupancy(
            pending: pending.count, delivered: delivered.live.count, isPending: pending[identifier] != nil,
            isDelivered: delivered[identifier] != nil)
    }
}

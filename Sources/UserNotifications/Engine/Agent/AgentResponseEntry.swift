/// One response the agent gave a center: its id in the agent's queue and its record, with the
/// activation token the app was activated with for it, if any.
struct AgentResponseEntry: Sendable, Hashable {
    var id: String
    var record: AgentPayload.Record
    var activationToken: String? = nil
}

/// One response the agent gave a center: its id in the agent's queue and its JSON, with the
/// activation token the app was activated with for it, if any.
struct AgentResponseEntry: Sendable, Hashable {
    var id: String
    var json: String
    var activationToken: String? = nil
}

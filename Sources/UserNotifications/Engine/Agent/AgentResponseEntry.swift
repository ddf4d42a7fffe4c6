/// One response the agent gave a center: its id in the agent's queue and its JSON.
struct AgentResponseEntry: Sendable, Hashable {
    var id: String
    var json: String
}

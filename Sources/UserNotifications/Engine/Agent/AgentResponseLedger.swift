/// Which responses of the agent a center has told its host, so that each is told once and in
/// the agent's order, whether it comes as a `Response` signal, in a `TakeResponses` answer,
/// or both (the agent keeps a response until it is acknowledged, so after a restart of either
/// side the same id can come again).
///
/// While a `TakeResponses` call is on the wire, signals are held back: the answer holds the
/// older responses, and they are told first.
struct AgentResponseLedger: Sendable {
    /// How many told ids are remembered (the agent queues at most 256 per app).
    static let memory = 4096

    private var told: Set<String> = []
    private var toldOrder: [String] = []
    private var takesOnTheWire = 0
    private var held: [AgentResponseEntry] = []
    /// The activation tokens the app was activated with, by response id, until that response
    /// is told.
    private var tokens: [String: String] = [:]

    /// The agent's owner as the center last knew it (`nil`: no agent on the bus).
    var agentOwner: String?
    /// The owner that answered the center's last `Connect`.
    var connectedOwner: String?

    /// A `Response` signal: the entries to tell now (none while a take is on the wire).
    mutating func received(_ entry: AgentResponseEntry) -> [AgentResponseEntry] {
        guard takesOnTheWire == 0 else {
            held.append(entry)
            return []
        }
        return admit([entry])
    }

    /// A `TakeResponses` call leaves.
    mutating func takeStarted() {
        takesOnTheWire += 1
    }

    /// A `TakeResponses` call ended with `entries` (none when it failed): the entries to tell
    /// now, the answer's first, then the signals held back once no take is on the wire.
    mutating func takeEnded(with entries: [AgentResponseEntry]) -> [AgentResponseEntry] {
        takesOnTheWire = max(0, takesOnTheWire - 1)
        var admitted = admit(entries)
        if takesOnTheWire == 0 {
            admitted += admit(held)
            held = []
        }
        return admitted
    }

    /// The app was activated for response `id` with `token`: it goes on that response when
    /// it is told, unless it was told already. At most ``tokenMemory`` are kept.
    mutating func activated(for id: String, token: String) {
        guard !told.contains(id) else { return }
        if tokens.count >= Self.tokenMemory, tokens[id] == nil { tokens.removeAll() }
        tokens[id] = token
    }

    /// Whether response `id` was told (among the last ``memory`` told).
    func hasTold(_ id: String) -> Bool {
        told.contains(id)
    }

    /// How many activation tokens wait for their response at the most.
    static let tokenMemory = 64

    /// The entries not told before, recorded as told, each with its activation token.
    private mutating func admit(_ entries: [AgentResponseEntry]) -> [AgentResponseEntry] {
        entries.compactMap { entry in
            guard told.insert(entry.id).inserted else { return nil }
            toldOrder.append(entry.id)
            if toldOrder.count > Self.memory {
                told.remove(toldOrder.removeFirst())
            }
            var admitted = entry
            admitted.activationToken = tokens.removeValue(forKey: entry.id) ?? entry.activationToken
            return admitted
        }
    }
}

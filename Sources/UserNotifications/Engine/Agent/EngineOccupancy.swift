/// The sizes of an engine's pending and delivered lists, and whether one identifier is in
/// each: what the agent checks its per-app caps against before an `Add`.
package struct EngineOccupancy: Sendable, Hashable {
    /// The pending requests.
    package var pending: Int
    /// The notifications shown now.
    package var delivered: Int
    /// Whether the identifier asked about is pending (an `Add` of it replaces it).
    package var isPending: Bool
    /// Whether the identifier asked about is shown now (an `Add` of it replaces it).
    package var isDelivered: Bool
    /// The deliveries on their way to the server (a trigger that fired, an update): while any
    /// is, the engine holds something even with both lists empty.
    package var underWay: Int = 0

    /// Whether the engine holds nothing: no pending request, nothing shown, nothing on its way.
    package var isEmpty: Bool { pending == 0 && delivered == 0 && underWay == 0 }
}

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
}

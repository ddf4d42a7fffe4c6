/// A qualifying crossing of a watched region's border, as ``RegionMonitor`` reports it.
package struct RegionCrossing<Key: Hashable & Sendable>: Hashable, Sendable {
    /// Which way the border was crossed.
    package enum Direction: Hashable, Sendable {
        case entered
        case exited
    }

    /// The watched region's key (a request identifier).
    package let key: Key
    package let direction: Direction
}

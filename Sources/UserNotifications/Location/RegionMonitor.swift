import CoreLocation

/// Decides, fix by fix, when the device enters or leaves each watched region: a pure value,
/// fed positions, which returns the crossings that should deliver a notification.
///
/// **Hysteresis.** A fix is a circle: its coordinate and its accuracy radius, widened to at
/// least ``minimumMargin(radius:)``. The device is *inside* a region only when that whole
/// circle is within the region, *outside* only when the whole circle is beyond it; a fix whose
/// circle straddles the border changes nothing. So noisy fixes near the border cannot make the
/// state flap: to go from inside to outside the device must move at least twice the margin.
///
/// **The first decision.** A region added while the position is unknown starts *undecided*;
/// the first fix that decides it sets its state and reports nothing. Only a later change
/// (outside to inside, or inside to outside) is a crossing. Apple's documentation speaks of
/// boundary crossings only: a device already inside a region when the trigger is added does
/// not count as entering it.
///
/// **What is reported.** An entry only for a region with `notifyOnEntry`, an exit only for one
/// with `notifyOnExit`. Removing a non-repeating request after its crossing is the caller's
/// job (``unwatch(_:)``).
package struct RegionMonitor<Key: Hashable & Sendable>: Sendable {
    /// What the monitor knows of the device and a region.
    package enum Presence: Hashable, Sendable {
        case undecided
        case inside
        case outside
    }

    private struct Watched: Sendable {
        var region: LocationTriggerRegion
        var presence: Presence
    }

    private var watched: [Key: Watched] = [:]
    /// The last fix taken, which decides a region added later.
    package private(set) var lastFix: LocationFix?

    package init() {}

    /// How many regions are watched.
    package var count: Int { watched.count }

    /// Whether nothing is watched.
    package var isEmpty: Bool { watched.isEmpty }

    /// The regions watched, by key.
    package var regions: [Key: LocationTriggerRegion] { watched.mapValues(\.region) }

    /// What the monitor knows of `key`'s region (`nil`: not watched).
    package func presence(of key: Key) -> Presence? { watched[key]?.presence }

    /// Metres per degree of latitude on the sphere distances are measured on.
    private static var metresPerDegree: Double { GreatCircle.earthRadius * .pi / 180 }

    /// The smallest uncertainty counted around a fix, in metres: 5 % of the region's radius,
    /// at least 5 m. A fix reported with a smaller accuracy counts as this uncertain, so a
    /// device standing on the border with a perfect receiver does not flap either.
    package static func minimumMargin(radius: Double) -> Double {
        max(5, radius * 0.05)
    }

    /// Starts watching `region` under `key` (replacing what `key` watched). The last fix, if
    /// there is one, decides its state at once, with no crossing reported.
    package mutating func watch(_ key: Key, region: LocationTriggerRegion) {
        let presence = lastFix.map { Self.classify($0, in: region) } ?? .undecided
        watched[key] = Watched(region: region, presence: presence)
    }

    /// Stops watching `key`.
    package mutating func unwatch(_ key: Key) {
        watched[key] = nil
    }

    /// Stops watching everything.
    package mutating func unwatchAll() {
        watched = [:]
    }

    /// Takes a new fix; returns the crossings it makes that should deliver, ordered by key
    /// description so that the order is stable.
    package mutating func take(_ fix: LocationFix) -> [RegionCrossing<Key>] {
        lastFix = fix
        var crossings: [RegionCrossing<Key>] = []
        // Changes are gathered first and made after the walk: a change made during it would
        // copy the whole table.
        var changes: [(Key, Presence)] = []
        for (key, entry) in watched {
            let seen = Self.classify(fix, in: entry.region)
            guard seen != .undecided, seen != entry.presence else { continue }
            changes.append((key, seen))
            switch (entry.presence, seen) {
            case (.outside, .inside) where entry.region.notifyOnEntry:
                crossings.append(RegionCrossing(key: key, direction: .entered))
            case (.inside, .outside) where entry.region.notifyOnExit:
                crossings.append(RegionCrossing(key: key, direction: .exited))
            default:
                break
            }
        }
        for (key, presence) in changes { watched[key]?.presence = presence }
        return crossings.sorted { String(describing: $0.key) < String(describing: $1.key) }
    }

    /// Where `fix` puts the device with respect to `region`: inside or outside when its whole
    /// uncertainty circle is, else undecided.
    package static func classify(_ fix: LocationFix, in region: LocationTriggerRegion) -> Presence {
        let margin = max(fix.accuracy, minimumMargin(radius: region.radius))
        // The difference in latitude alone is a lower bound of the great-circle distance: a
        // fix that far is outside without the trigonometry.
        if abs(region.latitude - fix.latitude) * metresPerDegree - margin > region.radius { return .outside }
        let distance = GreatCircle.distance(region.center, fix.coordinate)
        if distance + margin <= region.radius { return .inside }
        if distance - margin > region.radius { return .outside }
        return .undecided
    }
}

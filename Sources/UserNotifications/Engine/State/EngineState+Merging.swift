import Foundation

extension EngineState {
    /// This center's state written over `stored`, the file as other processes of the app left
    /// it, given `baseline`, the state this center last read from the file or wrote to it.
    ///
    /// Each pending request and each delivered notification (by request identifier), the
    /// category set and the authorization are merged on their own. What this center changed
    /// since `baseline` (added, replaced or removed) is written, so on a conflict the center
    /// that saves last wins; everything else keeps the file's version, so what another process
    /// added, changed or removed meanwhile stays as it left it.
    func merged(over stored: EngineState, since baseline: EngineState) -> EngineState {
        var result = stored
        result.pending = Self.merge(pending, over: stored.pending, since: baseline.pending) { $0.request.identifier }
        result.delivered = Self.merge(delivered, over: stored.delivered, since: baseline.delivered) {
            $0.notification.request.identifier
        }
        if Set(categories) != Set(baseline.categories) { result.categories = categories }
        // A file without them means the defaults, as at load.
        if (authorizationStatus ?? 0) != (baseline.authorizationStatus ?? 0) { result.authorizationStatus = authorizationStatus }
        if (authorizationOptions ?? 0) != (baseline.authorizationOptions ?? 0) { result.authorizationOptions = authorizationOptions }
        return result
    }

    /// `stored` with the entries that changed from `baseline` to `ours` replaced, added or
    /// removed; in identifier order. A file that names one identifier twice keeps the first.
    private static func merge<Entry: Hashable>(
        _ ours: [Entry], over stored: [Entry], since baseline: [Entry], identifier: (Entry) -> String
    ) -> [Entry] {
        func byIdentifier(_ entries: [Entry]) -> [String: Entry] {
            Dictionary(entries.map { (identifier($0), $0) }, uniquingKeysWith: { first, _ in first })
        }
        let mine = byIdentifier(ours)
        let before = byIdentifier(baseline)
        var merged = byIdentifier(stored)
        for changed in Set(mine.keys).union(before.keys) where mine[changed] != before[changed] {
            merged[changed] = mine[changed]
        }
        return merged.sorted { $0.key < $1.key }.map(\.value)
    }

    /// Whether `other` holds the same entries and settings, in any order.
    func hasSameEntries(as other: EngineState) -> Bool {
        pending.count == other.pending.count && delivered.count == other.delivered.count
            && Set(pending) == Set(other.pending) && Set(delivered) == Set(other.delivered)
            && Set(categories) == Set(other.categories)
            && (authorizationStatus ?? 0) == (other.authorizationStatus ?? 0)
            && (authorizationOptions ?? 0) == (other.authorizationOptions ?? 0)
    }
}

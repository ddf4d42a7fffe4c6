import Foundation

/// The bytes of requests one app holds in the agent, pending and shown, and of its
/// categories, counted as they traveled (the size of their records,
/// ``UserNotifications/AgentPayload/size(of:)``): an estimate that grows with each `Add` and
/// `SetCategories` and is made exact again (``AgentApp/measureBytes()``) only when it would
/// pass a budget, at most once a second, so that the check costs nothing in the common case
/// and a hostile app near its budget cannot make the agent encode its lists at every call.
struct AgentAppBytes: Sendable {
    /// The bytes held, at least (an upper estimate until measured again).
    var estimate: Int
    /// When the estimate was last made exact.
    var measuredAt: ContinuousClock.Instant?

    /// How long an exact measure stands before another may be made.
    static let measureSpacing: Duration = .seconds(1)

    /// Whether a new measure may be made now.
    func mayMeasure(now: ContinuousClock.Instant) -> Bool {
        guard let measuredAt else { return true }
        return now - measuredAt >= Self.measureSpacing
    }

    /// The bytes of the regular files directly in `folder` (the app's state files, not its
    /// attachments): the estimate an app restored from disk starts with.
    static func sizeOnDisk(of folder: URL) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        var total = 0
        for name in names {
            var status = stat()
            guard lstat(folder.appendingPathComponent(name).path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { continue }
            total += Int(status.st_size)
        }
        return total
    }
}

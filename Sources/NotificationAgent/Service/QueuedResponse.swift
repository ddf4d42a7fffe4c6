import Foundation

/// A response kept for an app that was not running when it came: its id, its JSON (the
/// response snapshot of the agent's interface) and when it was queued.
struct QueuedResponse: Codable, Hashable, Sendable {
    var id: String
    var json: String
    var queuedAt: Date
}

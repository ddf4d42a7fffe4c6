import Foundation

/// What the center keeps across launches, in `$XDG_STATE_HOME/<app-id>/notifications.json`.
package struct EngineState: Codable, Sendable {
    struct Pending: Codable, Hashable, Sendable {
        var request: NotificationRequestSnapshot
        var anchor: Date
        var nextFire: Date
    }

    struct Delivered: Codable, Hashable, Sendable {
        var notification: NotificationSnapshot
        var server: String
        var id: UInt32
    }

    var pending: [Pending] = []
    var delivered: [Delivered] = []
    var categories: [NotificationCategorySnapshot] = []
    var authorizationStatus: Int?
    var authorizationOptions: UInt?
}

/// A live notification: where the server shows it, and whether it has been answered.
struct ServerKey: Hashable, Sendable {
    let server: String
    let id: UInt32
}

struct DeliveredEntry {
    var notification: UNNotification
    var key: ServerKey
    var responded = false
    var activationToken: String?
    /// Closed by the server, kept for a grace period so a late action still counts.
    var closedAt: Date?
    var dismissPending = false
}

struct PendingEntry {
    var request: UNNotificationRequest
    var anchor: Date
    var nextFire: Date
}

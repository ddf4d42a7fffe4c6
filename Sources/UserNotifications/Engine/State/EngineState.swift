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
        /// The secret the notification's action targets carry (the portal engine's
        /// ``PortalResponseID``), so that a click after a restart is still taken; absent for
        /// the other engines and in files written before it.
        var nonce: String?
    }

    var pending: [Pending] = []
    var delivered: [Delivered] = []
    var categories: [NotificationCategorySnapshot] = []
    var authorizationStatus: Int?
    var authorizationOptions: UInt?
}

import Foundation
import UserNotifications

/// What the agent keeps of an app beside its engine's state, in
/// `$XDG_STATE_HOME/desktopnotifications-agent/<app-id>/agent.json`: the identity it posts
/// with, and the responses queued for it, oldest first.
struct AgentAppRecord: Codable, Sendable {
    var displayName: String
    var icon: String
    var responses: [QueuedResponse] = []

    init(identity: ApplicationIdentity) {
        displayName = identity.displayName
        icon = identity.icon
    }

    func identity(appID: String) -> ApplicationIdentity {
        ApplicationIdentity(id: appID, displayName: displayName, icon: icon)
    }
}

import Foundation
import UserNotifications
import UserNotificationsTesting

extension TestBus {
    /// Starts the built `notify agent --foreground` on this bus with `environment` added, and
    /// waits until it owns the agent's name.
    func startAgent(arguments: [String] = [], environment: [String: String?]) async throws -> ChildProcess {
        let agent = try spawn(
            try BuiltProduct.url(named: "notify").path, ["agent", "--foreground"] + arguments, environment: environment)
        try await waitForName(AgentInterface.busName, ownedBy: agent)
        return agent
    }
}

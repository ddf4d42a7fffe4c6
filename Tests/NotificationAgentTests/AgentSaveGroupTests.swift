import Foundation
@testable import NotificationAgent
import Testing
import UserNotifications
import UserNotificationsTesting

/// The agent's apps share one save budget (``UserNotifications/SaveLoad``): with a load each,
/// 100 apps adding in turn wrote their whole state at every add (SaveCoalescingTests shows
/// the timing; this shows the agent hands every app the same load).
@Suite("The agent's apps save as one group")
struct AgentSaveGroupTests {
    @Test("every app's engine spaces its saves with the agent's one load; another agent has its own")
    func oneLoad() async throws {
        let fixture = try await AgentServiceFixture(prefix: "agent-saves")
        let agent = try await fixture.startAgent()
        let other = try await AgentServiceFixture(prefix: "agent-saves-other")
        let otherAgent = try await other.startAgent()
        let engines = ["org.example.First", "org.example.Second"].map {
            agent.app($0, identity: ApplicationIdentity(id: $0, displayName: $0, icon: "")).engine
        }
        let otherEngine = otherAgent.app("org.example.First", identity: ApplicationIdentity(id: "org.example.First", displayName: "First", icon: "")).engine
        #expect(engines.allSatisfy { $0.saves === agent.saves })
        #expect(otherEngine.saves === otherAgent.saves && otherAgent.saves !== agent.saves)
        await agent.stop()
        await otherAgent.stop()
    }
}

import Foundation
import NotificationAgent
import UserNotificationsTesting

/// The agent in process on a private bus, keeping its state in a fresh scratch folder.
struct AgentServiceFixture {
    let testBus: TestBus
    /// The agent's state folder, removed when the fixture goes away.
    let scratch: TemporaryFolder

    /// The agent's state folder: named with a prefix and a fresh UUID, made by the agent.
    var stateRoot: URL { scratch.url }

    /// A new bus and a state folder named `prefix` and a fresh UUID.
    init(prefix: String) async throws {
        testBus = try await TestBus()
        scratch = try TemporaryFolder(prefix: prefix, create: false)
    }

    /// Starts an agent on the bus with the state folder (again after a stop: the state is kept).
    func startAgent() async throws -> AgentService {
        try await AgentService.start(bus: .address(testBus.address), stateRoot: stateRoot)
    }

    /// Starts an agent as ``startAgent()`` does, and an app's client connected to it as `appID`.
    func startAgent(withApp appID: String) async throws -> (agent: AgentService, app: AgentTestClient) {
        let agent = try await startAgent()
        let app = try await AgentTestClient.connect(testBus.bus)
        try await app.connectApp(appID)
        return (agent, app)
    }
}

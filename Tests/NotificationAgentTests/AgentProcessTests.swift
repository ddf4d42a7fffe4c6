import DBus
import Foundation
import FreedesktopNotifications
import Testing
import UserNotifications
import UserNotificationsTesting

@Suite("The built notify as the agent process")
struct AgentProcessTests {
    static let appID = "org.example.AgentProcess"
    let testBus: TestBus
    /// The agent's state home, removed when the test ends.
    let scratch: TemporaryFolder
    var stateHome: URL { scratch.url }

    init() async throws {
        testBus = try await TestBus(withServiceDirectory: true)
        scratch = try TemporaryFolder(prefix: "agent-state", create: false)
    }

    func spawnAgent() async throws -> ChildProcess {
        try await testBus.startAgent(environment: ["XDG_STATE_HOME": stateHome.path])
    }

    @Test("the bus starts the agent from its service file on the first call")
    func activation() async throws {
        let notify = try BuiltProduct.url(named: "notify")
        let wrapper = testBus.directory.appendingPathComponent("agent.sh")
        try "#!/bin/sh\nXDG_STATE_HOME='\(stateHome.path)' exec '\(notify.path)' agent --foreground\n"
            .write(to: wrapper, atomically: true, encoding: .utf8)
        try await BuiltProduct.makeExecutable(atPath: wrapper.path)
        try testBus.writeService(name: AgentInterface.busName, exec: wrapper.path)
        let client = try await AgentTestClient.connect(testBus.bus)
        // The bus sees a new service file by inotify, later; ReloadConfig reads it now.
        _ = try await client.connection.callBus("ReloadConfig")
        #expect(try await client.connection.listActivatableNames().contains(AgentInterface.busName))
        #expect(try await client.call("Version") == [.uint32(AgentInterface.version)])
        let pid = try #require(try await testBus.ownerPID(of: AgentInterface.busName))
        #expect(kill(pid, SIGTERM) == 0)
    }

    @Test("kill -9 of the agent and a restart: committed pending requests survive")
    func survivesKill() async throws {
        _ = try await FakeNotificationServer.start(on: testBus.bus)
        let agent = try await spawnAgent()
        let app = try await AgentTestClient.connect(testBus.bus)
        try await app.connectApp(Self.appID)
        // The agent restores an app by its record: it is on disk once Connect has answered,
        // not a save interval later (a kill in between lost the app's committed requests).
        let record = stateHome.appendingPathComponent("desktopnotifications-agent/\(Self.appID)/agent.json")
        #expect(FileManager.default.fileExists(atPath: record.path), "no agent.json once Connect answered")
        try await app.add(AgentTestClient.request("survivor", after: 3600), for: Self.appID)
        let file = stateHome.appendingPathComponent("desktopnotifications-agent/\(Self.appID)/notifications.json")
        #expect(await eventually { (try? String(contentsOf: file, encoding: .utf8))?.contains("survivor") == true })
        _ = await agent.kill()
        let restarted = try await spawnAgent()
        let status = try await app.call("Status").first?.stringValue ?? ""
        #expect(status.contains(Self.appID) && status.contains("\"pending\":1"))
        try await app.connectApp(Self.appID)
        #expect(try await app.pending(of: Self.appID) == ["survivor"])
        _ = await restarted.kill()
    }

    @Test("a request that fell due while the agent was stopped fires once when it starts again")
    func missedWhileStoppedFiresOnce() async throws {
        let server = try await FakeNotificationServer.start(on: testBus.bus)
        let agent = try await spawnAgent()
        let app = try await AgentTestClient.connect(testBus.bus)
        try await app.connectApp(Self.appID)
        try await app.add(AgentTestClient.request("missed", after: 2), for: Self.appID)
        let file = stateHome.appendingPathComponent("desktopnotifications-agent/\(Self.appID)/notifications.json")
        #expect(await eventually { (try? String(contentsOf: file, encoding: .utf8))?.contains("missed") == true })
        _ = await agent.stop()
        // Past its due time with no agent running: nothing is shown.
        try await Task.sleep(for: .seconds(3))
        #expect(server.notifications.isEmpty)
        let restarted = try await spawnAgent()
        #expect(await server.waitForNotify(timeout: .seconds(10)) != nil)
        // Once: a second start-up, or the clock, shows it no more.
        try await Task.sleep(for: .seconds(2))
        #expect(server.notifications.map(\.request.summary) == ["Title of missed"])
        try await app.connectApp(Self.appID)
        #expect(try await app.pending(of: Self.appID).isEmpty)
        _ = await restarted.kill()
    }

    @Test("notify agent status prints the apps the agent holds")
    func statusCommand() async throws {
        _ = try await FakeNotificationServer.start(on: testBus.bus)
        let agent = try await spawnAgent()
        let app = try await AgentTestClient.connect(testBus.bus)
        try await app.connectApp(Self.appID)
        try await app.add(AgentTestClient.request("one", after: 3600), for: Self.appID)
        let result = try await testBus.run(try BuiltProduct.url(named: "notify").path, ["agent", "status"])
        #expect(result.standardOutput.contains("\(Self.appID)\t1\t0\t0\tyes"))
        _ = await agent.kill()
    }
}

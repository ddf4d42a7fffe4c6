import DBus
import Foundation
import FreedesktopNotifications
import Testing
import UserNotifications
import UserNotificationsTesting

/// `notify agent --idle-exit`: the built agent exits when it holds nothing, stays while it
/// holds a pending request, and comes back by activation with its state.
@Suite("The agent's idle exit")
struct AgentIdleTests {
    static let appID = "org.example.AgentIdle"
    let testBus: TestBus
    let stateHome: URL

    init() async throws {
        testBus = try await TestBus(withServiceDirectory: true)
        stateHome = FileManager.default.temporaryDirectory.appendingPathComponent("agent-idle-\(UUID().uuidString)")
    }

    @Test("an agent holding nothing exits with status 0 after its idle period")
    func exitsWhenIdle() async throws {
        let started = ContinuousClock.now
        let agent = try testBus.spawn(
            try BuiltProduct.url(named: "notify").path, ["agent", "--foreground", "--idle-exit", "2"],
            environment: ["XDG_STATE_HOME": stateHome.path])
        // result, not waitForExit: the check of what it printed needs every byte of it read.
        let result = try await agent.result(timeout: .seconds(20))
        #expect(result.status == .exited(0))
        #expect(ContinuousClock.now - started >= .seconds(2))
        #expect(!result.standardError.contains("error"), "\(result.standardError)")
    }

    @Test("--idle-exit 0 never exits; a bad value is refused")
    func neverOrRefused() async throws {
        let notify = try BuiltProduct.url(named: "notify").path
        let agent = try await testBus.startAgent(arguments: ["--idle-exit", "0"], environment: ["XDG_STATE_HOME": stateHome.path])
        #expect(await agent.waitForExit(timeout: .seconds(2)) == nil)
        _ = await agent.stop()
        let refused = try await testBus.run(notify, ["agent", "--foreground", "--idle-exit", "-1"])
        #expect(refused.status != .exited(0) && refused.standardError.contains("--idle-exit"))
    }

    @Test("a pending request keeps it; after the delivery it exits, and activation brings it back with its state")
    func staysWhileHolding() async throws {
        let server = try await FakeNotificationServer.start(on: testBus.bus)
        let wrapper = testBus.directory.appendingPathComponent("agent-idle.sh")
        let notify = try BuiltProduct.url(named: "notify").path
        try "#!/bin/sh\nXDG_STATE_HOME='\(stateHome.path)' exec '\(notify)' agent --foreground --idle-exit 1\n"
            .write(to: wrapper, atomically: true, encoding: .utf8)
        try await BuiltProduct.makeExecutable(atPath: wrapper.path)
        try testBus.writeService(name: AgentInterface.busName, exec: wrapper.path)
        let app = try await AgentTestClient.connect(testBus.bus)
        _ = try await app.connection.callBus("ReloadConfig")
        try await app.connectApp(Self.appID)
        try await app.add(AgentTestClient.request("later", after: 5), for: Self.appID)
        let first = try #require(try await testBus.ownerPID(of: AgentInterface.busName))
        await app.close()
        // Idle for 1 s would end it; the pending request holds it until it fires.
        try await Task.sleep(for: .seconds(3))
        #expect(try await testBus.ownerPID(of: AgentInterface.busName) == first)
        #expect(await server.waitForNotify(timeout: .seconds(10)) != nil)
        #expect(await eventually(timeout: .seconds(10)) { (try? await testBus.ownerPID(of: AgentInterface.busName)) == nil })
        let again = try await AgentTestClient.connect(testBus.bus)
        let status = try await again.call("Status").first?.stringValue ?? ""
        #expect(status.contains(Self.appID) && status.contains("\"delivered\":1"))
        let second = try #require(try await testBus.ownerPID(of: AgentInterface.busName))
        #expect(second != first)
        await again.close()
        #expect(await eventually(timeout: .seconds(10)) { (try? await testBus.ownerPID(of: AgentInterface.busName)) == nil })
    }
}

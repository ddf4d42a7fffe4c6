import Foundation
import FreedesktopNotifications
import Testing
import UserNotifications
import UserNotificationsTesting

/// `notify --in/--at/--every`, `notify pending` and `notify cancel` with the built notify as
/// the agent on a private bus, and the fake server showing what the agent posts.
@Suite("Scheduled notify handed to the agent")
struct AgentSchedulingCommandTests {
    let testBus: TestBus
    /// The folders, removed when the test ends.
    let scratch: TemporaryFolder
    var folder: URL { scratch.url }
    let server: FakeNotificationServer

    init() async throws {
        testBus = try await TestBus(withServiceDirectory: true)
        scratch = try TemporaryFolder(prefix: "agent-cli")
        try FileManager.default.createDirectory(at: scratch.url.appendingPathComponent("runtime"), withIntermediateDirectories: true)
        server = try await FakeNotificationServer.start(on: testBus.bus)
    }

    /// The agent's and every notify's folders: one state home, one runtime folder.
    var environment: [String: String?] {
        ["XDG_STATE_HOME": folder.appendingPathComponent("state").path, "XDG_RUNTIME_DIR": folder.appendingPathComponent("runtime").path]
    }

    func spawnAgent() async throws -> ChildProcess {
        try await testBus.startAgent(environment: environment)
    }

    func notify(_ arguments: [String]) async throws -> CommandResult {
        try await testBus.run(try BuiltProduct.url(named: "notify").path, arguments, environment: environment, timeout: .seconds(20))
    }

    /// `notify pending --json`, decoded.
    func pending() async throws -> [[String: Any]] {
        let result = try await notify(["pending", "--json"])
        try #require(result.status == .exited(0), "\(result.standardError)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [[String: Any]])
    }

    @Test("notify --in 2s exits at once; the agent posts it about 2 s later while no notify waits")
    func handsOver() async throws {
        let agent = try await spawnAgent()
        let started = ContinuousClock.now
        let result = try await notify(["--in", "2s", "a", "b"])
        let took = ContinuousClock.now - started
        #expect(result.status == .exited(0), "\(result.standardError)")
        #expect(took < .milliseconds(1500))
        let identifier = result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(identifier.hasPrefix("agent-") && identifier.count == 14)
        let listed = try await pending()
        #expect(listed.count == 1)
        #expect(listed.first?["id"] as? String == identifier && listed.first?["heldBy"] as? String == "agent")
        #expect(listed.first?["summary"] as? String == "a" && listed.first?["appName"] as? String == "notify")
        let line = try await notify(["pending"]).standardOutput
        #expect(line.hasPrefix("\(identifier)\t") && line.contains("\t-\tagent\ta\n"))
        #expect(server.notifications.isEmpty)
        let id = await server.waitForNotify(timeout: .seconds(10))
        let shownAfter = ContinuousClock.now - started
        #expect(id != nil && shownAfter >= .milliseconds(1900))
        let shown = try #require(server.notifications.first)
        #expect(shown.request.summary == "a" && shown.request.body == "b" && shown.request.appName == "notify")
        #expect(try await pending().isEmpty)
        _ = await agent.kill()
    }

    @Test("notify cancel removes the agent's request; it never shows")
    func cancels() async throws {
        let agent = try await spawnAgent()
        let identifier = try await notify(["--in", "3s", "-a", "org.example.Tea", "Tea"]).standardOutput
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try await pending().map { $0["id"] as? String } == [identifier])
        let cancel = try await notify(["cancel", identifier])
        #expect(cancel.status == .exited(0), "\(cancel.standardError)")
        #expect(try await pending().isEmpty)
        let again = try await notify(["cancel", identifier])
        #expect(again.status == .exited(1) && again.standardError.contains("is waiting"))
        try await Task.sleep(for: .seconds(4))
        #expect(server.notifications.isEmpty)
        _ = await agent.kill()
    }

    @Test("without an agent, and with -w, notify waits in its own process")
    func fallsBack() async throws {
        let waiting = try testBus.spawn(try BuiltProduct.url(named: "notify").path, ["--in", "1h", "alone"], environment: environment)
        #expect(await eventually(timeout: .seconds(15)) { ((try? await pending()) ?? []).count == 1 })
        #expect(try await pending().first?["heldBy"] as? String == "process")
        let agent = try await spawnAgent()
        let live = try testBus.spawn(try BuiltProduct.url(named: "notify").path, ["--in", "1h", "-w", "live"], environment: environment)
        #expect(await eventually(timeout: .seconds(15)) { ((try? await pending()) ?? []).count == 2 })
        #expect(try await pending().allSatisfy { $0["heldBy"] as? String == "process" })
        let all = try await notify(["cancel", "--all"])
        #expect(all.status == .exited(0), "\(all.standardError)")
        #expect(await waiting.waitForExit(timeout: .seconds(10)) == .exited(0))
        #expect(await live.waitForExit(timeout: .seconds(10)) == .exited(0))
        _ = await agent.kill()
    }
}

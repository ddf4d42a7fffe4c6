import Foundation
import UserNotificationsTesting

/// The built agent and the built test app on a private bus with a service folder: a scratch
/// folder holds the agent's state and data homes (with an applications folder, and no system
/// data folders), the app's state home and the file where the app records the responses it is
/// given.
struct BuiltAgentFixture {
    /// The app id the test app runs as.
    let appID: String
    let testBus: TestBus
    /// The scratch folder, removed when the fixture goes away.
    let scratch: TemporaryFolder
    var folder: URL { scratch.url }
    /// The file the test app appends each response it is given to, one line each.
    let record: String

    /// A new bus and a scratch folder named `prefix` and a fresh UUID.
    init(appID: String, prefix: String) async throws {
        self.appID = appID
        testBus = try await TestBus(withServiceDirectory: true)
        scratch = try TemporaryFolder(prefix: prefix)
        record = scratch.url.appendingPathComponent("responses.txt").path
        try FileManager.default.createDirectory(at: scratch.url.appendingPathComponent("data/applications"), withIntermediateDirectories: true)
    }

    /// The agent's state home.
    var agentState: URL { folder.appendingPathComponent("agent-state") }

    /// Starts the built agent with its own state and data homes and `environment` added, and
    /// waits until it owns its name.
    func spawnAgent(environment extra: [String: String] = [:]) async throws -> ChildProcess {
        var environment: [String: String?] = [
            "XDG_STATE_HOME": agentState.path, "XDG_DATA_HOME": folder.appendingPathComponent("data").path, "XDG_DATA_DIRS": "/nonexistent",
        ]
        for (name, value) in extra { environment[name] = value }
        return try await testBus.startAgent(environment: environment)
    }

    /// Runs the test app once with `arguments` after its app id and record file, with its own
    /// state home: its standard output.
    func runApp(_ arguments: [String], timeout: Duration = .seconds(20)) async throws -> String {
        let app = try BuiltProduct.url(named: "agent-test-app").path
        let result = try await testBus.run(
            app, ["--app-id", appID, "--record", record] + arguments,
            environment: ["XDG_STATE_HOME": folder.appendingPathComponent("app-state").path], timeout: timeout)
        return result.standardOutput
    }

    /// Writes the app's desktop entry, named `Agent Test App`, whose Exec runs the test app
    /// until its first response (or 20 s), with `arguments` after its own: what the agent
    /// launches on a click once the app has exited.
    func writeDesktopEntry(arguments: [String] = []) throws {
        let app = try BuiltProduct.url(named: "agent-test-app").path
        try """
            [Desktop Entry]
            Type=Application
            Name=Agent Test App
            Exec=\(app) --app-id \(appID) --record \(record) --exit-after-response --wait 20\(arguments.map { " \($0)" }.joined())

            """.write(to: folder.appendingPathComponent("data/applications/\(appID).desktop"), atomically: true, encoding: .utf8)
    }

    /// The lines the test app recorded, one per response.
    var recorded: [String] {
        ((try? String(contentsOfFile: record, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }
}

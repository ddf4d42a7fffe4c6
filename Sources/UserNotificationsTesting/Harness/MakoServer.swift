public import Foundation

/// One notification mako shows, as `makoctl list` reports it.
public struct MakoNotification: Sendable, Hashable {
    /// The id mako assigned.
    public var id: UInt32
    /// The application name sent with Notify.
    public var appName: String
    /// The summary (title).
    public var summary: String
    /// The body as received.
    public var body: String
    /// The `category` hint, or empty.
    public var category: String
    /// The actions, by key.
    public var actions: [String: String]

    /// Creates an entry, for example the one a test expects to find.
    public init(id: UInt32, appName: String, summary: String, body: String, category: String, actions: [String: String]) {
        self.id = id
        self.appName = appName
        self.summary = summary
        self.body = body
        self.category = category
        self.actions = actions
    }
}

/// The mako notification server on a headless ``SwayCompositor``, on a ``TestBus``.
///
/// mako runs with a generated configuration in which nothing expires on its own.
/// `makoctl` drives it: ``list()``, ``invoke(id:action:)`` (mako sends ActionInvoked and
/// keeps the notification), ``dismiss(id:)`` (NotificationClosed with reason 2). Without
/// input devices nothing can click it: a pointer click would invoke `default` and close.
public final class MakoServer: Sendable {
    /// The `mako` process.
    public let process: ChildProcess
    /// The bus mako serves on.
    public let bus: TestBus
    /// The compositor mako draws on.
    public let compositor: SwayCompositor

    private let processes: HarnessProcesses

    /// The PID of `mako`.
    public var pid: Int32 { process.pid }

    /// The generated configuration: nothing expires unless the notification asks for it.
    public static let configuration = """
        default-timeout=0
        max-visible=-1

        """

    /// Writes mako's configuration, starts it on `compositor` and `bus`, and waits until it
    /// owns `org.freedesktop.Notifications`.
    ///
    /// - Throws: ``MissingToolError`` without `mako`, `makoctl` or `busctl` (which makoctl
    ///   runs); ``HarnessError`` when mako does not start.
    public init(bus: TestBus, compositor: SwayCompositor, startTimeout: Duration = .seconds(30)) async throws {
        let mako = try ToolRequirement.require("mako")
        _ = try ToolRequirement.require("makoctl")
        _ = try ToolRequirement.require("busctl")
        let processes = try HarnessProcesses(prefix: "MakoServer")
        let directory = processes.folder
        do {
            let configurationFile = directory.appendingPathComponent("config")
            try Self.configuration.write(to: configurationFile, atomically: true, encoding: .utf8)
            var environment = bus.environment
            environment["DISPLAY"] = nil
            environment["HOME"] = directory.path
            environment["XDG_CONFIG_HOME"] = directory.path
            environment["XDG_RUNTIME_DIR"] = compositor.runtimeDirectory.path
            environment["WAYLAND_DISPLAY"] = compositor.waylandDisplay
            process = processes.adopt(try await bus.startOwner(
                of: "org.freedesktop.Notifications", executable: mako, arguments: ["--config", configurationFile.path],
                environment: environment, timeout: startTimeout))
            self.bus = bus
            self.compositor = compositor
            self.processes = processes
        } catch {
            await processes.stop()
            throw error
        }
    }

    /// Runs `makoctl` with `arguments` against this server's bus.
    @discardableResult
    public func makoctl(_ arguments: [String], timeout: Duration = .seconds(10)) async throws -> CommandResult {
        try await bus.run("makoctl", arguments, timeout: timeout).check()
    }

    /// The notifications mako shows, newest first.
    public func list() async throws -> [MakoNotification] {
        let result = try await makoctl(["list"])
        do {
            return try Self.decodeList(Data(result.standardOutput.utf8))
        } catch {
            throw HarnessError.unexpectedOutput(command: "makoctl list", output: result.standardOutput, reason: "\(error)")
        }
    }

    /// Decodes the JSON that `makoctl list` prints (`busctl --json` of an `aa{sv}`).
    public static func decodeList(_ json: Data) throws -> [MakoNotification] {
        let reply = try JSONDecoder().decode(ListReply.self, from: json)
        return (reply.data.first ?? []).map { entry in
            MakoNotification(
                id: entry.id.data, appName: entry.appName.data, summary: entry.summary.data, body: entry.body.data,
                category: entry.category.data, actions: entry.actions.data)
        }
    }

    /// Waits until mako shows exactly `count` notifications.
    ///
    /// - Throws: ``HarnessError/timedOut(operation:after:detail:)`` at the deadline.
    @discardableResult
    public func waitForList(count: Int, timeout: Duration = .seconds(15)) async throws -> [MakoNotification] {
        var current: [MakoNotification] = []
        return try await HarnessLifecycle.poll("waiting for mako to show \(count)", timeout: timeout, detail: { "\(current)" }) {
            current = try await list()
            return current.count == count ? current : nil
        }
    }

    /// Invokes `action` of notification `id` (`makoctl invoke -n id action`).
    public func invoke(id: UInt32, action: String) async throws {
        try await makoctl(["invoke", "-n", String(id), action])
    }

    /// Dismisses notification `id` as the person would (`makoctl dismiss -n id`).
    public func dismiss(id: UInt32) async throws {
        try await makoctl(["dismiss", "-n", String(id)])
    }

    /// Stops mako (`SIGTERM`, then `SIGKILL` after `grace`) and removes its configuration.
    public func stop(grace: Duration = .seconds(2)) async {
        await processes.stop(grace: grace)
    }

    // MARK: - List JSON

    private struct ListReply: Decodable {
        let data: [[Entry]]
    }

    private struct Field<Value: Decodable>: Decodable {
        let data: Value
    }

    private struct Entry: Decodable {
        let id: Field<UInt32>
        let appName: Field<String>
        let summary: Field<String>
        let body: Field<String>
        let category: Field<String>
        let actions: Field<[String: String]>

        enum CodingKeys: String, CodingKey {
            case id, summary, body, category, actions
            case appName = "app-name"
        }
    }
}

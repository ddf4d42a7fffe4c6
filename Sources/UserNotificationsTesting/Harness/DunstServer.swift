public import Foundation

/// One entry of dunst's history, as `dunstctl history` reports it.
public struct DunstNotification: Sendable, Hashable {
    /// The notification id dunst assigned.
    public var id: Int
    /// The application name sent with Notify.
    public var appName: String
    /// The summary (title).
    public var summary: String
    /// The body as received.
    public var body: String
    /// The text dunst rendered (summary and body after its format string).
    public var message: String
    /// The `category` hint, or empty.
    public var category: String
    /// The icon path dunst resolved, or empty.
    public var iconPath: String
    /// The name of the default action, for example `default`.
    public var defaultActionName: String
    /// The `value` hint, or -1.
    public var progress: Int
    /// The timeout in microseconds (0: never expires).
    public var timeout: Int64
    /// When dunst received it, in microseconds of its monotonic clock.
    public var timestamp: Int64
    /// The urgency (`LOW`, `NORMAL`, `CRITICAL`); dunst 1.9 does not report it (`nil`).
    public var urgency: String?
    /// The stack tag; dunst 1.9 does not report it (`nil`).
    public var stackTag: String?

    /// Creates an entry, for example the one a test expects to find.
    public init(
        id: Int,
        appName: String,
        summary: String,
        body: String,
        message: String,
        category: String,
        iconPath: String,
        defaultActionName: String,
        progress: Int,
        timeout: Int64,
        timestamp: Int64,
        urgency: String?,
        stackTag: String?
    ) {
        self.id = id
        self.appName = appName
        self.summary = summary
        self.body = body
        self.message = message
        self.category = category
        self.iconPath = iconPath
        self.defaultActionName = defaultActionName
        self.progress = progress
        self.timeout = timeout
        self.timestamp = timestamp
        self.urgency = urgency
        self.stackTag = stackTag
    }
}

/// The dunst notification server under an ``XvfbDisplay``, on a ``TestBus``.
///
/// dunst runs with a generated configuration (in a temporary directory) in which no
/// notification expires on its own, so what a test sends stays until it is closed.
/// `dunstctl` drives it: ``history()`` lists closed notifications, ``closeAll()`` moves
/// the displayed ones into the history, ``invokeAction(at:)`` invokes an action.
public final class DunstServer: Sendable {
    /// The oldest dunst whose configuration and `dunstctl` this harness was written for
    /// (Debian 12 ships 1.9.0).
    public static let minimumVersion = [1, 9, 0]

    /// The dunst version, for example `1.9.0`.
    public let version: String
    /// The `dunst` process.
    public let process: ChildProcess
    /// The bus dunst serves on.
    public let bus: TestBus
    /// The display dunst draws on.
    public let display: XvfbDisplay
    /// The generated `dunstrc`.
    public let configurationFile: URL

    private let processes: HarnessProcesses

    /// The PID of `dunst`.
    public var pid: Int32 { process.pid }

    /// The generated configuration: dunst's defaults except that nothing expires and the
    /// first monitor is used.
    public static let configuration = """
        [global]
            monitor = 0
            follow = none
            font = Monospace 8
            history_length = 100
            idle_threshold = 0

        [urgency_low]
            timeout = 0

        [urgency_normal]
            timeout = 0

        [urgency_critical]
            timeout = 0

        """

    /// Reads the installed version from `dunst -v`.
    ///
    /// - Throws: ``MissingToolError`` without dunst; ``HarnessError/unexpectedOutput(command:output:reason:)``
    ///   when the output has no version number.
    public static func installedVersion() async throws -> String {
        let dunst = try ToolRequirement.require("dunst")
        let result = try await ChildProcess(executable: dunst, arguments: ["-v"]).result(timeout: .seconds(10)).check()
        let text = result.standardOutput + result.standardError
        guard let range = text.range(of: #"\d+\.\d+\.\d+"#, options: .regularExpression) else {
            throw HarnessError.unexpectedOutput(command: "dunst -v", output: text, reason: "no version number")
        }
        return String(text[range])
    }

    /// Checks dunst's version, writes its configuration, starts it on `display` and `bus`,
    /// and waits until it owns `org.freedesktop.Notifications`.
    ///
    /// - Throws: ``MissingToolError`` without `dunst` or `dunstctl`;
    ///   ``HarnessError/startFailed(program:reason:log:)`` for a dunst older than
    ///   ``minimumVersion`` or one that does not take the name.
    public init(bus: TestBus, display: XvfbDisplay, startTimeout: Duration = .seconds(10)) async throws {
        let dunst = try ToolRequirement.require("dunst")
        _ = try ToolRequirement.require("dunstctl")
        _ = try ToolRequirement.require("busctl")
        let version = try await Self.installedVersion()
        let parts = version.split(separator: ".").compactMap { Int($0) }
        guard parts.lexicographicallyPrecedes(Self.minimumVersion) == false else {
            throw HarnessError.startFailed(
                program: "dunst",
                reason: "version \(version) is older than \(Self.minimumVersion.map(String.init).joined(separator: "."))",
                log: ""
            )
        }
        let processes = try HarnessProcesses(prefix: "DunstServer")
        let directory = processes.folder
        do {
            let configurationFile = directory.appendingPathComponent("dunstrc")
            try Self.configuration.write(to: configurationFile, atomically: true, encoding: .utf8)
            var environment = bus.environment
            environment["DISPLAY"] = display.display
            environment["WAYLAND_DISPLAY"] = nil
            environment["XDG_CONFIG_HOME"] = directory.path
            process = processes.adopt(try await bus.startOwner(
                of: "org.freedesktop.Notifications", executable: dunst, arguments: ["-config", configurationFile.path],
                environment: environment, timeout: startTimeout))
            self.version = version
            self.bus = bus
            self.display = display
            self.configurationFile = configurationFile
            self.processes = processes
        } catch {
            await processes.stop()
            throw error
        }
    }

    /// Runs `dunstctl` with `arguments` against this server's bus.
    ///
    /// - Returns: Its output.
    /// - Throws: ``HarnessError/commandFailed(_:)`` when it fails.
    @discardableResult
    public func dunstctl(_ arguments: [String], timeout: Duration = .seconds(10)) async throws -> CommandResult {
        try await bus.run("dunstctl", arguments, timeout: timeout).check()
    }

    /// The notifications in dunst's history (closed or expired ones), newest first.
    ///
    /// Displayed notifications are not in the history until they close: call
    /// ``closeAll()`` first to see everything dunst has shown.
    public func history() async throws -> [DunstNotification] {
        let result = try await dunstctl(["history"])
        do {
            return try Self.decodeHistory(Data(result.standardOutput.utf8))
        } catch {
            throw HarnessError.unexpectedOutput(command: "dunstctl history", output: result.standardOutput, reason: "\(error)")
        }
    }

    /// Decodes the JSON that `dunstctl history` prints (`busctl --json` of an `aa{sv}`).
    public static func decodeHistory(_ json: Data) throws -> [DunstNotification] {
        let reply = try JSONDecoder().decode(HistoryReply.self, from: json)
        return try (reply.data.first ?? []).map { fields in
            func string(_ key: String) throws -> String {
                guard case .string(let value)? = fields[key]?.data else {
                    throw DecodingError.valueNotFound(String.self, .init(codingPath: [], debugDescription: "no string \(key)"))
                }
                return value
            }
            func integer(_ key: String) throws -> Int64 {
                guard case .integer(let value)? = fields[key]?.data else {
                    throw DecodingError.valueNotFound(Int64.self, .init(codingPath: [], debugDescription: "no integer \(key)"))
                }
                return value
            }
            return DunstNotification(
                id: Int(try integer("id")),
                appName: try string("appname"),
                summary: try string("summary"),
                body: try string("body"),
                message: try string("message"),
                category: try string("category"),
                iconPath: try string("icon_path"),
                defaultActionName: try string("default_action_name"),
                progress: Int(try integer("progress")),
                timeout: try integer("timeout"),
                timestamp: try integer("timestamp"),
                urgency: try? string("urgency"),
                stackTag: try? string("stack_tag")
            )
        }
    }

    /// dunst's queues, as `dunstctl count` names them.
    public enum Queue: String, Sendable {
        /// Received but not shown yet (dunst is paused, or the screen is full).
        case waiting
        /// On screen.
        case displayed
        /// Closed or expired, kept for `history`.
        case history
    }

    /// How many notifications are in `queue`.
    public func count(_ queue: Queue) async throws -> Int {
        let result = try await dunstctl(["count", queue.rawValue])
        guard let count = Int(result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw HarnessError.unexpectedOutput(command: "dunstctl count \(queue.rawValue)", output: result.standardOutput, reason: "not a number")
        }
        return count
    }

    /// Invokes the default action (or the only action) of the notification at `position`
    /// in dunst's displayed list (0 is the first), like `dunstctl action 0`. dunst does not
    /// close the notification.
    public func invokeAction(at position: Int = 0) async throws {
        try await dunstctl(["action", String(position)])
    }

    /// Closes every displayed notification (reason 2, dismissed), moving them into the history.
    public func closeAll() async throws {
        try await dunstctl(["close-all"])
    }

    /// Stops dunst (`SIGTERM`, then `SIGKILL` after `grace`) and removes its configuration.
    public func stop(grace: Duration = .seconds(2)) async {
        await processes.stop(grace: grace)
    }

    // MARK: - History JSON

    private struct HistoryReply: Decodable {
        let data: [[[String: Field]]]
    }

    private struct Field: Decodable {
        let data: Value
    }

    private enum Value: Decodable {
        case string(String)
        case integer(Int64)
        case other

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let string = try? container.decode(String.self) {
                self = .string(string)
            } else if let integer = try? container.decode(Int64.self) {
                self = .integer(integer)
            } else {
                self = .other
            }
        }
    }

    /// How many notifications dunst displays once nothing waits to be shown any more (dunst
    /// queues a new notification as waiting and moves it to the screen on its next update).
    public func displayedWhenSettled(timeout: Duration = .seconds(10)) async throws -> Int {
        let deadline = ContinuousClock.now + timeout
        while try await count(.waiting) != 0 {
            guard ContinuousClock.now < deadline else {
                throw HarnessError.timedOut(operation: "dunst showing its waiting notifications", after: timeout, detail: "")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        return try await count(.displayed)
    }
}

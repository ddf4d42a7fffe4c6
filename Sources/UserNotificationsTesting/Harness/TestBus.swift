import DesktopNotificationsSupport
public import Foundation

/// A private `dbus-daemon` session bus for a test suite, started and stopped by its PID.
///
/// The daemon runs with the package's private-bus configuration (the one `notify` and the
/// examples use: session type, external authentication, an open policy, generous limits and
/// no service directories), written to a temporary directory with what one test adds: a
/// `<servicedir>` of its own (`withServiceDirectory`) and lowered `<limit>`s (`limits`).
/// Without a service directory nothing can be activated, in particular not a system-wide
/// notification server.
///
/// The daemon prints its address on standard output (a pipe), which the harness reads.
/// When the last reference goes away the daemon is killed and the directory removed.
public final class TestBus: Sendable {
    /// The bus address, as for `DBUS_SESSION_BUS_ADDRESS`.
    public let address: String
    /// The `dbus-daemon` process.
    public let process: ChildProcess
    /// The temporary directory holding the generated configuration (and the service directory).
    public let directory: URL
    /// The generated configuration file passed to `dbus-daemon --config-file`.
    public let configurationFile: URL
    /// The bus's own service directory for activation tests, or `nil` when it has none.
    public let serviceDirectory: URL?

    /// The PID of the `dbus-daemon`.
    public var pid: Int32 { process.pid }

    /// Whether the daemon has not exited.
    public var isRunning: Bool { process.isRunning }

    /// Starts a private session bus.
    ///
    /// - Parameters:
    ///   - withServiceDirectory: Give the bus a service directory of its own, to which
    ///     ``writeService(name:exec:)`` adds services that the bus can activate.
    ///   - limits: `<limit>` values that override the private-bus configuration's, for
    ///     example `["max_message_size": 4096]` for size tests.
    ///   - socketPath: Also listen at this Unix socket path, so that a test can kill the bus
    ///     and start another at the same address (`unix:path=<socketPath>`).
    ///   - configurationText: A whole configuration to run with instead (for tests of a
    ///     daemon that refuses its configuration).
    ///   - startTimeout: How long to wait for the daemon to print its address.
    /// - Throws: ``MissingToolError`` without `dbus-daemon`; ``HarnessError`` when the
    ///   daemon does not start.
    public init(
        withServiceDirectory: Bool = false,
        limits: [String: Int] = [:],
        socketPath: String? = nil,
        configurationText: String? = nil,
        startTimeout: Duration = .seconds(10)
    ) async throws {
        let daemon = try ToolRequirement.require("dbus-daemon")
        let directory = try HarnessTemporaryDirectory.make(prefix: "TestBus")
        do {
            let services = withServiceDirectory ? directory.appendingPathComponent("services", isDirectory: true) : nil
            if let services {
                try FileManager.default.createDirectory(at: services, withIntermediateDirectories: false)
            }
            let configuration = directory.appendingPathComponent("bus.conf")
            let text = configurationText ?? PrivateBusConfiguration.text(
                // The socket in the bus's own folder: removed with it, even after a SIGKILL.
                listen: ["unix:dir=\(directory.path)"] + (socketPath.map { ["unix:path=\($0)"] } ?? []),
                serviceDirectory: services?.path, overriding: limits)
            try text.write(to: configuration, atomically: true, encoding: .utf8)
            let process = try ChildProcess(
                executable: daemon,
                arguments: ["--config-file=\(configuration.path)", "--nofork", "--nopidfile", "--print-address=1"],
                environment: ProcessInfo.processInfo.environment
            )
            guard await process.waitForOutput(containing: "\n", timeout: startTimeout) else {
                let exited = !process.isRunning
                await process.kill()
                // Its standard error once it is closed: the exit can be seen before the last
                // bytes of it are read (the daemon's own message was missed so, once).
                _ = try? await process.result(timeout: .seconds(5))
                throw HarnessError.startFailed(
                    program: "dbus-daemon",
                    reason: exited ? "it exited with \(process.exitStatus.map { "\($0)" } ?? "?")" : "no address within \(startTimeout)",
                    log: process.standardError
                )
            }
            let address = process.standardOutput.split(separator: "\n").first.map(String.init) ?? ""
            guard address.contains(":") else {
                await process.kill()
                throw HarnessError.unexpectedOutput(command: process.commandLine, output: process.standardOutput, reason: "not a bus address")
            }
            self.address = address
            self.process = process
            self.directory = directory
            self.configurationFile = configuration
            self.serviceDirectory = services
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    deinit {
        process.send(SIGKILL)
        try? FileManager.default.removeItem(at: directory)
    }

    /// Writes `<name>.service` into the service directory, so that calling `name` makes the
    /// bus start `exec`.
    ///
    /// The bus rereads its service directories when asked for a name it does not know, so
    /// the service can be activated right away.
    ///
    /// - Parameters:
    ///   - name: The well-known bus name the service will own.
    ///   - exec: The `Exec=` line: an absolute program path and arguments (shell-like quoting).
    /// - Returns: The `.service` file.
    /// - Throws: ``HarnessError/startFailed(program:reason:log:)`` when the bus was started
    ///   without a service directory.
    @discardableResult
    public func writeService(name: String, exec: String) throws -> URL {
        guard let serviceDirectory else {
            throw HarnessError.startFailed(
                program: "service \(name)",
                reason: "this TestBus has no service directory (start it with withServiceDirectory: true)",
                log: ""
            )
        }
        let file = serviceDirectory.appendingPathComponent("\(name).service")
        try "[D-BUS Service]\nName=\(name)\nExec=\(exec)\n".write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    /// This process's environment with `DBUS_SESSION_BUS_ADDRESS` set to this bus, and the
    /// variables of an activating bus (`DBUS_STARTER_*`) removed.
    public var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = address
        environment["DBUS_STARTER_ADDRESS"] = nil
        environment["DBUS_STARTER_BUS_TYPE"] = nil
        return environment
    }

    /// Starts `tool` (a name looked up on `PATH`, or an absolute path) as a client of this bus.
    ///
    /// - Parameters:
    ///   - tool: The program's name or path.
    ///   - arguments: Its arguments.
    ///   - extra: Variables added to (or, with `nil`, removed from) ``environment``.
    /// - Throws: ``MissingToolError`` when `tool` is not installed.
    public func spawn(_ tool: String, _ arguments: [String] = [], environment extra: [String: String?] = [:]) throws -> ChildProcess {
        var environment = self.environment
        for (key, value) in extra {
            environment[key] = value
        }
        return try ChildProcess(executable: ToolRequirement.require(tool), arguments: arguments, environment: environment)
    }

    /// Runs `tool` as a client of this bus until it exits, at most `timeout`.
    ///
    /// - Returns: Its exit status and output, whatever the status.
    /// - Throws: ``MissingToolError``; ``HarnessError/timedOut(operation:after:detail:)``
    ///   (the tool is killed first).
    public func run(
        _ tool: String,
        _ arguments: [String] = [],
        environment extra: [String: String?] = [:],
        timeout: Duration = .seconds(10)
    ) async throws -> CommandResult {
        try await spawn(tool, arguments, environment: extra).result(timeout: timeout)
    }

    /// Calls `org.freedesktop.DBus.Peer.Ping` on the bus daemon with `dbus-send`.
    ///
    /// - Throws: ``HarnessError/commandFailed(_:)`` when the bus does not answer.
    public func ping(timeout: Duration = .seconds(5)) async throws {
        try await run("dbus-send", [
            "--session", "--print-reply", "--reply-timeout=\(timeout.harnessNanoseconds / 1_000_000)",
            "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus.Peer.Ping",
        ], timeout: timeout + .seconds(1)).check()
    }

    /// The PID of the process that owns `name`, or `nil` when nobody owns it.
    ///
    /// Asks the bus with `GetConnectionUnixProcessID`, so it never activates `name`.
    public func ownerPID(of name: String) async throws -> Int32? {
        let result = try await run("dbus-send", [
            "--session", "--print-reply=literal", "--dest=org.freedesktop.DBus",
            "/org/freedesktop/DBus", "org.freedesktop.DBus.GetConnectionUnixProcessID", "string:\(name)",
        ])
        guard result.succeeded else {
            if result.standardError.contains("org.freedesktop.DBus.Error.NameHasNoOwner") {
                return nil
            }
            throw HarnessError.commandFailed(result)
        }
        guard let pid = result.standardOutput.split(whereSeparator: \.isWhitespace).last.flatMap({ Int32($0) }) else {
            throw HarnessError.unexpectedOutput(
                command: result.command.joined(separator: " "),
                output: result.standardOutput,
                reason: "no PID"
            )
        }
        return pid
    }

    /// Waits until `process` owns `name` on this bus, checking every 10 ms.
    ///
    /// - Throws: ``HarnessError/startFailed(program:reason:log:)`` when `process` exits first
    ///   or another process takes the name; ``HarnessError/timedOut(operation:after:detail:)``
    ///   at the deadline.
    public func waitForName(_ name: String, ownedBy process: ChildProcess, timeout: Duration = .seconds(10)) async throws {
        let deadline = ContinuousClock.now + timeout
        while true {
            let owner = try await ownerPID(of: name)
            if owner == process.pid {
                return
            }
            if let owner {
                throw HarnessError.startFailed(
                    program: process.commandLine,
                    reason: "\(name) is owned by PID \(owner), not by PID \(process.pid)",
                    log: process.standardError
                )
            }
            if let status = process.exitStatus {
                throw HarnessError.startFailed(
                    program: process.commandLine,
                    reason: "it exited with \(status) before owning \(name)",
                    log: process.standardOutput + process.standardError
                )
            }
            guard ContinuousClock.now < deadline else {
                throw HarnessError.timedOut(
                    operation: "waiting for \(name) to be owned by \(process.commandLine)",
                    after: timeout,
                    detail: process.standardError
                )
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Stops the daemon (`SIGTERM`, then `SIGKILL` after `grace`) and removes its directory.
    public func stop(grace: Duration = .seconds(2)) async {
        await process.stop(grace: grace)
        try? FileManager.default.removeItem(at: directory)
    }

    /// Kills the daemon with `SIGKILL`, as when a session ends under a program, and waits
    /// until it is gone. Clients see their connections drop.
    public func kill() async {
        await process.kill()
    }
}

/// Creates and names the harness's temporary directories.
enum HarnessTemporaryDirectory {
    /// A new private directory such as `/tmp/TestBus-1a2b3c`.
    static func make(prefix: String) throws -> URL {
        var template = Array(FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-XXXXXX").path.utf8CString)
        guard let created = mkdtemp(&template) else {
            throw HarnessError.launchFailed(command: "mkdtemp \(prefix)", reason: String(cString: strerror(errno)))
        }
        return URL(fileURLWithPath: String(cString: created), isDirectory: true)
    }
}

public import Foundation

/// A private PulseAudio sound server with one null sink (`testsink`), for tests that check a
/// sound really played: each sound is a playback stream (a sink input) on that sink, and a
/// `pactl subscribe` beside it counts the streams that start.
///
/// It runs as `pulseaudio -n --daemonize=no --exit-idle-time=-1 --disallow-exit` with only the
/// null sink and a native-protocol socket in a temporary folder (anonymous clients allowed, so
/// no cookie is needed), and is stopped by its PID. Programs find it through ``environment``
/// (`PULSE_SERVER`); libcanberra plays on it through its PulseAudio backend
/// (`libcanberra-pulse`).
public final class PulseAudioServer: Sendable {
    /// The sink every stream plays on.
    public static let sinkName = "testsink"

    /// The `pulseaudio` process.
    public let process: ChildProcess
    /// The `pactl subscribe` that watches the server's events.
    public let events: ChildProcess
    /// The folder of the socket, the runtime files and the server's home.
    public let directory: URL
    /// The value for `PULSE_SERVER`, for example `unix:/tmp/pulse-…/native`.
    public let address: String

    /// The PID of `pulseaudio`.
    public var pid: Int32 { process.pid }

    /// What a client needs to play on this server: `PULSE_SERVER`, and `PULSE_RUNTIME_PATH`
    /// so that nothing is looked up in the user's own runtime folder.
    public var environment: [String: String] {
        ["PULSE_SERVER": address, "PULSE_RUNTIME_PATH": directory.appendingPathComponent("runtime").path]
    }

    /// Starts the server and waits until it answers `pactl info` and its event stream is open.
    ///
    /// - Throws: ``MissingToolError`` without `pulseaudio` or `pactl`; ``HarnessError`` when the
    ///   server does not start within `startTimeout`.
    public init(startTimeout: Duration = .seconds(20)) async throws {
        let pulseaudio = try ToolRequirement.require("pulseaudio")
        let pactl = try ToolRequirement.require("pactl")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pulse-\(UUID().uuidString)")
        let runtime = directory.appendingPathComponent("runtime")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: runtime.path)
        let socket = directory.appendingPathComponent("native").path
        let address = "unix:" + socket
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = directory.path
        environment["XDG_CONFIG_HOME"] = directory.appendingPathComponent(".config").path
        environment["XDG_RUNTIME_DIR"] = runtime.path
        environment["PULSE_RUNTIME_PATH"] = runtime.path
        environment["PULSE_STATE_PATH"] = directory.appendingPathComponent("state").path
        environment["PULSE_SERVER"] = nil
        // No session bus: the server would look for one (and for X11) to register on.
        environment["DBUS_SESSION_BUS_ADDRESS"] = "disabled:"
        environment["DISPLAY"] = nil
        let process = try ChildProcess(
            executable: pulseaudio,
            arguments: [
                "-n", "--daemonize=no", "--exit-idle-time=-1", "--disallow-exit", "--use-pid-file=no",
                "--disable-shm=yes", "--log-target=stderr",
                "-L", "module-null-sink sink_name=\(Self.sinkName)",
                "-L", "module-native-protocol-unix socket=\(socket) auth-anonymous=1",
            ],
            environment: environment)
        var clientEnvironment = environment
        clientEnvironment["PULSE_SERVER"] = address
        do {
            _ = try await HarnessLifecycle.poll(
                "pulseaudio answering on \(address)", timeout: startTimeout, interval: .milliseconds(100),
                detail: { process.standardError }
            ) { () -> Bool? in
                guard process.isRunning else {
                    throw HarnessError.startFailed(program: "pulseaudio", reason: "it exited with \(process.exitStatus.map { "\($0)" } ?? "?")", log: process.standardError)
                }
                let info = try ChildProcess(executable: pactl, arguments: ["info"], environment: clientEnvironment)
                let result = try await info.result(timeout: .seconds(10))
                return result.status.isSuccess && result.standardOutput.contains("Default Sink: \(Self.sinkName)") ? true : nil
            }
        } catch {
            await process.kill()
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
        let events: ChildProcess
        do {
            events = try ChildProcess(executable: pactl, arguments: ["subscribe"], environment: clientEnvironment)
            // pactl subscribe prints nothing until an event: a client of its own (pactl info)
            // is one, so its arrival says the subscription is in place.
            _ = try await HarnessLifecycle.poll(
                "pactl subscribe on \(address)", timeout: startTimeout, interval: .milliseconds(100),
                detail: { process.standardError }
            ) { () -> Bool? in
                let info = try ChildProcess(executable: pactl, arguments: ["info"], environment: clientEnvironment)
                _ = try await info.result(timeout: .seconds(10))
                return events.standardOutput.contains("on client") ? true : nil
            }
        } catch {
            await process.kill()
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
        self.process = process
        self.events = events
        self.directory = directory
        self.address = address
    }

    deinit {
        events.send(SIGKILL)
        process.send(SIGKILL)
        try? FileManager.default.removeItem(at: directory)
    }

    /// How many playback streams (sink inputs) have started on the server so far.
    public var streamsStarted: Int {
        events.standardOutput.split(separator: "\n").count { $0.hasPrefix("Event 'new' on sink-input") }
    }

    /// Waits until at least `count` streams have started and returns how many have.
    ///
    /// - Throws: ``HarnessError/timedOut(operation:after:detail:)`` when fewer start within
    ///   `timeout`.
    @discardableResult
    public func waitForStreams(count: Int, timeout: Duration = .seconds(15)) async throws -> Int {
        try await HarnessLifecycle.poll(
            "\(count) sound streams on \(address)", timeout: timeout,
            detail: { "streams: \(self.streamsStarted)\nevents:\n\(self.events.standardOutput)\nserver:\n\(self.process.standardError)" }
        ) { () -> Int? in
            let started = streamsStarted
            return started >= count ? started : nil
        }
    }

    /// Starts a server, runs `body` with it, and stops it by PID whether `body` throws or not.
    public static func run(_ body: (PulseAudioServer) async throws -> Void) async throws {
        try await HarnessLifecycle.run(try await PulseAudioServer(), body) { await $0.stop() }
    }

    /// Stops `pactl subscribe` and the server (`SIGTERM`, `SIGKILL` after `grace`) by PID and
    /// removes the folder.
    public func stop(grace: Duration = .seconds(2)) async {
        await events.stop(grace: grace)
        await process.stop(grace: grace)
        try? FileManager.default.removeItem(at: directory)
    }
}

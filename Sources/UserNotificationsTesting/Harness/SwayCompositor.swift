public import Foundation

/// The sway Wayland compositor, headless (`WLR_BACKENDS=headless`, no input devices, the
/// pixman renderer), for Wayland-only notification servers such as mako.
///
/// sway refuses to run as root, so when the tests run as root it is started through
/// `setpriv` as the user `nobody` (65534), which then executes sway under the same PID; its
/// runtime folder (`XDG_RUNTIME_DIR`, where the Wayland socket lives) belongs to that user.
public final class SwayCompositor: Sendable {
    /// The `sway` process (through `setpriv` when the tests run as root).
    public let process: ChildProcess
    /// The folder holding sway's Wayland socket, for `XDG_RUNTIME_DIR` of its clients.
    public let runtimeDirectory: URL
    /// The name of its Wayland socket, for `WAYLAND_DISPLAY`, for example `wayland-1`.
    public let waylandDisplay: String

    private let processes: HarnessProcesses

    /// The PID of sway.
    public var pid: Int32 { process.pid }

    /// The user sway runs as when the tests run as root.
    public static let unprivilegedUser: uid_t = 65534

    /// The generated configuration: one 1280x800 output, no Xwayland.
    public static let configuration = """
        xwayland disable
        output HEADLESS-1 resolution 1280x800

        """

    /// Starts sway and waits until its Wayland socket exists.
    ///
    /// - Throws: ``MissingToolError`` without sway (or `setpriv` as root);
    ///   ``HarnessError/startFailed(program:reason:log:)`` when sway exits first;
    ///   ``HarnessError/timedOut(operation:after:detail:)`` at the deadline.
    public init(startTimeout: Duration = .seconds(30)) async throws {
        let sway = try ToolRequirement.require("sway")
        let asRoot = getuid() == 0
        let setpriv = asRoot ? try ToolRequirement.require("setpriv") : nil
        let processes = try HarnessProcesses(prefix: "SwayCompositor")
        let directory = processes.folder
        do {
            let runtime = directory.appendingPathComponent("run", isDirectory: true)
            try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: false)
            try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: runtime.path)
            // The user nobody must reach the configuration file and own its runtime folder.
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.path)
            if asRoot, chown(runtime.path, Self.unprivilegedUser, Self.unprivilegedUser) != 0 {
                throw HarnessError.launchFailed(command: "chown \(runtime.path)", reason: String(cString: strerror(errno)))
            }
            let configuration = directory.appendingPathComponent("config")
            try Self.configuration.write(to: configuration, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: configuration.path)
            let command = [sway.path, "--config", configuration.path]
            let process: ChildProcess
            if let setpriv {
                let user = String(Self.unprivilegedUser)
                process = try ChildProcess(
                    executable: setpriv, arguments: ["--reuid=\(user)", "--regid=\(user)", "--clear-groups"] + command,
                    environment: Self.environment(runtime: runtime, home: directory))
            } else {
                process = try ChildProcess(
                    executable: sway, arguments: Array(command.dropFirst()),
                    environment: Self.environment(runtime: runtime, home: directory))
            }
            self.process = processes.adopt(process)
            waylandDisplay = try await Self.waitForSocket(in: runtime, of: process, timeout: startTimeout)
            self.runtimeDirectory = runtime
            self.processes = processes
        } catch {
            await processes.stop()
            throw error
        }
    }

    /// A small environment of its own: nothing of the caller's display or session bus.
    private static func environment(runtime: URL, home: URL) -> [String: String] {
        [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "HOME": home.path,
            "XDG_RUNTIME_DIR": runtime.path,
            "WLR_BACKENDS": "headless",
            "WLR_LIBINPUT_NO_DEVICES": "1",
            "WLR_RENDERER": "pixman",
        ]
    }

    /// Waits until a `wayland-N` socket appears in `runtime` and returns its name.
    private static func waitForSocket(in runtime: URL, of process: ChildProcess, timeout: Duration) async throws -> String {
        try await HarnessLifecycle.poll(
            "waiting for sway's Wayland socket", timeout: timeout, interval: .milliseconds(20), detail: { process.standardError }
        ) {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: runtime.path)) ?? []
            if let socket = names.first(where: { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") }) {
                return socket
            }
            if let status = process.exitStatus {
                throw HarnessError.startFailed(
                    program: "sway", reason: "it exited with \(status) before creating its Wayland socket",
                    log: process.standardOutput + process.standardError)
            }
            return nil
        }
    }

    /// Stops sway (`SIGTERM`, then `SIGKILL` after `grace`) and removes its folder.
    public func stop(grace: Duration = .seconds(2)) async {
        await processes.stop(grace: grace)
    }
}

public import Foundation

/// `notify-send` from libnotify, as a client of a ``TestBus``.
///
/// ``run(_:timeout:)`` waits for it to finish; ``start(_:)`` leaves it running in the
/// background for `--wait` and `--action` tests, and the returned ``ChildProcess`` can be
/// interrupted with `SIGINT` by its PID (``ChildProcess/interrupt()``).
///
/// It runs under `stdbuf -oL` (which then executes it under the same PID), so each line
/// it prints reaches the harness at once: a test can await the id that `--print-id`
/// prints with ``ChildProcess/waitForOutput(containing:timeout:)`` while `notify-send`
/// is still waiting for an action or a close.
public struct NotifySend: Sendable {
    /// The `notify-send` executable.
    public let executable: URL
    /// The bus it talks to.
    public let bus: TestBus

    private let stdbuf: URL

    /// Locates `notify-send` (and `stdbuf`) for use on `bus`.
    ///
    /// - Throws: ``MissingToolError`` when libnotify-bin (or coreutils) is not installed.
    public init(bus: TestBus) throws {
        executable = try ToolRequirement.require("notify-send")
        stdbuf = try ToolRequirement.require("stdbuf")
        self.bus = bus
    }

    /// Runs `notify-send` with `arguments` until it exits, at most `timeout`.
    ///
    /// - Returns: Its exit status, standard output and standard error.
    /// - Throws: ``HarnessError/timedOut(operation:after:detail:)`` when it runs past `timeout`
    ///   (it is killed first).
    public func run(_ arguments: [String], timeout: Duration = .seconds(10)) async throws -> CommandResult {
        try await start(arguments).result(timeout: timeout)
    }

    /// Starts `notify-send` with `arguments` and returns without waiting.
    ///
    /// Collect its result with ``ChildProcess/result(timeout:)``; stop it early with
    /// ``ChildProcess/interrupt()`` or ``ChildProcess/stop(grace:)``.
    public func start(_ arguments: [String]) throws -> ChildProcess {
        try ChildProcess(executable: stdbuf, arguments: ["-oL", executable.path] + arguments, environment: bus.environment)
    }
}

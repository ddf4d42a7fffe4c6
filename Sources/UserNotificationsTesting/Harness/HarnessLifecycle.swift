import Foundation

/// How the harness starts the helpers of a test desktop, waits for them, and stops them by
/// PID whatever happens.
enum HarnessLifecycle {
    /// Runs `start`; when it throws, runs `cleanUp` (which stops what was started before it)
    /// and rethrows.
    static func start<Value>(_ start: () async throws -> Value, cleanUp: () async -> Void) async throws -> Value {
        do {
            return try await start()
        } catch {
            await cleanUp()
            throw error
        }
    }

    /// Runs `body` with `value`, then `stop`, whether `body` throws or not.
    static func run<Value>(_ value: Value, _ body: (Value) async throws -> Void, stop: (Value) async -> Void) async throws {
        do {
            try await body(value)
        } catch {
            await stop(value)
            throw error
        }
        await stop(value)
    }

    /// Asks `probe` every `interval` until it returns a value, at most `timeout`.
    ///
    /// - Throws: ``HarnessError/timedOut(operation:after:detail:)`` naming `operation`, with
    ///   `detail()` at the deadline; what `probe` throws.
    static func poll<Value>(
        _ operation: String, timeout: Duration, interval: Duration = .milliseconds(50), detail: () -> String = { "" },
        _ probe: () async throws -> Value?
    ) async throws -> Value {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let value = try await probe() { return value }
            guard ContinuousClock.now < deadline else {
                throw HarnessError.timedOut(operation: operation, after: timeout, detail: detail())
            }
            try await Task.sleep(for: interval)
        }
    }

    /// Creates `.config`, `.local/share` and a private `run` folder under `home` and returns
    /// `environment` with `HOME` and the `XDG_*` folders pointing there, and no display.
    static func homeEnvironment(_ home: URL, from environment: [String: String]) throws -> [String: String] {
        let config = home.appendingPathComponent(".config")
        let data = home.appendingPathComponent(".local/share")
        let runtime = home.appendingPathComponent("run")
        for folder in [config, data, runtime] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: runtime.path)
        var environment = environment
        environment["HOME"] = home.path
        environment["XDG_CONFIG_HOME"] = config.path
        environment["XDG_DATA_HOME"] = data.path
        environment["XDG_CACHE_HOME"] = home.appendingPathComponent(".cache").path
        environment["XDG_RUNTIME_DIR"] = runtime.path
        environment["DISPLAY"] = nil
        environment["WAYLAND_DISPLAY"] = nil
        environment["NO_AT_BRIDGE"] = "1"
        return environment
    }
}

extension TestBus {
    /// Starts `executable` and waits until it owns `name` on this bus; kills it when it does
    /// not.
    ///
    /// - Throws: what ``waitForName(_:ownedBy:timeout:)`` throws.
    func startOwner(
        of name: String, executable: URL, arguments: [String] = [], environment: [String: String], timeout: Duration
    ) async throws -> ChildProcess {
        let process = try ChildProcess(executable: executable, arguments: arguments, environment: environment)
        do {
            try await waitForName(name, ownedBy: process, timeout: timeout)
        } catch {
            await process.kill()
            throw error
        }
        return process
    }
}

import Foundation

/// python-dbusmock's `notification_daemon` template on a ``TestBus``: a loose, scriptable
/// peer that owns `org.freedesktop.Notifications` and records every call.
///
/// It runs as `/usr/bin/python3 -m dbusmock --session --template notification_daemon`
/// (the system interpreter, which has Debian's python3-dbusmock) and is stopped by its PID.
/// Its `org.freedesktop.DBus.Mock` interface is called with `gdbus call`; arguments and
/// results are GVariant text, for example `[<uint32 1>, <'default'>]`.
public final class DBusMockServer: Sendable {
    /// The bus name the template owns.
    public static let busName = "org.freedesktop.Notifications"
    /// The object path of the mocked notification server.
    public static let objectPath = "/org/freedesktop/Notifications"
    /// The interface through which the mock is controlled.
    public static let mockInterface = "org.freedesktop.DBus.Mock"

    /// The python process.
    public let process: ChildProcess
    /// The bus the mock serves on.
    public let bus: TestBus

    /// The PID of the python process.
    public var pid: Int32 { process.pid }

    /// Starts the template and waits until it owns ``busName``.
    ///
    /// - Parameters:
    ///   - bus: The bus to serve on.
    ///   - capabilities: What `GetCapabilities` returns; `nil` keeps the template's default
    ///     (which lacks `actions`).
    ///   - startTimeout: How long to wait for the name.
    /// - Throws: ``MissingToolError`` without `/usr/bin/python3`, python3-dbusmock or
    ///   `gdbus`; ``HarnessError`` when the mock does not start.
    public init(bus: TestBus, capabilities: [String]? = nil, startTimeout: Duration = .seconds(15)) async throws {
        _ = try ToolRequirement.require("gdbus")
        try await ToolRequirement.requirePythonModule("dbusmock", package: "python3-dbusmock")
        var arguments = ["-m", "dbusmock", "--session", "--template", "notification_daemon"]
        if let capabilities {
            let parameters = try JSONEncoder().encode(["capabilities": capabilities.joined(separator: " ")])
            arguments += ["--parameters", String(decoding: parameters, as: UTF8.self)]
        }
        let process = try ChildProcess(
            executable: ToolRequirement.require("/usr/bin/python3"),
            arguments: arguments,
            environment: bus.environment
        )
        do {
            try await bus.waitForName(Self.busName, ownedBy: process, timeout: startTimeout)
        } catch {
            await process.kill()
            throw error
        }
        self.process = process
        self.bus = bus
    }

    deinit {
        process.send(SIGKILL)
    }

    /// Calls `org.freedesktop.DBus.Mock.<method>` with `arguments` (GVariant text, one per
    /// parameter) and returns what `gdbus call` prints, for example `(uint64 0,)`.
    ///
    /// - Throws: ``HarnessError/commandFailed(_:)`` when the call fails.
    public func callMock(_ method: String, _ arguments: [String] = [], timeout: Duration = .seconds(10)) async throws -> String {
        let result = try await bus.run("gdbus", [
            "call", "--session", "--dest", Self.busName, "--object-path", Self.objectPath,
            "--timeout", String(max(1, Int(timeout.components.seconds))),
            "--method", "\(Self.mockInterface).\(method)",
        ] + arguments, timeout: timeout + .seconds(1)).check()
        return result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Every call so far: `([(uint64 timestamp, 'Method', [<arg>, ...]), ...],)`.
    public func getCalls() async throws -> String {
        try await callMock("GetCalls")
    }

    /// The calls of `method` so far: `([(uint64 timestamp, [<arg>, ...]), ...],)`.
    public func getMethodCalls(_ method: String) async throws -> String {
        try await callMock("GetMethodCalls", [Self.quoted(method)])
    }

    /// Forgets the recorded calls.
    public func clearCalls() async throws {
        _ = try await callMock("ClearCalls")
    }

    /// Emits a signal from ``objectPath``.
    ///
    /// - Parameters:
    ///   - interface: The signal's interface.
    ///   - name: The signal's name, for example `ActionInvoked`.
    ///   - signature: The signal's signature, for example `us`.
    ///   - arguments: The arguments as a GVariant `av` text, for example `[<uint32 1>, <'default'>]`.
    ///   - destination: A unique bus name to send the signal to, or `nil` to broadcast it.
    public func emitSignal(
        interface: String = "org.freedesktop.Notifications",
        name: String,
        signature: String,
        arguments: String,
        destination: String? = nil
    ) async throws {
        var parameters = [Self.quoted(interface), Self.quoted(name), Self.quoted(signature), arguments]
        if let destination {
            parameters.append("{'destination': <\(Self.quoted(destination))>}")
            _ = try await callMock("EmitSignalDetailed", parameters)
        } else {
            _ = try await callMock("EmitSignal", parameters)
        }
    }

    /// Adds (or replaces) a method whose body is the python `code` (see python-dbusmock's
    /// `AddMethod`: `args` holds the arguments, `ret` the return value).
    public func addMethod(
        interface: String = "org.freedesktop.Notifications",
        name: String,
        inSignature: String,
        outSignature: String,
        code: String
    ) async throws {
        _ = try await callMock("AddMethod", [interface, name, inSignature, outSignature, code].map(Self.quoted))
    }

    /// Stops the mock (`SIGTERM`, then `SIGKILL` after `grace`).
    public func stop(grace: Duration = .seconds(2)) async {
        await process.stop(grace: grace)
    }

    /// `text` as a GVariant string literal.
    static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }
}

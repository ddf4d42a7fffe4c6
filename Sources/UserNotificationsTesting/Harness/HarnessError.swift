import Foundation

/// Why the test harness could not do what a test asked.
public enum HarnessError: Error, Sendable, CustomStringConvertible {
    /// `posix_spawn` (or a pipe for it) failed, so the program never ran.
    case launchFailed(command: String, reason: String)
    /// A helper process (bus, X server, notification server) did not come up.
    case startFailed(program: String, reason: String, log: String)
    /// A program or a wait ran past its deadline.
    case timedOut(operation: String, after: Duration, detail: String)
    /// A command exited unsuccessfully.
    case commandFailed(CommandResult)
    /// A command succeeded but printed something the harness cannot interpret.
    case unexpectedOutput(command: String, output: String, reason: String)
    /// A file the harness needs (a built product) is in none of the places it looked.
    case fileNotFound(searched: [String])

    /// A message that says what failed, with the program's own output where there is some.
    public var description: String {
        switch self {
        case .launchFailed(let command, let reason):
            return "could not launch `\(command)`: \(reason)"
        case .startFailed(let program, let reason, let log):
            return "\(program) did not start: \(reason)" + (log.isEmpty ? "" : "\n--- its output ---\n\(log)")
        case .timedOut(let operation, let after, let detail):
            return "`\(operation)` did not finish within \(after)" + (detail.isEmpty ? "" : "\n\(detail)")
        case .commandFailed(let result):
            return "`\(result.command.joined(separator: " "))` failed with \(result.status)"
                + "\nstdout: \(result.standardOutput)\nstderr: \(result.standardError)"
        case .unexpectedOutput(let command, let output, let reason):
            return "`\(command)` printed output the harness cannot use (\(reason)): \(output)"
        case .fileNotFound(let searched):
            return "not found; looked in: \(searched.joined(separator: ", "))"
        }
    }
}

/// What a finished command printed and how it ended.
public struct CommandResult: Sendable, Hashable {
    /// The program path followed by its arguments.
    public let command: [String]
    /// How the program ended.
    public let status: ChildProcess.ExitStatus
    /// Everything written to standard output, decoded as UTF-8.
    public let standardOutput: String
    /// Everything written to standard error, decoded as UTF-8.
    public let standardError: String

    /// Creates a result; the harness makes these when a ``ChildProcess`` finishes.
    public init(command: [String], status: ChildProcess.ExitStatus, standardOutput: String, standardError: String) {
        self.command = command
        self.status = status
        self.standardOutput = standardOutput
        self.standardError = standardError
    }

    /// Whether the program exited with status 0.
    public var succeeded: Bool { status.isSuccess }

    /// Returns `self` when the program exited with status 0.
    ///
    /// - Throws: ``HarnessError/commandFailed(_:)`` otherwise.
    @discardableResult
    public func check() throws -> CommandResult {
        guard succeeded else {
            throw HarnessError.commandFailed(self)
        }
        return self
    }
}

import DBus
import Foundation
import UserNotifications

/// A `notify agent --foreground` started by the bench on the bench's bus, with a state folder
/// of its own (removed when it stops), its log in that folder, and stopped by its PID.
final class AgentProcess {
    let pid: pid_t
    /// The process this bench started, or `nil` for an agent started by its caller.
    private let process: Process?
    private let folder: URL?

    /// The `notify` beside this executable, or `path`.
    static func executable(_ path: String?) -> URL {
        if let path { return URL(fileURLWithPath: path) }
        let bench = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        return bench.deletingLastPathComponent().appendingPathComponent("notify")
    }

    /// Starts the agent and returns once it owns its name (at most 10 s).
    static func start(_ executable: URL, on connection: DBusConnection, arguments: [String] = []) async throws -> AgentProcess {
        guard try await connection.nameOwner(of: AgentInterface.busName) == nil else {
            throw BenchError("\(AgentInterface.busName) is already owned on this bus")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("notify-bench-agent-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let log = folder.appendingPathComponent("agent.log")
        guard FileManager.default.createFile(atPath: log.path, contents: nil) else { throw BenchError("cannot write \(log.path)") }
        let process = Process()
        process.executableURL = executable
        process.arguments = ["agent", "--foreground"] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_STATE_HOME"] = folder.appendingPathComponent("state").path
        process.environment = environment
        let output = try FileHandle(forWritingTo: log)
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let agent = AgentProcess(process: process, folder: folder)
        let deadline = ContinuousClock.now + .seconds(10)
        while try await connection.nameOwner(of: AgentInterface.busName) == nil {
            guard process.isRunning, ContinuousClock.now < deadline else {
                let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
                agent.stop()
                throw BenchError("\(executable.path) agent --foreground did not take \(AgentInterface.busName): \(text)")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        return agent
    }

    private init(process: Process, folder: URL) {
        self.process = process
        self.folder = folder
        pid = process.processIdentifier
    }

    /// The agent `pid` that the bench's caller started on the bus and stops itself
    /// (`--agent-pid`: valgrind, counting this process, cannot start another).
    static func running(_ pid: pid_t, on connection: DBusConnection) async throws -> AgentProcess {
        guard try await connection.nameOwner(of: AgentInterface.busName) != nil else {
            throw BenchError("--agent-pid \(pid): \(AgentInterface.busName) has no owner on this bus")
        }
        return AgentProcess(pid: pid)
    }

    private init(pid: pid_t) {
        process = nil
        folder = nil
        self.pid = pid
    }

    /// The agent's resident memory (`VmRSS`), in MiB.
    var residentMegabytes: Double {
        Double(Self.field("VmRSS", of: "/proc/\(pid)/status")) / 1024
    }

    /// The agent's CPU time so far (user and system, all threads), in seconds.
    var cpuSeconds: Double {
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        // The fields after the command name in parentheses: utime and stime are the 12th and 13th.
        let fields = stat.split(separator: ")").last?.split(separator: " ") ?? []
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return .nan }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Context switches (voluntary and not) of each of the agent's threads, by thread id.
    var contextSwitches: [String: Int] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        var switches: [String: Int] = [:]
        for task in tasks {
            let path = "/proc/\(pid)/task/\(task)/status"
            switches[task] = Self.field("voluntary_ctxt_switches", of: path) + Self.field("nonvoluntary_ctxt_switches", of: path)
        }
        return switches
    }

    /// The process's command line, its words joined by spaces (the agent's waiter has
    /// `--wait-until` in it).
    var commandLine: String {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return "" }
        return String(decoding: data, as: UTF8.self).split(separator: "\0").joined(separator: " ")
    }

    /// Stops the agent by its PID (SIGTERM, then SIGKILL after 5 s) and removes its folder;
    /// an agent the caller started is left running.
    func stop() {
        guard let process, let folder else { return }
        if process.isRunning {
            kill(pid, SIGTERM)
            let deadline = Date().addingTimeInterval(5)
            while process.isRunning, Date() < deadline { usleep(10_000) }
            if process.isRunning { kill(pid, SIGKILL) }
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: folder)
    }

    /// The number of a `Name:   value` line of a `/proc` status file (0 when absent).
    private static func field(_ name: String, of path: String) -> Int {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") }) else { return 0 }
        return line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first.flatMap { Int($0) } ?? 0
    }
}

public import Foundation
import DesktopNotificationsSupport

/// A program started by the test harness, tracked and stopped by its process ID.
///
/// The child is started with `posix_spawn`: standard input is `/dev/null`, standard
/// output and standard error are pipes that the harness drains on a background thread,
/// every other file descriptor is closed, and `SIGINT`, `SIGTERM`, `SIGHUP`, `SIGQUIT`,
/// `SIGPIPE` and `SIGCHLD` are reset to their default actions with an empty signal mask,
/// so signals behave the same whatever the test runner ignores or blocks.
///
/// A dedicated thread waits for the child to exit and reaps it, so the child never
/// lingers as a zombie and its PID is never signalled after it has been reaped.
/// Every wait takes a deadline. When the last reference goes away while the child
/// still runs, it is killed with `SIGKILL`.
public final class ChildProcess: Sendable {
    /// How a child process ended.
    public enum ExitStatus: Sendable, Hashable, CustomStringConvertible {
        /// The process called `exit` with this status.
        case exited(Int32)
        /// The process was terminated by this signal.
        case signaled(Int32)
        /// Something else in this process reaped the child first, so its status is lost.
        case unknown

        /// Whether the process exited with status 0.
        public var isSuccess: Bool { self == .exited(0) }

        /// A short text such as `exit 1` or `signal 9 (SIGKILL)`.
        public var description: String {
            switch self {
            case .exited(let code):
                return "exit \(code)"
            case .signaled(let signal):
                let name = strsignal(signal).map { String(cString: $0) } ?? "unknown signal"
                return "signal \(signal) (\(name))"
            case .unknown:
                return "unknown exit status (reaped elsewhere)"
            }
        }
    }

    /// The process ID of the child.
    public let pid: Int32
    /// The program that was started.
    public let executable: URL
    /// The arguments passed after the program name.
    public let arguments: [String]

    private let monitor: Monitor

    /// Starts `executable` with `arguments` and exactly the variables in `environment`.
    ///
    /// - Throws: ``HarnessError/launchFailed(command:reason:)`` when the program cannot be started.
    public init(
        executable: URL,
        arguments: [String] = [],
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws {
        self.executable = executable
        self.arguments = arguments
        let command = ([executable.path] + arguments).joined(separator: " ")
        let output = try Self.makePipe(for: command)
        let errorOutput: (read: Int32, write: Int32)
        do {
            errorOutput = try Self.makePipe(for: command)
        } catch {
            close(output.read)
            close(output.write)
            throw error
        }
        let spawned: Result<pid_t, HarnessError> = Self.spawn(
            path: executable.path,
            argv: [executable.path] + arguments,
            environment: environment,
            standardOutput: output.write,
            standardError: errorOutput.write,
            command: command
        )
        close(output.write)
        close(errorOutput.write)
        switch spawned {
        case .failure(let error):
            close(output.read)
            close(errorOutput.read)
            throw error
        case .success(let pid):
            self.pid = pid
            monitor = Monitor(pid: pid)
            monitor.startReaping()
            monitor.startDraining(output: output.read, errorOutput: errorOutput.read)
        }
    }

    deinit {
        _ = monitor.signalIfRunning(SIGKILL)
    }

    /// The exit status, or `nil` while the child is still running.
    public var exitStatus: ExitStatus? {
        monitor.withState { $0.status }
    }

    /// Whether the child has not exited yet.
    public var isRunning: Bool { exitStatus == nil }

    /// Everything the child has written to standard output so far, decoded as UTF-8.
    public var standardOutput: String {
        monitor.withState { String(decoding: $0.output, as: UTF8.self) }
    }

    /// Everything the child has written to standard error so far, decoded as UTF-8.
    public var standardError: String {
        monitor.withState { String(decoding: $0.errorOutput, as: UTF8.self) }
    }

    /// The program and its arguments joined by spaces, for messages.
    public var commandLine: String {
        ([executable.path] + arguments).joined(separator: " ")
    }

    /// Sends `signal` to the child's PID, unless the child has already been reaped.
    ///
    /// - Returns: `true` when the signal was delivered to the still-running child.
    @discardableResult
    public func send(_ signal: Int32) -> Bool {
        monitor.signalIfRunning(signal)
    }

    /// Sends `SIGINT` to the child's PID, as Control-C in a terminal would.
    ///
    /// - Returns: `true` when the signal was delivered to the still-running child.
    @discardableResult
    public func interrupt() -> Bool {
        send(SIGINT)
    }

    /// Waits until the child exits, at most `timeout`.
    ///
    /// The exit can be seen before the last bytes of the child's output are read from its pipes:
    /// to read everything it printed, use ``result(timeout:)``.
    ///
    /// - Returns: The exit status, or `nil` when the child was still running at the deadline.
    public func waitForExit(timeout: Duration) async -> ExitStatus? {
        _ = await monitor.wait(timeout: timeout) { $0.status != nil }
        return exitStatus
    }

    /// Waits until the child's standard output contains `text`, at most `timeout`.
    ///
    /// - Returns: `true` when the text appeared; `false` when the output was closed without
    ///   it or the deadline passed.
    public func waitForOutput(containing text: String, timeout: Duration) async -> Bool {
        let needle = Data(text.utf8)
        _ = await monitor.wait(timeout: timeout) { state in
            !state.outputOpen || state.output.range(of: needle) != nil
        }
        return monitor.withState { $0.output.range(of: needle) != nil }
    }

    /// Stops the child: `SIGTERM`, then `SIGKILL` if it is still running after `grace`.
    ///
    /// - Returns: The exit status, or `nil` if the child was still not reaped five seconds
    ///   after `SIGKILL` (a process stuck in the kernel).
    @discardableResult
    public func stop(grace: Duration = .seconds(2)) async -> ExitStatus? {
        if send(SIGTERM), let status = await waitForExit(timeout: grace) {
            return status
        }
        return await kill()
    }

    /// Kills the child with `SIGKILL` and waits until it has been reaped.
    ///
    /// - Returns: The exit status, or `nil` if the child was not reaped within five seconds.
    @discardableResult
    public func kill() async -> ExitStatus? {
        send(SIGKILL)
        return await waitForExit(timeout: .seconds(5))
    }

    /// Waits until the child exits and has closed its output, then returns what it printed.
    ///
    /// - Throws: ``HarnessError/timedOut(operation:after:detail:)`` when the child runs past
    ///   `timeout`; it is killed first.
    public func result(timeout: Duration) async throws -> CommandResult {
        let finished = await monitor.wait(timeout: timeout) { state in
            state.status != nil && !state.outputOpen && !state.errorOutputOpen
        }
        guard finished, let status = exitStatus else {
            await kill()
            throw HarnessError.timedOut(
                operation: commandLine,
                after: timeout,
                detail: "stdout: \(standardOutput)\nstderr: \(standardError)"
            )
        }
        return CommandResult(
            command: [executable.path] + arguments,
            status: status,
            standardOutput: standardOutput,
            standardError: standardError
        )
    }

    // MARK: - Launching

    private typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32
    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    /// `pipe2` and `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34+) are not
    /// exported by Swift's Glibc module, so they are looked up at run time.
    private static let pipe2: Pipe2? = dlsym(nil, "pipe2").map { unsafeBitCast($0, to: Pipe2.self) }
    private static let addCloseFrom: AddCloseFrom? = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np")
        .map { unsafeBitCast($0, to: AddCloseFrom.self) }

    private static func makePipe(for command: String) throws -> (read: Int32, write: Int32) {
        guard let pipe2 else {
            throw HarnessError.launchFailed(command: command, reason: "the C library has no pipe2")
        }
        var fds: [Int32] = [-1, -1]
        guard pipe2(&fds, O_CLOEXEC) == 0 else {
            throw HarnessError.launchFailed(command: command, reason: "pipe2: \(String(cString: strerror(errno)))")
        }
        return (fds[0], fds[1])
    }

    private static func spawn(
        path: String,
        argv: [String],
        environment: [String: String],
        standardOutput: Int32,
        standardError: Int32,
        command: String
    ) -> Result<pid_t, HarnessError> {
        guard let addCloseFrom else {
            return .failure(.launchFailed(
                command: command,
                reason: "the C library has no posix_spawn_file_actions_addclosefrom_np (glibc 2.34 or later is needed)"
            ))
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, standardOutput, 1)
        posix_spawn_file_actions_adddup2(&actions, standardError, 2)
        _ = addCloseFrom(&actions, 3)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGCHLD] {
            sigaddset(&defaults, signal)
        }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let cArguments = argv.map { strdup($0) } + [nil]
        let cEnvironment = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            cArguments.forEach { free($0) }
            cEnvironment.forEach { free($0) }
        }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, path, &actions, &attributes, cArguments, cEnvironment)
        guard rc == 0 else {
            return .failure(.launchFailed(command: command, reason: String(cString: strerror(rc))))
        }
        return .success(pid)
    }
}

// MARK: - Monitoring

extension ChildProcess {
    /// What the reaper and drain threads have observed, guarded by the ``Monitor``'s lock.
    struct State: Sendable {
        var status: ExitStatus?
        var output = Data()
        var errorOutput = Data()
        var outputOpen = true
        var errorOutputOpen = true
        var waiters: [Int: Waiter] = [:]
        var nextWaiter = 0
    }

    /// A task suspended until `condition` holds or its deadline passes.
    struct Waiter: Sendable {
        let condition: @Sendable (State) -> Bool
        let continuation: CheckedContinuation<Bool, Never>
    }

    /// Shared between the ``ChildProcess`` and its background threads, which must not keep
    /// the process object itself alive.
    ///
    /// The state is guarded by the package's lock (``Locked``, a pthread mutex that
    /// ThreadSanitizer sees through).
    final class Monitor: Sendable {
        let pid: pid_t
        private let state = Locked(State())

        init(pid: pid_t) {
            self.pid = pid
        }

        /// Runs `body` with exclusive access to the state.
        func withState<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
            try state.withLock(body)
        }

        /// Applies `change` and resumes every waiter whose condition now holds.
        func update(_ change: (inout State) -> Void) {
            let ready: [Waiter] = withState { state in
                change(&state)
                let snapshot = state
                let satisfied = state.waiters.filter { $0.value.condition(snapshot) }
                for id in satisfied.keys {
                    state.waiters[id] = nil
                }
                return Array(satisfied.values)
            }
            for waiter in ready {
                waiter.continuation.resume(returning: true)
            }
        }

        /// Suspends until `condition` holds (`true`) or `timeout` passes (`false`).
        func wait(timeout: Duration, until condition: @escaping @Sendable (State) -> Bool) async -> Bool {
            await withCheckedContinuation { continuation in
                let id: Int? = withState { state in
                    if condition(state) {
                        return nil
                    }
                    let id = state.nextWaiter
                    state.nextWaiter += 1
                    state.waiters[id] = Waiter(condition: condition, continuation: continuation)
                    return id
                }
                guard let id else {
                    continuation.resume(returning: true)
                    return
                }
                DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(timeout.harnessNanoseconds)) {
                    let expired = self.withState { $0.waiters.removeValue(forKey: id) }
                    expired?.continuation.resume(returning: false)
                }
            }
        }

        /// Sends `signal` while holding the lock that the reaper takes before reaping, so a
        /// reaped (and possibly reused) PID is never signalled.
        func signalIfRunning(_ signal: Int32) -> Bool {
            withState { state in
                state.status == nil && Glibc.kill(pid, signal) == 0
            }
        }

        /// Waits for the child on a dedicated thread without reaping it, then reaps it under the lock.
        func startReaping() {
            let thread = Thread { [self] in
                var info = siginfo_t()
                while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) == -1 && errno == EINTR {}
                update { state in
                    var raw: Int32 = 0
                    if waitpid(pid, &raw, 0) == pid {
                        let signal = raw & 0x7f
                        state.status = signal == 0 ? .exited((raw >> 8) & 0xff) : .signaled(signal)
                    } else {
                        state.status = .unknown
                    }
                }
            }
            thread.name = "harness-reap-\(pid)"
            thread.start()
        }

        /// Reads standard output and standard error until both are closed.
        func startDraining(output: Int32, errorOutput: Int32) {
            let thread = Thread { [self] in
                var descriptors = [
                    pollfd(fd: output, events: Int16(POLLIN), revents: 0),
                    pollfd(fd: errorOutput, events: Int16(POLLIN), revents: 0),
                ]
                var buffer = [UInt8](repeating: 0, count: 65536)
                while descriptors.contains(where: { $0.fd >= 0 }) {
                    let ready = poll(&descriptors, nfds_t(descriptors.count), -1)
                    let failed = ready < 0 && errno != EINTR
                    for index in descriptors.indices where descriptors[index].fd >= 0 {
                        let count: Int
                        if failed {
                            count = 0
                        } else if ready > 0 && descriptors[index].revents != 0 {
                            count = read(descriptors[index].fd, &buffer, buffer.count)
                            if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
                        } else {
                            continue
                        }
                        let chunk = Data(buffer[0..<max(count, 0)])
                        let isOutput = index == 0
                        update { state in
                            if isOutput {
                                state.output.append(chunk)
                                state.outputOpen = state.outputOpen && count > 0
                            } else {
                                state.errorOutput.append(chunk)
                                state.errorOutputOpen = state.errorOutputOpen && count > 0
                            }
                        }
                        if count <= 0 {
                            close(descriptors[index].fd)
                            descriptors[index].fd = -1
                        }
                    }
                }
            }
            thread.name = "harness-drain-\(pid)"
            thread.start()
        }
    }
}

extension Duration {
    /// The duration in whole nanoseconds, for Dispatch deadlines.
    var harnessNanoseconds: Int {
        let (seconds, attoseconds) = components
        return Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Starts a program that outlives its starter and is nobody's child to reap: a double fork.
///
/// The first child makes a new session (`setsid`, so no terminal signal of the agent's reaches
/// the app) and forks the program, then exits at once and is reaped here; the program is
/// adopted by init (or the nearest subreaper, the user's systemd). The program starts with
/// standard input, output and error on `/dev/null`, an empty signal mask, `SIGPIPE` at its
/// default, and none of the starter's other file descriptors. Between fork and exec the
/// children call only async-signal-safe functions, on memory prepared before the fork.
///
/// Failures after the fork (`setsid`, the second fork, opening `/dev/null`, `execve`) come
/// back through a close-on-exec socket pair (a pipe that is close-on-exec from its creation), so a missing or non-executable program is an error
/// here, not a silent exit status. The call blocks for the forks and the exec (milliseconds).
package enum DetachedProcess {
    /// Starts `path` with `arguments` (the first is the program's name, `argv[0]`).
    ///
    /// - Returns: The program's PID.
    /// - Throws: ``ApplicationLaunchError/spawnFailed(program:errno:)``.
    package static func spawn(path: String, arguments: [String], environment: [String: String]) throws(ApplicationLaunchError) -> pid_t {
        let argv = CStringArray(arguments)
        let envp = CStringArray(environment.filter { !$0.key.contains("=") }.map { "\($0.key)=\($0.value)" })
        let program = CStringArray([path, "/dev/null"])
        let inherited = openDescriptors()
        var pipeEnds: [Int32] = [-1, -1]
        let socketType = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        guard socketpair(AF_UNIX, socketType, 0, &pipeEnds) == 0 else { throw .spawnFailed(program: path, errno: errno) }
        let readEnd = pipeEnds[0]
        let writeEnd = fcntl(pipeEnds[1], F_DUPFD_CLOEXEC, 3)
        close(pipeEnds[1])
        defer { close(readEnd) }
        guard writeEnd >= 0 else { throw .spawnFailed(program: path, errno: errno) }
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)

        let intermediate = fork()
        if intermediate == 0 {
            inIntermediate(program: program, argv: argv, envp: envp, inherited: inherited, report: writeEnd, mask: &emptyMask)
        }
        let forkError = errno
        close(writeEnd)
        guard intermediate > 0 else { throw .spawnFailed(program: path, errno: forkError) }
        let reports = readReports(readEnd)
        var status: Int32 = 0
        while waitpid(intermediate, &status, 0) < 0 && errno == EINTR {}
        if let failure = reports.first(where: { $0.step != .started }) {
            throw .spawnFailed(program: path, errno: failure.value)
        }
        guard let started = reports.first(where: { $0.step == .started }) else {
            throw .spawnFailed(program: path, errno: ECHILD)
        }
        return started.value
    }

    /// What a child reports through the pipe: 8 bytes, the step and a PID or an `errno`.
    private struct Report {
        enum Step: Int32 {
            case started = 1
            case failed = 2
        }

        let step: Step
        let value: Int32
    }

    private static func readReports(_ descriptor: Int32) -> [Report] {
        var reports: [Report] = []
        var pair: (Int32, Int32) = (0, 0)
        while true {
            let got = withUnsafeMutableBytes(of: &pair) { Glibc.read(descriptor, $0.baseAddress, 8) }
            if got < 0, errno == EINTR { continue }
            guard got == 8, let step = Report.Step(rawValue: pair.0) else { return reports }
            reports.append(Report(step: step, value: pair.1))
        }
    }

    /// The first child: a new session, the second fork, and out.
    private static func inIntermediate(
        program: CStringArray, argv: CStringArray, envp: CStringArray, inherited: [Int32], report: Int32,
        mask: UnsafeMutablePointer<sigset_t>
    ) -> Never {
        guard setsid() >= 0 else { send(report, .failed, errno) }
        let child = fork()
        guard child >= 0 else { send(report, .failed, errno) }
        guard child == 0 else { send(report, .started, child, exitStatus: 0) }
        sigprocmask(SIG_SETMASK, mask, nil)
        signal(SIGPIPE, SIG_DFL)
        let null = open(program.pointers[1]!, O_RDWR)
        guard null >= 0 else { send(report, .failed, errno) }
        dup2(null, 0)
        dup2(null, 1)
        dup2(null, 2)
        if null > 2 { close(null) }
        for descriptor in inherited where descriptor > 2 && descriptor != report {
            close(descriptor)
        }
        execve(program.pointers[0]!, argv.pointers, envp.pointers)
        send(report, .failed, errno)
    }

    private static func send(_ descriptor: Int32, _ step: Report.Step, _ value: Int32, exitStatus: Int32 = 127) -> Never {
        var pair = (step.rawValue, value)
        _ = withUnsafeBytes(of: &pair) { write(descriptor, $0.baseAddress, 8) }
        _exit(exitStatus)
    }

    /// The descriptors open now, from `/proc/self/fd`: those the program must not inherit
    /// when one lacks close-on-exec.
    private static func openDescriptors() -> [Int32] {
        guard let directory = opendir("/proc/self/fd") else { return [] }
        defer { closedir(directory) }
        var descriptors: [Int32] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if let descriptor = Int32(name) { descriptors.append(descriptor) }
        }
        return descriptors
    }
}

/// A NULL-terminated array of C strings, allocated before a fork and freed after.
private final class CStringArray {
    let pointers: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
    private let count: Int

    init(_ strings: [String]) {
        count = strings.count
        pointers = .allocate(capacity: strings.count + 1)
        for (index, string) in strings.enumerated() {
            pointers[index] = strdup(string)
        }
        pointers[strings.count] = nil
    }

    deinit {
        for index in 0..<count { free(pointers[index]) }
        pointers.deallocate()
    }
}

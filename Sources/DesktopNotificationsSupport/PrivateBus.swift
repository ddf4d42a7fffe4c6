#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Foundation

/// A private `dbus-daemon` this process starts: `notify`'s terminal fallback when there is no
/// session bus (or no notification server on it), `notify server --private`'s bus, and the
/// examples' terminal presenter. Its configuration is ``PrivateBusConfiguration``'s.
///
/// The daemon runs in a process group of its own, so the Control-C meant for `notify` does
/// not kill the bus under it, and it is stopped by its PID on every way out of `notify`, a
/// crash or `SIGKILL` included: it is started by a small shell, its guard, that waits for
/// the end of a pipe (the lifeline) whose writing end only this process holds. The kernel
/// closes that end however the process ends; the guard then stops the daemon by the PID it
/// started, waits for it and removes the bus's folder. ``stop()`` closes the lifeline too.
package final class PrivateBus: Sendable {
    /// Why the bus could not start.
    package struct Failure: Error, CustomStringConvertible {
        /// What went wrong, for a person.
        package let description: String
    }

    /// The guard: `$1` is the folder, the rest the daemon's command line.
    private static let guardScript = """
        directory=$1
        shift
        "$@" </dev/null &
        daemon=$!
        exec >/dev/null
        read -r ignored
        kill -TERM "$daemon"
        wait "$daemon"
        rm -rf -- "$directory"
        """

    /// The address, as for `DBUS_SESSION_BUS_ADDRESS`.
    package let address: String
    /// The guard's PID.
    private let pid: pid_t
    /// The writing end of the lifeline, until ``stop()``.
    private let lifeline: Locked<Int32?>

    /// Starts `dbus-daemon` in a new temporary directory.
    package init() throws(Failure) {
        guard let daemon = Self.locate("dbus-daemon") else {
            throw Failure(description: "dbus-daemon is not installed (Debian package dbus-daemon)")
        }
        var template = Array(FileManager.default.temporaryDirectory.appendingPathComponent("notify-bus-XXXXXX").path.utf8CString)
        guard let made = mkdtemp(&template) else {
            throw Failure(description: "cannot make a temporary directory: \(String(cString: strerror(errno)))")
        }
        let directory = String(cString: made)
        let configuration = PrivateBusConfiguration.text(listen: ["unix:path=\(directory)/bus"])
        let configurationPath = "\(directory)/bus.conf"
        do {
            try configuration.write(toFile: configurationPath, atomically: true, encoding: .utf8)
        } catch {
            try? FileManager.default.removeItem(atPath: directory)
            throw Failure(description: "cannot write \(configurationPath): \(error)")
        }
        var fds: [Int32] = [-1, -1]
        var lifelineFDs: [Int32] = [-1, -1]
        guard Self.makePipe(&fds) else {
            try? FileManager.default.removeItem(atPath: directory)
            throw Failure(description: "pipe: \(String(cString: strerror(errno)))")
        }
        guard Self.makePipe(&lifelineFDs) else {
            let reason = String(cString: strerror(errno))
            fds.forEach { close($0) }
            try? FileManager.default.removeItem(atPath: directory)
            throw Failure(description: "pipe: \(reason)")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, lifelineFDs[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setpgroup(&attributes, 0)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in [SIGINT, SIGTERM, SIGPIPE] { sigaddset(&defaults, number) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        // Dispatch's threads block signals, and a spawned child inherits the spawning
        // thread's mask: start the guard (and so the daemon) with none blocked, so SIGTERM stops it.
        var noMask = sigset_t()
        sigemptyset(&noMask)
        posix_spawnattr_setsigmask(&attributes, &noMask)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        let arguments = [
            "notify-bus-guard", "-c", Self.guardScript, "notify-bus-guard", directory,
            daemon, "--config-file=\(configurationPath)", "--nofork", "--nopidfile", "--print-address=1",
        ]
        let cArguments = arguments.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, "/bin/sh", &actions, &attributes, cArguments, environ)
        close(fds[1])
        close(lifelineFDs[0])
        guard spawned == 0 else {
            close(fds[0])
            close(lifelineFDs[1])
            try? FileManager.default.removeItem(atPath: directory)
            throw Failure(description: "cannot start \(daemon): \(String(cString: strerror(spawned)))")
        }
        pid = child
        lifeline = Locked(lifelineFDs[1])
        // The daemon prints its address and a newline once it listens; EOF means it died.
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while line.last != 10 {
            let count = read(fds[0], &byte, 1)
            if count < 0 && errno == EINTR { continue }
            guard count == 1 else { break }
            line.append(byte)
        }
        close(fds[0])
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        address = text
        guard text.contains(":") else {
            stop()
            throw Failure(description: "dbus-daemon did not print an address")
        }
    }

    /// Stops the daemon (its guard kills it by its PID) and removes its directory. Calling it
    /// again does nothing.
    package func stop() {
        let open = lifeline.withLock { descriptor in
            defer { descriptor = nil }
            return descriptor
        }
        guard let open else { return }
        close(open)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }

    /// A pipe whose ends close on `exec` (children get them only as the descriptors their
    /// spawn actions give).
    private static func makePipe(_ descriptors: inout [Int32]) -> Bool {
        guard pipe(&descriptors) == 0 else { return false }
        for descriptor in descriptors { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        return true
    }

    private static func locate(_ program: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let folders = path.split(separator: ":").map(String.init) + ["/usr/bin", "/bin"]
        return folders.map { "\($0)/\(program)" }.first { access($0, X_OK) == 0 }
    }
}

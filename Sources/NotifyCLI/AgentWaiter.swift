import CDBus
import DBus
import FreedesktopNotifications
import UserNotifications
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `notify agent --wait-until`: what an idle agent that holds only requests due later
/// replaces itself with (the same process, by `execve`), so that nothing wakes it until the
/// soonest is due.
///
/// An agent is a Swift concurrency program, and on Linux the concurrency runtime's thread pool
/// (libdispatch's) checks its threads once a second as soon as it has run anything, with no way
/// to stop it; the agent's own timers are quiet, that one is not. The waiter is the same
/// executable started afresh, which runs this plain loop before the runtime starts and never
/// starts it: one timer descriptor on the wall clock (`CLOCK_REALTIME`, absolute, cancelled
/// when the clock is set and then armed again at the same instant, so a suspend or a clock
/// change neither loses nor delays it) and one bus connection that only listens for the agent's
/// name, with libdbus used directly. It owns no name: a call to the agent meanwhile starts a
/// new agent by activation (the service file), and the waiter, seeing the name taken, ends.
///
/// When the time comes the waiter replaces itself with the agent again (`agent --foreground
/// --idle-exit N`), which reads its state and fires what is due, as an agent started late does.
/// It also ends, without starting anything, when the session bus closes (the requests fire when
/// an agent next starts).
package enum AgentWaiter {
    /// A failure while waiting, with what to print.
    struct WaitFailure: Error {
        var message: String
        init(_ message: String) { self.message = message }
    }

    /// How a wait ended.
    enum Outcome: Equatable {
        /// The time came: start the agent.
        case due
        /// Another process owns the agent's name: it keeps the requests' times.
        case replaced
        /// The session bus closed.
        case busClosed
        /// Waiting failed; the message says how.
        case failed(String)
    }

    /// Waits as `arguments` says, then replaces this process with the agent; returns the
    /// process's exit status when it ends without starting the agent (0 when another agent
    /// took over or the bus closed, 1 on a failure, printed on standard error).
    package static func run(_ arguments: AgentWaitArguments) -> Int32 {
        resetInheritedProcessState()
        guard let program = ownExecutable() else {
            return fail("cannot tell its own executable from /proc/self/exe")
        }
        let deadline = Date(timeIntervalSince1970: Double(arguments.until) / 1_000_000_000)
        guard var timer = TimerDescriptor.armed(at: deadline) else { return fail("the system refused a timer descriptor") }
        defer { close(timer) }
        let connection: OpaquePointer
        switch connect() {
        case .success(let opened): connection = opened
        case .failure(let failure): return fail(failure.message)
        }
        let outcome = wait(on: connection, timer: &timer, until: deadline)
        dbus_connection_close(connection)
        dbus_connection_unref(connection)
        switch outcome {
        case .replaced, .busClosed:
            return 0
        case .failed(let message):
            return fail(message)
        case .due:
            return execute(program, arguments.agentCommandLine)
        }
    }

    // MARK: - The process

    /// Undoes what the agent's process leaves to the program it executes: signals it ignored
    /// or blocked (`SIGTERM` must end a waiter), and descriptors opened without close-on-exec
    /// (a state file's lock among them), all closed but the standard three.
    static func resetInheritedProcessState() {
        for number in [SIGINT, SIGTERM, SIGHUP] {
            signal(number, SIG_DFL)
        }
        var all = sigset_t()
        sigfillset(&all)
        sigprocmask(SIG_UNBLOCK, &all, nil)
        guard let folder = opendir("/proc/self/fd") else { return }
        var open: [Int32] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
            if let descriptor = Int32(name), descriptor > 2, descriptor != dirfd(folder) { open.append(descriptor) }
        }
        closedir(folder)
        for descriptor in open { close(descriptor) }
    }

    /// This executable's path (a replaced file's too: its path, where the new one now is).
    static func ownExecutable() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        let path = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let deleted = " (deleted)"
        return path.hasSuffix(deleted) ? String(path.dropLast(deleted.count)) : path
    }

    /// Replaces this process with `program` run with `arguments`; returns 1 when that fails.
    static func execute(_ program: String, _ arguments: [String]) -> Int32 {
        let words = ([program] + arguments).map { strdup($0) }
        defer { words.forEach { free($0) } }
        _ = execv(program, words + [nil])
        return fail("cannot start the agent again (\(TerminalText.singleLine(program))): \(String(cString: strerror(errno)))")
    }

    /// Prints `message` on standard error and returns 1.
    static func fail(_ message: String) -> Int32 {
        Terminal.error("notify agent --wait-until: \(TerminalText.singleLine(message))\n")
        return 1
    }

    // MARK: - The bus

    /// A private connection to the session bus that receives the changes of the agent's
    /// name's owner.
    static func connect() -> Result<OpaquePointer, WaitFailure> {
        let address: String
        do {
            address = try DBusBus.session.resolveAddress()
        } catch {
            return .failure(WaitFailure("no session bus: \(error)"))
        }
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        func described(_ what: String) -> WaitFailure {
            let name = error.name.map { String(cString: $0) } ?? "unknown"
            let message = error.message.map { String(cString: $0) } ?? ""
            return WaitFailure("\(what): \(name): \(message)")
        }
        guard let connection = dbus_connection_open_private(address, &error) else {
            return .failure(described("cannot connect to the session bus"))
        }
        dbus_connection_set_exit_on_disconnect(connection, 0)
        func closed(_ what: String) -> Result<OpaquePointer, WaitFailure> {
            dbus_connection_close(connection)
            dbus_connection_unref(connection)
            return .failure(described(what))
        }
        guard dbus_bus_register(connection, &error) != 0, dbus_error_is_set(&error) == 0 else {
            return closed("cannot register on the session bus")
        }
        let rule = DBusMatchRule(
            sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus", member: "NameOwnerChanged",
            arguments: [0: AgentInterface.busName])
        dbus_bus_add_match(connection, rule.text, &error)
        guard dbus_error_is_set(&error) == 0 else { return closed("cannot follow \(AgentInterface.busName)") }
        return .success(connection)
    }

    /// Waits until `until`, until another process owns the agent's name (checked once the
    /// changes are followed, then on each change), or until the bus closes.
    static func wait(on connection: OpaquePointer, timer: inout Int32, until deadline: Date) -> Outcome {
        // An owner now is another agent, unless it is this process's own connection from before
        // it became the waiter, which the bus has not dropped yet (its release comes as a change
        // to no owner, which the loop below ignores).
        switch ownerProcess(on: connection) {
        case .failure(let failure):
            return .failed(failure.message)
        case .success(let owner?) where owner != UInt32(bitPattern: getpid()):
            return .replaced
        case .success:
            break
        }
        var busDescriptor: Int32 = -1
        guard dbus_connection_get_unix_fd(connection, &busDescriptor) != 0 else { return .failed("the bus connection has no descriptor") }
        while true {
            // What libdbus has read already (during the calls above too) comes first.
            while let message = dbus_connection_pop_message(connection) {
                defer { dbus_message_unref(message) }
                if dbus_message_is_signal(message, "org.freedesktop.DBus.Local", "Disconnected") != 0 { return .busClosed }
                if dbus_message_is_signal(message, "org.freedesktop.DBus", "NameOwnerChanged") != 0,
                   let owner = newOwner(in: message), !owner.isEmpty {
                    return .replaced
                }
                refuse(message, on: connection)
            }
            guard dbus_connection_get_is_connected(connection) != 0 else { return .busClosed }
            var descriptors = [
                pollfd(fd: busDescriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: timer, events: Int16(POLLIN), revents: 0),
            ]
            guard poll(&descriptors, 2, -1) >= 0 else {
                if errno == EINTR { continue }
                return .failed("poll: \(String(cString: strerror(errno)))")
            }
            if descriptors[0].revents != 0 {
                // Reads what came (taken at the top of the loop, before the timer: a new agent
                // that came at the same moment keeps the requests), or learns that the bus
                // closed (a Disconnected message).
                _ = dbus_connection_read_write(connection, 0)
                continue
            }
            if descriptors[1].revents != 0 {
                switch TimerDescriptor.readEvent(timer) {
                case .deadlineReached?:
                    // A last look: an agent that took the name since is the one to keep the times.
                    switch ownerProcess(on: connection) {
                    case .success(let owner?) where owner != UInt32(bitPattern: getpid()): return .replaced
                    case .success, .failure: return .due
                    }
                case .clockChanged?:
                    // The clock was set: the instant is the same, and a passed one rings at once.
                    close(timer)
                    guard let armed = TimerDescriptor.armed(at: deadline) else {
                        timer = -1
                        return .failed("the system refused a timer descriptor")
                    }
                    timer = armed
                case nil:
                    continue
                }
            }
        }
    }

    /// Answers a method call made to the waiter (it serves nothing) with an error, so that the
    /// caller does not wait out its timeout; anything else is dropped.
    static func refuse(_ message: OpaquePointer, on connection: OpaquePointer) {
        guard dbus_message_get_type(message) == 1 /* DBUS_MESSAGE_TYPE_METHOD_CALL */, dbus_message_get_no_reply(message) == 0,
              let error = dbus_message_new_error(message, "org.freedesktop.DBus.Error.UnknownObject", "the agent's waiter serves nothing")
        else { return }
        _ = dbus_connection_send(connection, error, nil)
        dbus_message_unref(error)
        dbus_connection_flush(connection)
    }

    /// The process ID of the agent name's owner (`GetConnectionUnixProcessID`); nil when the
    /// name has no owner.
    static func ownerProcess(on connection: OpaquePointer) -> Result<UInt32?, WaitFailure> {
        guard let call = dbus_message_new_method_call(
            "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetConnectionUnixProcessID") else {
            return .failure(WaitFailure("out of memory"))
        }
        defer { dbus_message_unref(call) }
        var arguments = DBusMessageIter()
        dbus_message_iter_init_append(call, &arguments)
        let appended = AgentInterface.busName.withCString { name in
            var pointer: UnsafePointer<CChar>? = name
            return dbus_message_iter_append_basic(&arguments, Int32(UInt8(ascii: "s")), &pointer)
        }
        guard appended != 0 else { return .failure(WaitFailure("out of memory")) }
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        guard let reply = dbus_connection_send_with_reply_and_block(connection, call, -1, &error) else {
            let name = error.name.map { String(cString: $0) } ?? ""
            if name == "org.freedesktop.DBus.Error.NameHasNoOwner" { return .success(nil) }
            return .failure(WaitFailure("cannot ask who owns \(AgentInterface.busName): \(name): \(error.message.map { String(cString: $0) } ?? "")"))
        }
        defer { dbus_message_unref(reply) }
        var iterator = DBusMessageIter()
        guard dbus_message_iter_init(reply, &iterator) != 0, dbus_message_iter_get_arg_type(&iterator) == Int32(UInt8(ascii: "u")) else {
            return .failure(WaitFailure("GetConnectionUnixProcessID answered without a process ID"))
        }
        var pid: UInt32 = 0
        dbus_message_iter_get_basic(&iterator, &pid)
        return .success(pid)
    }

    /// The third argument of a `NameOwnerChanged` signal (the new owner), when it has the
    /// signal's signature.
    static func newOwner(in message: OpaquePointer) -> String? {
        guard let signature = dbus_message_get_signature(message), String(cString: signature) == "sss" else { return nil }
        var iterator = DBusMessageIter()
        guard dbus_message_iter_init(message, &iterator) != 0 else { return nil }
        // The name, the old owner, then the new owner.
        guard dbus_message_iter_next(&iterator) != 0, dbus_message_iter_next(&iterator) != 0 else { return nil }
        var text: UnsafePointer<CChar>?
        dbus_message_iter_get_basic(&iterator, &text)
        return text.map { String(cString: $0) }
    }
}

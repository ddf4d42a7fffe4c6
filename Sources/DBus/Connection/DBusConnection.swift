import CDBus
import DesktopNotificationsSupport

/// A private connection to a D-Bus bus.
///
/// Each connection owns its own libdbus connection (never libdbus's shared one, which would
/// exit the process when the bus goes away) and one serial executor: all of its I/O, reply
/// matching, signal routing and exported-object calls happen there, driven by libdbus's watch
/// and timeout callbacks, so an idle connection makes no wake-ups.
///
/// When the bus goes away, pending calls fail with ``DBusError/disconnected``, subscriptions
/// receive ``DBusSignalEvent/disconnected`` and end, and the process goes on; connect again
/// to continue. Dropping the last reference closes the connection.
public final class DBusConnection: Sendable {
    let core: ConnectionCore
    /// The unique name the bus gave this connection, e.g. `:1.42`.
    public let uniqueName: String
    /// The deadline for calls that name none.
    public let defaultTimeout: Duration
    /// Whether the connection can pass Unix file descriptors (``DBusValue/unixFileDescriptor(_:)``):
    /// a Unix socket transport whose peer agreed to them at authentication. Where it cannot
    /// (a TCP transport), sending a message with descriptors fails with
    /// ``DBusError/fileDescriptorsNotSupported``.
    public let canSendFileDescriptors: Bool

    private init(core: ConnectionCore, uniqueName: String, defaultTimeout: Duration, canSendFileDescriptors: Bool) {
        self.core = core
        self.uniqueName = uniqueName
        self.defaultTimeout = defaultTimeout
        self.canSendFileDescriptors = canSendFileDescriptors
    }

    deinit {
        // Never inline: the last reference may go inside a handler the connection is running.
        let core = self.core
        core.queue.async { core.shutdown() }
    }

    /// Connects to `bus`, authenticates and registers with the bus.
    ///
    /// - Parameters:
    ///   - bus: the session bus, the system bus, or a bus at an address.
    ///   - timeout: the default deadline of every call on this connection, including the
    ///     registration itself (libdbus's own default is 25 seconds; ours is 5).
    /// - Throws: ``DBusError/noBusAddress(_:)``, ``DBusError/connectionFailed(name:message:)``
    ///   (also when the process has no descriptor or thread left for the I/O thread),
    ///   ``DBusError/timedOut(member:after:)``.
    public static func connect(to bus: DBusBus = .session, timeout: Duration = .seconds(5)) async throws -> DBusConnection {
        let address = try bus.resolveAddress()
        try DBusNames.validateString(address)
        DBusLibrary.prepare()
        let loop = try DescriptorLoop.start()
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        guard let raw = dbus_connection_open_private(address, &error) else {
            let failure = takeError(&error, fallback: "could not open \(address)")
            if case .rejected(let name, let message) = failure { throw DBusError.connectionFailed(name: name, message: message) }
            throw failure
        }
        let core = ConnectionCore(raw: raw, label: "DBusConnection \(address)", loop: loop)
        core.perform { core.attachMainLoop() }
        do {
            let hello = try core.busCall("Hello", [])
            let reply = try await core.call(hello, timeout: timeout)
            guard let name = try reply.arguments("s").first?.stringValue else { throw DBusError.malformed("Hello reply") }
            var canPassDescriptors = false
            core.performNow {
                guard let raw = core.raw else { return }
                _ = dbus_bus_set_unique_name(raw, name)
                canPassDescriptors = core.canPassDescriptors(raw)
            }
            return DBusConnection(
                core: core, uniqueName: name, defaultTimeout: timeout, canSendFileDescriptors: canPassDescriptors)
        } catch {
            core.perform { core.shutdown() }
            throw error
        }
    }

    /// Whether the connection is still open.
    public var isConnected: Bool { core.isOpen }

    /// Closes the connection: pending calls fail with ``DBusError/disconnected``.
    public func close() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            core.perform { [core] in
                core.shutdown()
                continuation.resume()
            }
        }
    }

    /// Runs `handler` once when the connection closes (at once if it already has), on the
    /// connection's executor.
    public func onDisconnect(_ handler: @escaping @Sendable () -> Void) {
        core.perform { [core] in
            if core.isOpen { core.disconnectHandlers.append(handler) } else { handler() }
        }
    }

    /// Runs `wakeUp` once the connection's executor is free again, when called from a handler
    /// or completion that the connection runs for what it has just read; at once otherwise.
    ///
    /// For a handler that wakes a task which will use the connection next (a caller waiting
    /// for its reply): woken at once, the task would find the executor still busy with the
    /// read and wait for it.
    package static func afterHandling(_ wakeUp: @escaping @Sendable () -> Void) {
        DescriptorLoop.afterReport(wakeUp)
    }

    // MARK: - Calls

    /// Calls a method and waits for its reply, at most `timeout` (default ``defaultTimeout``).
    ///
    /// - Returns: the method return message.
    /// - Throws: ``DBusError/remote(name:message:)`` for an error reply,
    ///   ``DBusError/timedOut(member:after:)``, ``DBusError/disconnected``,
    ///   ``DBusError/cancelled``, or a marshalling error before anything is sent.
    public func call(_ message: DBusMessage, timeout: Duration? = nil) async throws -> DBusMessage {
        try await core.call(message, timeout: timeout ?? defaultTimeout)
    }

    /// Sends a call and hands its outcome to `completion` on the connection's executor, in the
    /// order the socket gave it among the signals: the path for a caller that keeps replies and
    /// signals in one ordered channel. `completion` runs exactly once (a marshalling failure
    /// runs it at once, on the calling thread).
    package func startCall(
        _ message: DBusMessage, timeout: Duration? = nil,
        completion: @escaping @Sendable (Result<DBusMessage, DBusError>) -> Void
    ) {
        let outgoing: OutgoingMessage
        do {
            outgoing = try message.outgoing()
        } catch {
            return completion(.failure(error))
        }
        let member = message.member ?? "method"
        let timeout = timeout ?? defaultTimeout
        core.performNow { [core] in core.startCall(outgoing, member: member, timeout: timeout, complete: completion) }
    }

    /// Sends a message that expects no reply (a signal, or a call flagged
    /// ``DBusMessage/Flags/noReplyExpected``). Messages sent from one thread leave in order.
    ///
    /// - Throws: a marshalling error, ``DBusError/fileDescriptorsNotSupported`` for a message
    ///   with descriptors on a connection that cannot pass them, or ``DBusError/disconnected``
    ///   when the connection is known to be closed. Delivery is not confirmed, as with any
    ///   D-Bus message without reply.
    public func send(_ message: DBusMessage) throws {
        guard core.isOpen else { throw DBusError.disconnected }
        let outgoing = try message.outgoing()
        if outgoing.carriesDescriptors, !canSendFileDescriptors { throw DBusError.fileDescriptorsNotSupported }
        core.perform { [core] in
            do throws(DBusError) {
                try core.transmit(outgoing, serial: core.allocateSerial())
            } catch {
                SubsystemLog.dbus.logger.info(
                    "a message was not sent", metadata: ["member": "\(message.member ?? "")", "error": "\(SubsystemLog.clean(error.description))"])
            }
        }
    }

    /// Calls a method of the bus daemon (`org.freedesktop.DBus`).
    public func callBus(_ member: String, _ body: [DBusValue] = [], timeout: Duration? = nil) async throws -> DBusMessage {
        try await call(core.busCall(member, body), timeout: timeout)
    }
}

/// One-time libdbus set-up.
enum DBusLibrary {
    private static let threadsReady: Bool = {
        dbus_threads_init_default() != 0
    }()

    static func prepare() {
        _ = threadsReady
    }
}

import CDBus
import DesktopNotificationsSupport
import Dispatch

/// The state of one libdbus connection, confined to one serial queue.
///
/// Every libdbus call and every field here is touched only on `queue` (the connection's serial
/// executor); libdbus's callbacks arrive there too, because they are made from inside calls we
/// make there. That confinement is why the type is `@unchecked Sendable`.
final class ConnectionCore: @unchecked Sendable {
    let queue: DispatchQueue
    /// The process's I/O thread, which watches the connection's socket.
    let loop: DescriptorLoop
    private let queueKey = DispatchSpecificKey<ObjectIdentifier>()
    private(set) var raw: OpaquePointer?
    let openFlag = OpenFlag()

    /// The calls waiting for their replies, by serial, with their deadlines: one timer, on
    /// ``queue``, fails the calls whose deadline passed (``DeadlineTimer``, as the center's
    /// answer deadlines are served).
    let pendingCalls: DeadlineTimer<UInt32, PendingCall>
    private var nextSerial: UInt32 = 0x4000_0000

    var subscriptions: [UInt64: SignalSubscription] = [:]
    var trackedNames: [String: TrackedName] = [:]
    var exports: [String: DBusExportedObject] = [:]
    var disconnectHandlers: [@Sendable () -> Void] = []
    var descriptors: [Int32: DescriptorWatches] = [:]
    /// Test hook: the wire bytes of every message decoded so far, which `IncomingBodyTests`
    /// reads (on ``queue``) to show that a message nobody here wants is passed on without its
    /// body ever being decoded; nothing in the product reads it. It stays here because only
    /// the decoder can count: one integer addition per decoded message, next to the copy and
    /// decoding of its bytes.
    var decodedByteCount = 0

    private var dispatchScheduled = false
    private var isDispatching = false
    /// True while a descriptor report hands libdbus its conditions; the report dispatches
    /// when it ends (``descriptorReady``).
    var isHandlingReport = false

    init(raw: OpaquePointer, label: String, loop: DescriptorLoop) {
        self.raw = raw
        self.loop = loop
        self.queue = DispatchQueue(label: label)
        pendingCalls = DeadlineTimer(queue: queue) { expired in
            for call in expired { call.complete(.failure(.timedOut(member: call.member, after: call.timeout))) }
        }
        queue.setSpecific(key: queueKey, value: ObjectIdentifier(self))
    }

    /// Whether the caller runs on ``queue`` (in a work item of it, a `sync` onto it, or a
    /// queue that targets it): the confinement this type's `Sendable` conformance rests on.
    func isOnQueue() -> Bool {
        DispatchQueue.getSpecific(key: queueKey) == ObjectIdentifier(self)
    }

    /// Stops a debug build when called off ``queue``: the confinement is checked, not only
    /// stated, at each entry point that touches libdbus or the fields.
    ///
    /// Debug builds only (every test run): `assert` does not evaluate its condition in an
    /// optimised build, so the hot path of a release build pays nothing. The stronger
    /// `dispatchPrecondition` is not used: it is a `precondition`, kept in release builds, and
    /// each check is a call into libdispatch, several per message.
    @inline(__always)
    func assertOnQueue(file: StaticString = #fileID, line: UInt = #line) {
        assert(isOnQueue(), "ConnectionCore touched off its queue", file: file, line: line)
    }

    /// Runs `work` on the queue: at once when already there (keeping order with what the
    /// caller does next), else as the next item.
    func perform(_ work: @escaping @Sendable () -> Void) {
        if isOnQueue() { work() } else { queue.async(execute: work) }
    }

    /// Runs `work` on the queue and returns when it has run. On an idle queue it runs on the
    /// calling thread, with no thread switch: the fast path of a call.
    func performNow(_ work: () -> Void) {
        if isOnQueue() { work() } else { queue.sync(execute: work) }
    }

    var isOpen: Bool { openFlag.isOpen }

    func allocateSerial() -> UInt32 {
        assertOnQueue()
        let serial = nextSerial
        nextSerial = nextSerial == UInt32.max ? 0x4000_0000 : nextSerial + 1
        return serial
    }

    /// Hands a message to libdbus with `serial`; libdbus writes it at once when the socket allows.
    ///
    /// - Throws: ``DBusError/disconnected``; ``DBusError/fileDescriptorsNotSupported`` for a
    ///   message with descriptors when the connection cannot pass them (nothing is duplicated);
    ///   the errors of building the message.
    func transmit(_ outgoing: OutgoingMessage, serial: UInt32) throws(DBusError) {
        assertOnQueue()
        guard let raw, isOpen else { throw .disconnected }
        let message: OpaquePointer
        switch outgoing {
        case .wire(let bytes):
            message = try Self.demarshal(bytes, serial: serial)
        case .carryingDescriptors(let value):
            guard canPassDescriptors(raw) else { throw .fileDescriptorsNotSupported }
            message = try value.makeLibdbusMessage(serial: serial)
        }
        defer { dbus_message_unref(message) }
        guard dbus_connection_send(raw, message, nil) != 0 else {
            throw .rejected(name: "org.freedesktop.DBus.Error.NoMemory", message: "libdbus could not queue the message")
        }
    }

    /// Whether the connection passes Unix file descriptors (known once it is authenticated).
    func canPassDescriptors(_ raw: OpaquePointer) -> Bool {
        assertOnQueue()
        return dbus_connection_can_send_type(raw, Int32(Unicode.Scalar("h").value)) != 0
    }

    private static func demarshal(_ bytes: [UInt8], serial: UInt32) throws(DBusError) -> OpaquePointer {
        var patched = bytes
        withUnsafeBytes(of: serial.littleEndian) { value in
            for index in 0..<4 { patched[DBusMessage.serialOffset + index] = value[index] }
        }
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        let message = patched.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                dbus_message_demarshal(chars.baseAddress, Int32(chars.count), &error)
            }
        }
        guard let message else { throw takeError(&error, fallback: "the message was refused") }
        return message
    }

    /// Asks libdbus to dispatch what it has read, once, after the current work item (libdbus
    /// calls this from inside its own functions, where dispatching is not allowed).
    ///
    /// Not needed, and skipped, during a dispatch (which runs until libdbus has nothing left)
    /// or a descriptor report (which dispatches when it ends): a work item would cost a thread
    /// switch per message received.
    func scheduleDispatch() {
        assertOnQueue()
        guard !dispatchScheduled, !isDispatching, !isHandlingReport else { return }
        dispatchScheduled = true
        queue.async { [self] in dispatchNow() }
    }

    /// Dispatches what libdbus has read; on the queue, outside any libdbus call.
    func dispatchNow() {
        assertOnQueue()
        dispatchScheduled = false
        guard let raw, !isDispatching else { return }
        isDispatching = true
        defer { isDispatching = false }
        while dbus_connection_dispatch(raw) == DBUS_DISPATCH_DATA_REMAINS {}
    }

    /// Closes the connection and lets go of libdbus; idempotent. From inside a dispatch (a
    /// handler dropped the last reference to the connection) it waits for the dispatch to end:
    /// libdbus must not lose the connection under its own feet.
    func shutdown() {
        assertOnQueue()
        guard let raw else { return }
        if isDispatching {
            queue.async { [self] in shutdown() }
            return
        }
        if isOpen {
            dbus_connection_close(raw)
            handleDisconnect()
        }
        detachMainLoop(from: raw)
        dbus_connection_unref(raw)
        self.raw = nil
    }

    /// Fails every pending call, ends every subscription, tells whoever asked.
    func handleDisconnect() {
        assertOnQueue()
        guard openFlag.close() else { return }
        let calls = pendingCalls.removeAll()
        for call in calls { call.complete(.failure(.disconnected)) }
        let ended = subscriptions
        subscriptions = [:]
        trackedNames = [:]
        // Exported objects often hold their connection: keeping them would keep both alive.
        exports = [:]
        for id in ended.keys.sorted() { ended[id]?.deliver(.disconnected) }
        let handlers = disconnectHandlers
        disconnectHandlers = []
        for handler in handlers { handler() }
    }
}

func takeError(_ error: inout CDBus.DBusError, fallback: String) -> DBusError {
    defer { dbus_error_free(&error) }
    guard dbus_error_is_set(&error) != 0 else { return .rejected(name: "", message: fallback) }
    let name = error.name.map { String(cString: $0) } ?? ""
    let message = error.message.map { String(cString: $0) } ?? fallback
    return .rejected(name: name, message: message)
}

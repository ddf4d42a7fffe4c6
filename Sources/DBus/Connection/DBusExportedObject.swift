import Synchronization

/// An object this connection serves at a path, with the interfaces it implements.
public struct DBusExportedObject: Sendable {
    public let path: DBusObjectPath
    public let interfaces: [DBusExportedInterface]

    /// Creates an object description.
    public init(path: DBusObjectPath, interfaces: [DBusExportedInterface]) {
        self.path = path
        self.interfaces = interfaces
    }
}

/// One interface of an exported object.
public struct DBusExportedInterface: Sendable {
    /// The interface name, e.g. `org.freedesktop.Notifications`.
    public let name: String
    /// The `<interface>` element of the introspection XML for this interface.
    public let introspectionXML: String
    /// Called on the connection's executor for each method call, in arrival order. It must
    /// not block: answer through the invocation at once or later, from any thread.
    public let handler: @Sendable (DBusMethodInvocation) -> Void

    /// Describes an interface. Throws for an invalid interface name.
    public init(
        name: String, introspectionXML: String, handler: @escaping @Sendable (DBusMethodInvocation) -> Void
    ) throws(DBusError) {
        guard DBusNames.isValidInterfaceName(name) else { throw .invalidInterfaceName(name) }
        self.name = name
        self.introspectionXML = introspectionXML
        self.handler = handler
    }
}

/// A method call received by an exported object, answered once with ``reply(_:)`` or
/// ``fail(name:message:)``. Later answers are ignored. An invocation never answered leaves
/// the caller to its own timeout, which is how a test server plays a hanging peer.
///
/// An answer is written from the answering thread, as a call is: at once when the
/// connection's executor is idle, else after the work it is doing. So do not answer while
/// holding a lock that the connection's handlers take: the two would wait for each other.
public final class DBusMethodInvocation: Sendable {
    /// The call, with its sender and serial.
    public let message: DBusMessage
    private let core: ConnectionCore
    private let answered = Atomic<Bool>(false)

    init(message: DBusMessage, core: ConnectionCore) {
        self.message = message
        self.core = core
    }

    /// Replies with `body`. A body that cannot be marshalled becomes an error reply naming
    /// the problem, so the caller is never left without an answer.
    public func reply(_ body: [DBusValue] = []) {
        answer { .methodReturn(replyingTo: $0, body: body) }
    }

    /// Replies with the D-Bus error `name`.
    public func fail(name: String, message text: String) {
        answer { call in
            do throws(DBusError) {
                return try .error(replyingTo: call, name: name, message: text)
            } catch {
                return try? .error(replyingTo: call, name: "org.freedesktop.DBus.Error.Failed", message: error.description)
            }
        }
    }

    /// Sends the reply `make` builds for the call; one that cannot be marshalled or sent
    /// (descriptors on a connection that cannot pass them) is replaced by an error reply naming
    /// the problem. A later answer, or one to a call that expects none, is not built at all.
    private func answer(_ make: (DBusMessage) -> DBusMessage?) {
        guard !answered.exchange(true, ordering: .acquiringAndReleasing) else { return }
        guard !message.flags.contains(.noReplyExpected), let reply = make(message) else { return }
        let call = message
        let outgoing: OutgoingMessage
        do {
            outgoing = try reply.outgoing()
        } catch {
            guard let fallback = Self.failure(error, replyingTo: call) else { return }
            outgoing = fallback
        }
        // On the calling thread when the connection's executor is idle: a reply sent from a
        // task costs no thread switch (through the queue it cost a worker thread's wake-up).
        core.performNow { [core] in
            do throws(DBusError) {
                try core.transmit(outgoing, serial: core.allocateSerial())
            } catch {
                guard let fallback = Self.failure(error, replyingTo: call) else { return }
                try? core.transmit(fallback, serial: core.allocateSerial())
            }
        }
    }

    private static func failure(_ error: DBusError, replyingTo call: DBusMessage) -> OutgoingMessage? {
        try? DBusMessage.error(replyingTo: call, name: "org.freedesktop.DBus.Error.Failed", message: error.description).outgoing()
    }
}

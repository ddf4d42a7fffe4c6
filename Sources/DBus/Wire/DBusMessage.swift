/// One D-Bus message: a method call, a method return, an error or a signal.
///
/// Messages are plain values. Building one checks names and paths; marshalling checks every
/// value against its type; so whatever reaches libdbus is already well formed. A message with
/// `h` values holds their descriptors (``DBusFileDescriptor``), open while any copy of it lives.
public struct DBusMessage: Sendable, Hashable {
    /// The four message types of the spec, with their wire codes.
    public enum Kind: UInt8, Sendable {
        case methodCall = 1
        case methodReturn = 2
        case error = 3
        case signal = 4
    }

    /// Header flags.
    public struct Flags: OptionSet, Sendable, Hashable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// The caller does not want a reply.
        public static let noReplyExpected = Flags(rawValue: 0x1)
        /// The bus must not start a service to deliver the message.
        public static let noAutoStart = Flags(rawValue: 0x2)
        /// The caller is prepared to wait for interactive authorization.
        public static let allowInteractiveAuthorization = Flags(rawValue: 0x4)
    }

    public var kind: Kind
    public var flags: Flags
    /// The serial the message was sent with (0 until sent).
    public var serial: UInt32
    public var replySerial: UInt32?
    public var path: DBusObjectPath?
    public var interface: String?
    public var member: String?
    public var errorName: String?
    public var destination: String?
    /// The unique name of the sender, set by the bus on received messages.
    public var sender: String?
    /// The body's values, in order.
    public var body: [DBusValue]

    init(kind: Kind, flags: Flags = [], body: [DBusValue] = []) {
        self.kind = kind
        self.flags = flags
        self.serial = 0
        self.body = body
    }

    /// The signature of the body, e.g. `susssasa{sv}i`.
    public var bodySignature: String {
        var text = ""
        for value in body { value.type.appendSignature(to: &text) }
        return text
    }
}

// MARK: - Building

extension DBusMessage {
    /// A method call. Names are validated here.
    public static func methodCall(
        destination: String?, path: DBusObjectPath, interface: String?, member: String,
        body: [DBusValue] = [], flags: Flags = []
    ) throws(DBusError) -> DBusMessage {
        if let destination { guard DBusNames.isValidBusName(destination) else { throw .invalidBusName(destination) } }
        if let interface { guard DBusNames.isValidInterfaceName(interface) else { throw .invalidInterfaceName(interface) } }
        guard DBusNames.isValidMemberName(member) else { throw .invalidMemberName(member) }
        var message = DBusMessage(kind: .methodCall, flags: flags, body: body)
        message.destination = destination
        message.path = path
        message.interface = interface
        message.member = member
        return message
    }

    /// A signal, broadcast or (with `destination`) sent to one connection.
    public static func signal(
        path: DBusObjectPath, interface: String, member: String, body: [DBusValue] = [],
        destination: String? = nil
    ) throws(DBusError) -> DBusMessage {
        guard DBusNames.isValidInterfaceName(interface) else { throw .invalidInterfaceName(interface) }
        guard DBusNames.isValidMemberName(member) else { throw .invalidMemberName(member) }
        if let destination { guard DBusNames.isValidBusName(destination) else { throw .invalidBusName(destination) } }
        var message = DBusMessage(kind: .signal, body: body)
        message.path = path
        message.interface = interface
        message.member = member
        message.destination = destination
        return message
    }

    /// The successful reply to `call`.
    public static func methodReturn(replyingTo call: DBusMessage, body: [DBusValue] = []) -> DBusMessage {
        var message = DBusMessage(kind: .methodReturn, flags: .noReplyExpected, body: body)
        message.replySerial = call.serial
        message.destination = call.sender
        return message
    }

    /// An error reply to `call`.
    public static func error(
        replyingTo call: DBusMessage, name: String, message text: String
    ) throws(DBusError) -> DBusMessage {
        guard DBusNames.isValidInterfaceName(name) else { throw .invalidErrorName(name) }
        var message = DBusMessage(kind: .error, flags: .noReplyExpected, body: [.string(text)])
        message.replySerial = call.serial
        message.destination = call.sender
        message.errorName = name
        return message
    }
}

// MARK: - Reading the body

extension DBusMessage {
    /// The body, after checking that its signature is exactly `signature`.
    ///
    /// - Throws: ``DBusError/unexpectedSignature(expected:found:)``.
    public func arguments(_ signature: String) throws(DBusError) -> [DBusValue] {
        let found = bodySignature
        guard found == signature else { throw .unexpectedSignature(expected: signature, found: found) }
        return body
    }

    /// The text of an error message's first argument, when it is a string.
    public var errorText: String {
        body.first?.stringValue ?? ""
    }
}

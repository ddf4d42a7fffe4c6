/// Why a method call to an object was not read: its interface has no such method, or its
/// arguments do not have the method's signature. The generated `Call` readers
/// (`dbus/*.xml`) throw it; ``DBusMethodInvocation/fail(_:)`` answers with it.
public enum DBusCallRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    /// `interface` has no method `member`.
    case unknownMethod(interface: String, member: String)
    /// `member` takes arguments of signature `expected`; the call's are `found`.
    case invalidArguments(member: String, expected: String, found: String)

    /// The D-Bus error name a server answers with: `org.freedesktop.DBus.Error.UnknownMethod`
    /// or `org.freedesktop.DBus.Error.InvalidArgs`.
    public var errorName: String {
        switch self {
        case .unknownMethod: "org.freedesktop.DBus.Error.UnknownMethod"
        case .invalidArguments: "org.freedesktop.DBus.Error.InvalidArgs"
        }
    }

    public var description: String {
        switch self {
        case .unknownMethod(let interface, let member): "\(interface) has no method \(member)"
        case .invalidArguments(let member, let expected, let found): "\(member) takes (\(expected)), not (\(found))"
        }
    }
}

extension DBusMethodInvocation {
    /// Answers with the error `refusal` names (``DBusCallRefusal/errorName``), its description
    /// as the message.
    public func fail(_ refusal: DBusCallRefusal) {
        fail(name: refusal.errorName, message: refusal.description)
    }
}

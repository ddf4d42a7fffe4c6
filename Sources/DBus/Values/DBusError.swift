/// Every failure of the D-Bus layer, typed, with what a person needs to fix the cause.
public enum DBusError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No bus address could be found (for example `DBUS_SESSION_BUS_ADDRESS` is unset and there
    /// is no `$XDG_RUNTIME_DIR/bus`).
    case noBusAddress(String)
    /// Connecting or authenticating to the bus failed.
    case connectionFailed(name: String, message: String)
    /// The connection is closed or the bus went away; pending calls fail with this.
    case disconnected
    /// The task that waited for the reply was cancelled.
    case cancelled
    /// No reply came before the call's deadline.
    case timedOut(member: String, after: Duration)
    /// The peer answered with a D-Bus error.
    case remote(name: String, message: String)
    /// A string holds a NUL character, which D-Bus strings cannot carry.
    case invalidString(String, reason: String)
    case invalidObjectPath(String)
    case invalidSignature(String, reason: String)
    case invalidBusName(String)
    case invalidInterfaceName(String)
    case invalidMemberName(String)
    case invalidErrorName(String)
    /// A value does not fit the type it is written as (for example an array element of
    /// another type than the array's element type).
    case typeMismatch(expected: String, found: String)
    /// A message's body does not have the signature the reader expects.
    case unexpectedSignature(expected: String, found: String)
    /// Bytes that are not a well-formed D-Bus message or value.
    case malformed(String)
    /// Containers nest deeper than the spec allows: 32 arrays and 32 structures within one
    /// signature, 64 containers in all, variants included.
    case nestingTooDeep
    /// A received message's body holds more values than one message may decode into (each
    /// value takes far more memory than its bytes on the wire); byte arrays count as one value.
    case tooManyValues(limit: Int)
    /// The message is larger than the limit (the spec's 128 MiB, or a lower configured one).
    case messageTooLarge(size: Int, limit: Int)
    /// libdbus refused the message or ran out of memory.
    case rejected(name: String, message: String)
    /// The message carries Unix file descriptors and the connection cannot pass them (its
    /// transport is not a Unix socket, or the peer did not agree to descriptors).
    case fileDescriptorsNotSupported
    /// A message holds more `h` values than one message may carry (a bus refuses more than 16
    /// descriptors per message by default, and disconnects whoever sends them).
    case tooManyFileDescriptors(limit: Int)
    /// A ``DBusFileDescriptor`` holds no descriptor (it was taken or closed), or the system
    /// could not duplicate it.
    case fileDescriptorUnavailable(String)

    public var description: String {
        switch self {
        case .noBusAddress(let detail): "no D-Bus address: \(detail)"
        case .connectionFailed(let name, let message): "could not connect to the bus (\(name)): \(message)"
        case .disconnected: "the D-Bus connection is closed"
        case .cancelled: "the call was cancelled"
        case .timedOut(let member, let after): "no reply to \(member) within \(after)"
        case .remote(let name, let message): "\(name): \(message)"
        case .invalidString(let text, let reason): "invalid string \(text.debugDescription): \(reason)"
        case .invalidObjectPath(let path): "invalid object path \(path.debugDescription)"
        case .invalidSignature(let signature, let reason): "invalid signature \(signature.debugDescription): \(reason)"
        case .invalidBusName(let name): "invalid bus name \(name.debugDescription)"
        case .invalidInterfaceName(let name): "invalid interface name \(name.debugDescription)"
        case .invalidMemberName(let name): "invalid member name \(name.debugDescription)"
        case .invalidErrorName(let name): "invalid error name \(name.debugDescription)"
        case .typeMismatch(let expected, let found): "value of type \(found) where \(expected) is required"
        case .unexpectedSignature(let expected, let found): "expected a body of signature \"\(expected)\", got \"\(found)\""
        case .malformed(let detail): "malformed D-Bus data: \(detail)"
        case .nestingTooDeep: "containers nest deeper than D-Bus allows (32 arrays and 32 structures per signature, 64 in all)"
        case .tooManyValues(let limit): "the message holds more than \(limit) values, the most one message may decode into"
        case .messageTooLarge(let size, let limit): "message of \(size) bytes exceeds the limit of \(limit) bytes"
        case .rejected(let name, let message): "libdbus refused the message (\(name)): \(message)"
        case .fileDescriptorsNotSupported: "the connection cannot pass Unix file descriptors"
        case .tooManyFileDescriptors(let limit): "the message holds more than \(limit) Unix file descriptors, the most one message may carry"
        case .fileDescriptorUnavailable(let reason): "the file descriptor is unavailable: \(reason)"
        }
    }

    /// The D-Bus error name of a ``remote(name:message:)`` error, else `nil`.
    public var remoteName: String? {
        if case .remote(let name, _) = self { name } else { nil }
    }
}

/// A message made ready for libdbus on the caller's thread: every value checked against its
/// type, the size and the descriptor count within their limits.
enum OutgoingMessage: Sendable {
    /// The marshalled bytes (serial 0), handed to libdbus as they are: the path of every
    /// message without descriptors.
    case wire([UInt8])
    /// A message whose body carries descriptors, built through libdbus's own API, the only way
    /// to attach descriptors to a libdbus message.
    case carryingDescriptors(DBusMessage)

    /// Whether the message carries Unix file descriptors.
    var carriesDescriptors: Bool {
        if case .carryingDescriptors = self { true } else { false }
    }
}

extension DBusMessage {
    /// The message made ready to send.
    ///
    /// - Throws: the errors of ``marshal(serial:limit:)``.
    func outgoing() throws(DBusError) -> OutgoingMessage {
        let marshalled = try marshalWithDescriptors(serial: 0)
        return marshalled.descriptors.isEmpty ? .wire(marshalled.bytes) : .carryingDescriptors(self)
    }
}

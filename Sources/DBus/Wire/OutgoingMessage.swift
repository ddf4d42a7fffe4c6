/// A message made ready for libdbus on the caller's thread: every value checked against its
/// type, the size and the descriptor count within their limits.
enum OutgoingMessage: Sendable {
    /// The marshalled bytes (serial 0), handed to libdbus as they are: the path of every
    /// message without descriptors.
    ///
    /// libdbus checks them again as it takes them (`dbus_message_demarshal`), about 35,000
    /// instructions of a notification's `Notify` in the un-seq bench row. Building the same
    /// message through libdbus's append iterators instead (``carryingDescriptors(_:)``'s way)
    /// was measured at about 245,000: the bytes are the cheaper of the two ways libdbus's API
    /// offers.
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

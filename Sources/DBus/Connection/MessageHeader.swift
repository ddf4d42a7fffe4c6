import CDBus

/// What a received message's header says: enough to decide whether anyone here wants the
/// message before its body is decoded, which costs far more memory than its bytes.
package struct MessageHeader {
    var kind: DBusMessage.Kind
    var sender: String?
    var path: DBusObjectPath?
    var interface: String?
    var member: String?
    var replySerial: UInt32?
    /// The body's signature, empty for no body.
    var signature: String
}

extension MessageHeader {
    /// The header of a message libdbus received (and validated), read through libdbus without
    /// touching the body; `nil` for a message type the spec does not define.
    package init?(received message: OpaquePointer) {
        guard let kind = DBusMessage.Kind(rawValue: UInt8(truncatingIfNeeded: dbus_message_get_type(message))) else {
            return nil
        }
        func text(_ field: UnsafePointer<CChar>?) -> String? { field.map { String(cString: $0) } }
        self.kind = kind
        sender = text(dbus_message_get_sender(message))
        path = text(dbus_message_get_path(message)).map(DBusObjectPath.init(unchecked:))
        interface = text(dbus_message_get_interface(message))
        member = text(dbus_message_get_member(message))
        let serial = dbus_message_get_reply_serial(message)
        replySerial = serial == 0 ? nil : serial
        signature = text(dbus_message_get_signature(message)) ?? ""
    }

    /// The header of a message at hand.
    init(_ message: DBusMessage) {
        kind = message.kind
        sender = message.sender
        path = message.path
        interface = message.interface
        member = message.member
        replySerial = message.replySerial
        signature = message.bodySignature
    }
}

import CDBus

extension DBusMessage {
    /// A message libdbus received, read once: its header as libdbus parsed and validated it
    /// (`header`, which routing read already, and the few fields routing does not need, through
    /// libdbus's getters), its body by ``WireReader`` from `bytes`, the message as
    /// `dbus_message_marshal` gives it, with the reader's bounds. The header's fields in `bytes`
    /// are not parsed again; only their length is read, to find the body.
    ///
    /// For a message that carries no descriptors (one that does is read whole by
    /// ``init(wire:resolveDescriptor:)``, which reads their count from the header).
    ///
    /// - Throws: ``DBusError/malformed(_:)`` for bytes whose lengths do not add up or a body
    ///   that does not match its signature, and the errors of the reader's bounds.
    package init(received header: MessageHeader, from message: OpaquePointer, bytes: [UInt8]) throws(DBusError) {
        let bigEndian = try Self.isBigEndian(bytes)
        var fixed = WireReader(bytes: bytes, bigEndian: bigEndian, start: 0, end: 16)
        _ = try fixed.read(UInt32.self)
        let bodyLength = Int(try fixed.read(UInt32.self))
        _ = try fixed.read(UInt32.self)
        let fieldsLength = Int(try fixed.read(UInt32.self))
        // The fields' array starts at 16; the body at the next multiple of 8 after it.
        let bodyStart = (16 + fieldsLength + 7) & ~7
        guard bodyStart <= bytes.count, bytes.count - bodyStart == bodyLength else { throw .malformed("body length does not match") }

        func text(_ field: UnsafePointer<CChar>?) -> String? { field.map { String(cString: $0) } }
        self.init(kind: header.kind, flags: Flags(rawValue: bytes[2]))
        serial = dbus_message_get_serial(message)
        replySerial = header.replySerial
        path = header.path
        interface = header.interface
        member = header.member
        errorName = text(dbus_message_get_error_name(message))
        destination = text(dbus_message_get_destination(message))
        sender = header.sender

        var reader = WireReader(bytes: bytes, bigEndian: bigEndian, start: bodyStart, end: bytes.count)
        let types = try DBusType.parseList(header.signature)
        body.reserveCapacity(types.count)
        for type in types { body.append(try reader.readValue(type)) }
        guard reader.position == bytes.count else { throw .malformed("body has bytes beyond its signature") }
    }
}

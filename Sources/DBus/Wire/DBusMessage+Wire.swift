// MARK: - Marshalling

/// The header field codes of the spec.
enum HeaderField: UInt8 {
    case path = 1, interface, member, errorName, replySerial, destination, sender, signature, unixFDs
}

extension DBusMessage {
    /// The offset of the serial in a marshalled message.
    static let serialOffset = 8

    /// The message in wire format (little-endian) with `serial`.
    ///
    /// - Throws: a ``DBusError`` for a value that does not fit its type, a NUL in a string,
    ///   a message over `limit` bytes.
    func marshal(serial: UInt32, limit: Int = WireLimits.maxMessageLength) throws(DBusError) -> [UInt8] {
        var bodyWriter = WireWriter(capacity: 256)
        var signature = ""
        for value in body {
            let type = value.type
            try type.validateAsSignature()
            type.appendSignature(to: &signature)
            try bodyWriter.append(value, as: type, depth: .top)
        }
        var writer = WireWriter(capacity: 128 + bodyWriter.bytes.count)
        writer.append(UInt8(ascii: "l"))
        writer.append(kind.rawValue)
        writer.append(flags.rawValue)
        writer.append(UInt8(1))
        writer.append(UInt32(bodyWriter.bytes.count))
        writer.append(serial)
        try writeHeaderFields(into: &writer, signature: signature)
        writer.pad(to: 8)
        var bytes = writer.bytes
        bytes.append(contentsOf: bodyWriter.bytes)
        guard bytes.count <= limit else { throw .messageTooLarge(size: bytes.count, limit: limit) }
        return bytes
    }

    private func writeHeaderFields(into writer: inout WireWriter, signature: String) throws(DBusError) {
        let array = writer.beginArray(elementAlignment: 8)
        func field(_ code: HeaderField, _ typeCode: String) throws(DBusError) {
            writer.pad(to: 8)
            writer.append(code.rawValue)
            try writer.appendSignature(typeCode)
        }
        if let path { try field(.path, "o"); try writer.appendString(path.rawValue) }
        if let interface { try field(.interface, "s"); try writer.appendString(interface) }
        if let member { try field(.member, "s"); try writer.appendString(member) }
        if let errorName { try field(.errorName, "s"); try writer.appendString(errorName) }
        if let replySerial { try field(.replySerial, "u"); writer.append(replySerial) }
        if let destination { try field(.destination, "s"); try writer.appendString(destination) }
        if let sender { try field(.sender, "s"); try writer.appendString(sender) }
        if !signature.isEmpty { try field(.signature, "g"); try writer.appendSignature(signature) }
        try writer.endArray(lengthAt: array.lengthAt, start: array.start)
    }

    /// Parses a whole marshalled message (either byte order).
    public init(wire bytes: [UInt8]) throws(DBusError) {
        guard bytes.count >= 16 else { throw .malformed("shorter than a message header") }
        let bigEndian: Bool
        switch bytes[0] {
        case UInt8(ascii: "l"): bigEndian = false
        case UInt8(ascii: "B"): bigEndian = true
        default: throw .malformed("unknown byte order \(bytes[0])")
        }
        guard let kind = Kind(rawValue: bytes[1]) else { throw .malformed("unknown message type \(bytes[1])") }
        var header = WireReader(bytes: bytes, bigEndian: bigEndian, start: 0, end: bytes.count)
        _ = try header.read(UInt32.self)
        let bodyLength = Int(try header.read(UInt32.self))
        let serial = try header.read(UInt32.self)
        let fieldType = DBusType.structure([.byte, .variant])
        let fields = try header.readValue(.array(fieldType))
        try header.skipPadding(to: 8)
        let bodyStart = header.position
        guard bodyStart + bodyLength == bytes.count else { throw .malformed("body length does not match") }

        self.init(kind: kind, flags: Flags(rawValue: bytes[2]))
        self.serial = serial
        var signature = ""
        if case .array(_, let entries) = fields {
            for entry in entries { try apply(field: entry, signature: &signature) }
        }
        var reader = WireReader(bytes: bytes, bigEndian: bigEndian, start: bodyStart, end: bytes.count)
        for type in try DBusType.parseList(signature) { body.append(try reader.readValue(type)) }
        guard reader.position == bytes.count else { throw .malformed("body has bytes beyond its signature") }
    }

    private mutating func apply(field entry: DBusValue, signature: inout String) throws(DBusError) {
        guard case .structure(let parts) = entry, parts.count == 2,
              case .byte(let code) = parts[0], case .variant(let value) = parts[1] else {
            throw .malformed("bad header field")
        }
        switch (HeaderField(rawValue: code), value) {
        case (.path, .objectPath(let path)): self.path = path
        case (.interface, .string(let text)): interface = text
        case (.member, .string(let text)): member = text
        case (.errorName, .string(let text)): errorName = text
        case (.replySerial, .uint32(let number)): replySerial = number
        case (.destination, .string(let text)): destination = text
        case (.sender, .string(let text)): sender = text
        case (.signature, .signature(let text)): signature = text.rawValue
        case (.unixFDs, _), (.none, _): break
        default: throw .malformed("header field \(code) has the wrong type")
        }
    }
}

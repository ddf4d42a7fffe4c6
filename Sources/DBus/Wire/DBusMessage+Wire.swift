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
    ///   a message over `limit` bytes, more than ``WireLimits/maxFileDescriptors`` descriptors.
    func marshal(serial: UInt32, limit: Int = WireLimits.maxMessageLength) throws(DBusError) -> [UInt8] {
        try marshalWithDescriptors(serial: serial, limit: limit).bytes
    }

    /// The message in wire format with `serial`, and the descriptors its `h` values index, in
    /// body order (the bytes' UNIX_FDS header field counts them).
    ///
    /// - Throws: as ``marshal(serial:limit:)``.
    func marshalWithDescriptors(
        serial: UInt32, limit: Int = WireLimits.maxMessageLength
    ) throws(DBusError) -> (bytes: [UInt8], descriptors: [DBusFileDescriptor]) {
        var bodyWriter = WireWriter(capacity: 256)
        var signature = ""
        for value in body {
            let type = value.type
            signature.append(try type.validatedSignature())
            try bodyWriter.append(value, as: type, depth: .top)
        }
        var writer = WireWriter(capacity: 128 + bodyWriter.bytes.count)
        writer.append(UInt8(ascii: "l"))
        writer.append(kind.rawValue)
        writer.append(flags.rawValue)
        writer.append(UInt8(1))
        writer.append(UInt32(bodyWriter.bytes.count))
        writer.append(serial)
        try writeHeaderFields(into: &writer, signature: signature, descriptorCount: bodyWriter.descriptors.count)
        writer.pad(to: 8)
        var bytes = writer.bytes
        bytes.append(contentsOf: bodyWriter.bytes)
        guard bytes.count <= limit else { throw .messageTooLarge(size: bytes.count, limit: limit) }
        return (bytes, bodyWriter.descriptors)
    }

    private func writeHeaderFields(into writer: inout WireWriter, signature: String, descriptorCount: Int) throws(DBusError) {
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
        if descriptorCount > 0 { try field(.unixFDs, "u"); writer.append(UInt32(descriptorCount)) }
        try writer.endArray(lengthAt: array.lengthAt, start: array.start)
    }

    /// Parses a whole marshalled message (either byte order).
    ///
    /// - Parameters:
    ///   - bytes: The message as it came off the wire, header and body.
    ///   - fileDescriptors: The descriptors the message carries, by index: an `h` value with
    ///     index `i` is `fileDescriptors[i]` (the same object for the same index).
    /// - Throws: ``DBusError/malformed(_:)`` for bad bytes or an index past the descriptors,
    ///   and the errors of the reader's bounds.
    public init(wire bytes: [UInt8], fileDescriptors: [DBusFileDescriptor] = []) throws(DBusError) {
        guard !fileDescriptors.isEmpty else {
            try self.init(wire: bytes, resolveDescriptor: WireReader.noDescriptors)
            return
        }
        try self.init(wire: bytes) { index throws(DBusError) in
            guard Int(index) < fileDescriptors.count else {
                throw .malformed("file descriptor \(index) of \(fileDescriptors.count) given")
            }
            return fileDescriptors[Int(index)]
        }
    }

    /// Whether the marshalled message `bytes` is big-endian, from its first byte.
    ///
    /// - Throws: ``DBusError/malformed(_:)`` for bytes shorter than the fixed header or an
    ///   unknown byte order.
    static func isBigEndian(_ bytes: [UInt8]) throws(DBusError) -> Bool {
        guard bytes.count >= 16 else { throw .malformed("shorter than a message header") }
        switch bytes[0] {
        case UInt8(ascii: "l"): return false
        case UInt8(ascii: "B"): return true
        default: throw .malformed("unknown byte order \(bytes[0])")
        }
    }

    /// Parses a whole marshalled message, asking `resolveDescriptor` for each `h` value's
    /// descriptor in body order, with an index below the message's UNIX_FDS header field.
    init(wire bytes: [UInt8], resolveDescriptor: @escaping WireReader.DescriptorResolver) throws(DBusError) {
        let bigEndian = try Self.isBigEndian(bytes)
        guard let kind = Kind(rawValue: bytes[1]) else { throw .malformed("unknown message type \(bytes[1])") }
        var header = WireReader(bytes: bytes, bigEndian: bigEndian, start: 0, end: bytes.count)
        _ = try header.read(UInt32.self)
        let bodyLength = Int(try header.read(UInt32.self))
        let serial = try header.read(UInt32.self)
        self.init(kind: kind, flags: Flags(rawValue: bytes[2]))
        self.serial = serial
        let (signature, descriptorCount) = try readHeaderFields(&header)
        try header.skipPadding(to: 8)
        let bodyStart = header.position
        guard bodyStart + bodyLength == bytes.count else { throw .malformed("body length does not match") }

        var reader = WireReader(
            bytes: bytes, bigEndian: bigEndian, start: bodyStart, end: bytes.count,
            descriptorCount: descriptorCount, resolveDescriptor: resolveDescriptor)
        let types = try DBusType.parseList(signature)
        body.reserveCapacity(types.count)
        for type in types { body.append(try reader.readValue(type)) }
        guard reader.position == bytes.count else { throw .malformed("body has bytes beyond its signature") }
    }

    /// Reads the header's array of `(byte, variant)` fields straight into the message, with
    /// no value tree in between; returns the body's signature and the number of descriptors
    /// the message carries.
    ///
    /// A field the spec names must carry its own type; one it does not name is read (with the
    /// same bounds as any value) and ignored.
    private mutating func readHeaderFields(_ reader: inout WireReader) throws(DBusError) -> (String, UInt32) {
        let fieldDepth = try NestingDepth.top.entering(.array).entering(.structure)
        var signature = ""
        var descriptorCount: UInt32 = 0
        try reader.readArray(elementAlignment: 8) { reader throws(DBusError) in
            try reader.skipPadding(to: 8)
            let code = try reader.readByte()
            let type = try reader.readSignature()
            switch (HeaderField(rawValue: code), type) {
            case (.path, "o"): path = try DBusObjectPath(try reader.readString())
            case (.interface, "s"): interface = try reader.readString()
            case (.member, "s"): member = try reader.readString()
            case (.errorName, "s"): errorName = try reader.readString()
            case (.replySerial, "u"): replySerial = try reader.read(UInt32.self)
            case (.destination, "s"): destination = try reader.readString()
            case (.sender, "s"): sender = try reader.readString()
            // Checked once, where the body is read by it.
            case (.signature, "g"): signature = try reader.readSignature()
            case (.unixFDs, "u"): descriptorCount = try reader.read(UInt32.self)
            case (.none, _):
                _ = try reader.readValue(try DBusType(parsing: type), depth: fieldDepth.entering(.variant))
            default:
                throw .malformed("header field \(code) has the wrong type")
            }
        }
        return (signature, descriptorCount)
    }
}

/// Marshals values into the D-Bus wire format (little-endian), walking each value beside its
/// declared type. Alignment is relative to the start of the buffer, so a body must be written
/// into its own writer and placed at an 8-aligned offset of the message.
///
/// An `h` value is written as the index of its descriptor in ``descriptors``, the message's
/// descriptors in body order, one per value.
struct WireWriter {
    private(set) var bytes: [UInt8]
    private(set) var descriptors: [DBusFileDescriptor] = []

    init(capacity: Int = 256) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    mutating func pad(to alignment: Int) {
        let remainder = bytes.count % alignment
        if remainder != 0 { bytes.append(contentsOf: repeatElement(0, count: alignment - remainder)) }
    }

    mutating func append<T: FixedWidthInteger>(_ value: T) {
        pad(to: MemoryLayout<T>.size)
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func appendString(_ text: String) throws(DBusError) {
        let utf8 = text.utf8
        let count = utf8.count
        append(UInt32(count))
        let start = bytes.count
        bytes.append(contentsOf: utf8)
        if bytes[start...].contains(0) {
            throw .invalidString(text, reason: "contains a NUL character")
        }
        bytes.append(0)
    }

    mutating func appendSignature(_ signature: String) throws(DBusError) {
        let utf8 = signature.utf8
        guard utf8.count <= 255 else { throw .invalidSignature(signature, reason: "longer than 255 bytes") }
        bytes.append(UInt8(utf8.count))
        bytes.append(contentsOf: utf8)
        bytes.append(0)
    }

    /// Writes a length placeholder for an array, pads to the element alignment and returns
    /// where the length goes and where the elements start.
    mutating func beginArray(elementAlignment: Int) -> (lengthAt: Int, start: Int) {
        append(UInt32(0))
        let lengthAt = bytes.count - 4
        pad(to: elementAlignment)
        return (lengthAt, bytes.count)
    }

    mutating func endArray(lengthAt: Int, start: Int) throws(DBusError) {
        let length = bytes.count - start
        guard length <= WireLimits.maxArrayLength else {
            throw .messageTooLarge(size: length, limit: WireLimits.maxArrayLength)
        }
        withUnsafeBytes(of: UInt32(length).littleEndian) { raw in
            for index in 0..<4 { bytes[lengthAt + index] = raw[index] }
        }
    }

    /// Writes `value` as `type`, `depth` containers deep.
    ///
    /// - Throws: ``DBusError/typeMismatch(expected:found:)``, ``DBusError/nestingTooDeep``, and
    ///   the errors of strings, signatures and array lengths.
    mutating func append(_ value: DBusValue, as type: DBusType, depth: NestingDepth) throws(DBusError) {
        switch (type, value) {
        case (.byte, .byte(let byte)): bytes.append(byte)
        case (.boolean, .boolean(let flag)): append(UInt32(flag ? 1 : 0))
        case (.int16, .int16(let number)): append(number)
        case (.uint16, .uint16(let number)): append(number)
        case (.int32, .int32(let number)): append(number)
        case (.uint32, .uint32(let number)): append(number)
        case (.int64, .int64(let number)): append(number)
        case (.uint64, .uint64(let number)): append(number)
        case (.double, .double(let number)): append(number.bitPattern)
        case (.string, .string(let text)): try appendString(text)
        case (.objectPath, .objectPath(let path)): try appendString(path.rawValue)
        case (.signature, .signature(let signature)): try appendSignature(signature.rawValue)
        case (.unixFileDescriptor, .unixFileDescriptor(let descriptor)): try appendDescriptor(descriptor)
        case (.array(.byte), .byteArray(let data)):
            _ = try depth.entering(.array)
            let array = beginArray(elementAlignment: 1)
            bytes.append(contentsOf: data)
            try endArray(lengthAt: array.lengthAt, start: array.start)
        case (.array(let elementType), .array(let declared, let elements)) where declared == elementType:
            let inner = try depth.entering(.array)
            let array = beginArray(elementAlignment: elementType.alignment)
            for element in elements { try append(element, as: elementType, depth: inner) }
            try endArray(lengthAt: array.lengthAt, start: array.start)
        case (.dictionary(let keyType, let valueType), .dictionary(let declaredKey, let declaredValue, let entries))
        where declaredKey == keyType && declaredValue == valueType:
            let inner = try depth.entering(.array)
            let array = beginArray(elementAlignment: 8)
            for entry in entries {
                pad(to: 8)
                try append(entry.key, as: keyType, depth: inner)
                try append(entry.value, as: valueType, depth: inner)
            }
            try endArray(lengthAt: array.lengthAt, start: array.start)
        case (.structure(let fieldTypes), .structure(let fields)) where fieldTypes.count == fields.count:
            let inner = try depth.entering(.structure)
            pad(to: 8)
            for (field, fieldType) in zip(fields, fieldTypes) { try append(field, as: fieldType, depth: inner) }
        case (.variant, .variant(let innerValue)):
            let innerType = innerValue.type
            try appendSignature(try innerType.validatedSignature())
            try append(innerValue, as: innerType, depth: depth.entering(.variant))
        default:
            throw .typeMismatch(expected: type.signature, found: value.type.signature)
        }
    }

    private mutating func appendDescriptor(_ descriptor: DBusFileDescriptor) throws(DBusError) {
        guard descriptors.count < WireLimits.maxFileDescriptors else {
            throw .tooManyFileDescriptors(limit: WireLimits.maxFileDescriptors)
        }
        guard descriptor.isOpen else { throw .fileDescriptorUnavailable("it was taken or closed") }
        append(UInt32(descriptors.count))
        descriptors.append(descriptor)
    }
}

/// Limits from the D-Bus specification, and our own on decoding.
enum WireLimits {
    static let maxArrayLength = 64 * 1024 * 1024
    static let maxMessageLength = 128 * 1024 * 1024
    /// The most values one received message may decode into. A value takes some fifty bytes
    /// of memory however few it takes on the wire (an `int32` takes four), so this, not the
    /// message size, bounds what a message costs; byte arrays are one value, kept as bytes.
    static let maxDecodedValues = 256 * 1024
    /// The most `h` values one message may carry, sent or received: what a bus accepts by
    /// default (libdbus's `DBUS_DEFAULT_MESSAGE_UNIX_FDS`; a bus disconnects a sender of more).
    /// Each received one is a descriptor of its own, so this also bounds what a peer can make
    /// this process open with one message.
    static let maxFileDescriptors = 16
}

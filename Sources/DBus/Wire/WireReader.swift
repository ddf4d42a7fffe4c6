#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Unmarshals values from D-Bus wire bytes of either byte order. Every read is bounds-checked:
/// bad bytes are ``DBusError/malformed(_:)``, never a crash; nesting and the number of values
/// decoded are bounded too.
///
/// An `h` value's index must be below the message's descriptor count; `resolveDescriptor`
/// gives the descriptor for it, asked in body order, at most
/// ``WireLimits/maxFileDescriptors`` times.
struct WireReader {
    typealias DescriptorResolver = (UInt32) throws(DBusError) -> DBusFileDescriptor

    private let bytes: [UInt8]
    private let bigEndian: Bool
    private let base: Int
    private(set) var position: Int
    let end: Int
    private let valueLimit: Int
    private var valuesLeft: Int
    private let descriptorCount: UInt32
    private let resolveDescriptor: DescriptorResolver
    private var descriptorsLeft = WireLimits.maxFileDescriptors

    init(
        bytes: [UInt8], bigEndian: Bool, start: Int, end: Int, valueLimit: Int = WireLimits.maxDecodedValues,
        descriptorCount: UInt32 = 0, resolveDescriptor: @escaping DescriptorResolver = WireReader.noDescriptors
    ) {
        self.bytes = bytes
        self.bigEndian = bigEndian
        self.base = start
        self.position = start
        self.end = end
        self.valueLimit = valueLimit
        self.valuesLeft = valueLimit
        self.descriptorCount = descriptorCount
        self.resolveDescriptor = resolveDescriptor
    }

    /// The resolver of a reader given no descriptors: any `h` is refused.
    static func noDescriptors(_ index: UInt32) throws(DBusError) -> DBusFileDescriptor {
        throw .malformed("file descriptor \(index), and no descriptors came with the message")
    }

    mutating func skipPadding(to alignment: Int) throws(DBusError) {
        let remainder = (position - base) % alignment
        if remainder == 0 { return }
        let target = position + alignment - remainder
        guard target <= end else { throw .malformed("padding runs past the end") }
        position = target
    }

    mutating func read<T: FixedWidthInteger>(_: T.Type = T.self) throws(DBusError) -> T {
        let size = MemoryLayout<T>.size
        try skipPadding(to: size)
        guard position + size <= end else { throw .malformed("value runs past the end") }
        var value = T.zero
        withUnsafeMutableBytes(of: &value) { raw in
            for index in 0..<size { raw[index] = bytes[position + index] }
        }
        position += size
        return bigEndian ? T(bigEndian: value) : T(littleEndian: value)
    }

    mutating func readByte() throws(DBusError) -> UInt8 {
        guard position < end else { throw .malformed("byte runs past the end") }
        defer { position += 1 }
        return bytes[position]
    }

    private mutating func readText(length: Int) throws(DBusError) -> String {
        guard length >= 0, position + length < end else { throw .malformed("string runs past the end") }
        guard bytes[position + length] == 0 else { throw .malformed("string is not NUL-terminated") }
        // Through the array's own storage: a generic scan of a slice costs about 100 ns a byte
        // in a debug build, so a 20 MB string held the connection's thread for seconds.
        // The text is NUL-terminated (checked above), so it is read as a C string: that
        // initializer is not generic, where `String(validating:as:)` is, and runs unspecialized
        // (its types' metadata looked up at each call, about 650 instructions a string). It
        // stops at the first NUL, so a string of another length held a NUL inside.
        let start = position
        let text: String? = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.advanced(by: start).withMemoryRebound(to: CChar.self, capacity: length + 1) { text in
                String(validatingCString: text)
            }
        }
        guard let text, text.utf8.count == length else {
            throw .malformed("string is not valid UTF-8 without NUL")
        }
        position += length + 1
        return text
    }

    mutating func readString() throws(DBusError) -> String {
        let length = try read(UInt32.self)
        return try readText(length: Int(length))
    }

    mutating func readSignature() throws(DBusError) -> String {
        let length = try readByte()
        return try readText(length: Int(length))
    }

    /// Reads one value of `type`, `depth` containers deep.
    ///
    /// - Throws: ``DBusError/malformed(_:)``, ``DBusError/nestingTooDeep``,
    ///   ``DBusError/tooManyValues(limit:)``.
    mutating func readValue(_ type: DBusType, depth: NestingDepth = .top) throws(DBusError) -> DBusValue {
        guard valuesLeft > 0 else { throw .tooManyValues(limit: valueLimit) }
        valuesLeft -= 1
        switch type {
        case .byte: return .byte(try readByte())
        case .boolean:
            let raw = try read(UInt32.self)
            guard raw <= 1 else { throw .malformed("boolean holds \(raw)") }
            return .boolean(raw == 1)
        case .int16: return .int16(try read())
        case .uint16: return .uint16(try read())
        case .int32: return .int32(try read())
        case .uint32: return .uint32(try read())
        case .int64: return .int64(try read())
        case .uint64: return .uint64(try read())
        case .double: return .double(Double(bitPattern: try read()))
        case .string: return .string(try readString())
        case .objectPath:
            let text = try readString()
            return .objectPath(try DBusObjectPath(text))
        case .signature: return .signature(try DBusSignature(try readSignature()))
        case .unixFileDescriptor: return .unixFileDescriptor(try readDescriptor())
        case .variant:
            let signature = try readSignature()
            let innerType = try DBusType(parsing: signature)
            return .variant(try readValue(innerType, depth: depth.entering(.variant)))
        case .array(.byte):
            _ = try depth.entering(.array)
            let length = Int(try read(UInt32.self))
            guard length <= WireLimits.maxArrayLength, position + length <= end else {
                throw .malformed("byte array runs past the end")
            }
            defer { position += length }
            return .byteArray(Array(bytes[position..<(position + length)]))
        case .array(let elementType):
            let inner = try depth.entering(.array)
            var elements: [DBusValue] = []
            try readArray(elementAlignment: elementType.alignment) { reader throws(DBusError) in
                elements.append(try reader.readValue(elementType, depth: inner))
            }
            return .array(element: elementType, elements)
        case .dictionary(let keyType, let valueType):
            let inner = try depth.entering(.array)
            var entries: [DBusDictionaryEntry] = []
            try readArray(elementAlignment: 8) { reader throws(DBusError) in
                try reader.skipPadding(to: 8)
                let key = try reader.readValue(keyType, depth: inner)
                let value = try reader.readValue(valueType, depth: inner)
                entries.append(DBusDictionaryEntry(key, value))
            }
            return .dictionary(key: keyType, value: valueType, entries)
        case .structure(let fieldTypes):
            let inner = try depth.entering(.structure)
            try skipPadding(to: 8)
            var fields: [DBusValue] = []
            fields.reserveCapacity(fieldTypes.count)
            for fieldType in fieldTypes { fields.append(try readValue(fieldType, depth: inner)) }
            return .structure(fields)
        }
    }

    private mutating func readDescriptor() throws(DBusError) -> DBusFileDescriptor {
        let index = try read(UInt32.self)
        guard index < descriptorCount else {
            throw .malformed("file descriptor \(index) of a message that carries \(descriptorCount)")
        }
        guard descriptorsLeft > 0 else { throw .tooManyFileDescriptors(limit: WireLimits.maxFileDescriptors) }
        descriptorsLeft -= 1
        return try resolveDescriptor(index)
    }

    /// Reads an array's length, then its elements with `element` until the length is used up.
    mutating func readArray(
        elementAlignment: Int, element: (inout WireReader) throws(DBusError) -> Void
    ) throws(DBusError) {
        let length = Int(try read(UInt32.self))
        try skipPadding(to: elementAlignment)
        guard length <= WireLimits.maxArrayLength, position + length <= end else {
            throw .malformed("array runs past the end")
        }
        let arrayEnd = position + length
        while position < arrayEnd { try element(&self) }
        guard position == arrayEnd else { throw .malformed("array elements overrun the array length") }
    }
}

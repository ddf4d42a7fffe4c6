/// One D-Bus value with its type.
///
/// Containers carry their element types, so an empty array still knows its signature.
/// Byte arrays (`ay`) have their own case, ``byteArray(_:)``, stored as contiguous bytes and
/// marshalled without per-byte work; decoding always yields that case for `ay`.
///
/// A Unix file descriptor (`h`) is carried as an owned ``DBusFileDescriptor``: on the wire it
/// is an index into the message's descriptors, which libdbus passes beside the bytes.
public indirect enum DBusValue: Sendable, Hashable {
    case byte(UInt8)
    case boolean(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(DBusObjectPath)
    case signature(DBusSignature)
    /// A Unix file descriptor (`h`), owned as ``DBusFileDescriptor`` says.
    case unixFileDescriptor(DBusFileDescriptor)
    /// An array whose elements all have type `element`.
    case array(element: DBusType, [DBusValue])
    /// An `ay` value.
    case byteArray([UInt8])
    /// A dictionary (`a{kv}`), its entries in wire order.
    case dictionary(key: DBusType, value: DBusType, [DBusDictionaryEntry])
    case structure([DBusValue])
    case variant(DBusValue)

    /// The value's complete type.
    public var type: DBusType {
        switch self {
        case .byte: .byte
        case .boolean: .boolean
        case .int16: .int16
        case .uint16: .uint16
        case .int32: .int32
        case .uint32: .uint32
        case .int64: .int64
        case .uint64: .uint64
        case .double: .double
        case .string: .string
        case .objectPath: .objectPath
        case .signature: .signature
        case .unixFileDescriptor: .unixFileDescriptor
        case .array(let element, _): .array(element)
        case .byteArray: .array(.byte)
        case .dictionary(let key, let value, _): .dictionary(key: key, value: value)
        case .structure(let fields): .structure(fields.map(\.type))
        case .variant: .variant
        }
    }
}

/// One entry of a ``DBusValue/dictionary(key:value:_:)``.
public struct DBusDictionaryEntry: Sendable, Hashable {
    public var key: DBusValue
    public var value: DBusValue

    /// Creates an entry.
    public init(_ key: DBusValue, _ value: DBusValue) {
        self.key = key
        self.value = value
    }
}

// MARK: - Convenience constructors

extension DBusValue {
    /// An `as` value.
    public static func stringArray(_ strings: [String]) -> DBusValue {
        .array(element: .string, strings.map(DBusValue.string))
    }

    /// An `a{sv}` value; entries keep the order of `pairs`.
    public static func variantDictionary(_ pairs: [(String, DBusValue)]) -> DBusValue {
        .dictionary(key: .string, value: .variant, pairs.map { DBusDictionaryEntry(.string($0.0), .variant($0.1)) })
    }
}

// MARK: - Typed access

extension DBusValue {
    /// The string of a `s` value, else `nil`.
    public var stringValue: String? {
        if case .string(let value) = self { value } else { nil }
    }

    /// The number of a `u` value, else `nil`.
    public var uint32Value: UInt32? {
        if case .uint32(let value) = self { value } else { nil }
    }

    /// The number of an `i` value, else `nil`.
    public var int32Value: Int32? {
        if case .int32(let value) = self { value } else { nil }
    }

    /// The flag of a `b` value, else `nil`.
    public var boolValue: Bool? {
        if case .boolean(let value) = self { value } else { nil }
    }

    /// The byte of a `y` value, else `nil`.
    public var byteValue: UInt8? {
        if case .byte(let value) = self { value } else { nil }
    }

    /// The descriptor of an `h` value, else `nil`.
    public var fileDescriptorValue: DBusFileDescriptor? {
        if case .unixFileDescriptor(let descriptor) = self { descriptor } else { nil }
    }

    /// The strings of an `as` value, else `nil`.
    public var stringArrayValue: [String]? {
        guard case .array(.string, let elements) = self else { return nil }
        return elements.compactMap(\.stringValue)
    }

    /// The value inside a variant, else `nil`.
    public var variantValue: DBusValue? {
        if case .variant(let inner) = self { inner } else { nil }
    }

    /// The entries of an `a{sv}` value keyed by name (a later duplicate key wins), else `nil`.
    public var variantDictionaryValue: [String: DBusValue]? {
        guard case .dictionary(.string, .variant, let entries) = self else { return nil }
        var result: [String: DBusValue] = [:]
        for entry in entries {
            if case .string(let key) = entry.key, case .variant(let value) = entry.value {
                result[key] = value
            }
        }
        return result
    }
}

/// A Swift type that stands for one D-Bus type: the generated argument, reply and signal types
/// (`dbus/*.xml`, Plugins/DBusInterfaces) read and write their fields through it.
///
/// The basic types map to their Swift numbers, `String`, ``DBusObjectPath``, ``DBusSignature``
/// and ``DBusFileDescriptor``; `v` to the ``DBusValue`` inside the variant; arrays to Swift
/// arrays (`ay` to `[UInt8]`, carried as ``DBusValue/byteArray(_:)``) and dictionaries to Swift
/// dictionaries (a later duplicate key wins, as ``DBusValue/variantDictionaryValue`` reads it).
public protocol DBusArgument: Sendable {
    /// The D-Bus type the Swift type stands for.
    static var dbusType: DBusType { get }
    /// Reads `value`.
    ///
    /// - Throws: ``DBusError/typeMismatch(expected:found:)`` when `value` has another type.
    static func reading(_ value: DBusValue) throws(DBusError) -> Self
    /// The value as D-Bus carries it.
    var dbusValue: DBusValue { get }
}

extension DBusValue {
    /// The error of a value read as `expected`.
    @usableFromInline
    static func mismatch(_ value: DBusValue, expected: DBusType) -> DBusError {
        .typeMismatch(expected: expected.signature, found: value.type.signature)
    }

    /// The value inside the variant `value`.
    ///
    /// - Throws: ``DBusError/typeMismatch(expected:found:)`` when `value` is no variant.
    @inlinable
    public static func variantContent(_ value: DBusValue) throws(DBusError) -> DBusValue {
        guard case .variant(let inner) = value else { throw mismatch(value, expected: .variant) }
        return inner
    }

    /// `value` itself, once its type is checked to be `signature`: the generated types keep the
    /// values of the types ``DBusArgument`` does not map (structs, arrays of them) as they are.
    ///
    /// - Throws: ``DBusError/typeMismatch(expected:found:)`` when `value` has another type.
    @inlinable
    public static func checked(_ value: DBusValue, signature: String) throws(DBusError) -> DBusValue {
        let found = value.type.signature
        guard found == signature else { throw .typeMismatch(expected: signature, found: found) }
        return value
    }

    /// The values of a body read as `signature`, once their number is checked.
    ///
    /// - Throws: ``DBusError/unexpectedSignature(expected:found:)`` when there are not as many
    ///   values as `count`.
    @inlinable
    public static func body(_ values: [DBusValue], count: Int, signature: String) throws(DBusError) -> [DBusValue] {
        guard values.count == count else {
            throw .unexpectedSignature(expected: signature, found: values.map(\.type.signature).joined())
        }
        return values
    }
}

extension UInt8: DBusArgument {
    public static var dbusType: DBusType { .byte }
    @inlinable public static func reading(_ value: DBusValue) throws(DBusError) -> Self {
        guard case .byte(let number) = value else { throw DBusValue.mismatch(value, expected: .byte) }
        return number
    }
    @inlinable public var dbusValue: DBusValue { .byte(self) }
}

extension Bool: DBusArgument {
    public static var dbusType: DBusType { .boolean }
    @inlinable public static func reading(_ value: DBusValue) throws(DBusError) -> Self {
        guard case .boolean(let flag) = value else { throw DBusValue.mismatch(value, expected: .boolean) }
        return flag
    }
    @inlinable public var dbusValue: DBusValue { .boolean(self) }
}

extension Int16: DBusArgument {
    public static var dbusType: DBusType { .int16 }
    @inlinable public static func reading(_ value: DBusValue) throws(DBusError) -> Self {
        guard case .int16(let number) = value else { throw DBusValue.mismatch(value, expected: .int16) }
        return number
    }
    @inlinable public var dbusValue: DBusValue { .int16(self) }
}

extension UInt16: DBusArgument {
    public static var dbusType: DBusType { .uint16 }
    @inlinable public static func reading(_ value: DBusValue) throws(DBusError) -> Self {
        guard case .uint16(let number) = value else { throw DBusValue.mismatch(value, expected: .uint16) }
        return number
    }
    @inlinable public var dbusValue: DBusValue { .uint16(self) }
}

extension Int32: DBusArgument {
    public static var dbusType: DBusType { .int32 }
    @inlinable public static func reading(_ value: DBusValue) throws(DBusError) -> Self {
        guard case .int32(let number) = value else { throw DBusValue.mismatch(value, expected: .int32) }
        return number
    }
    @inlinable public var dbusValue: DBusValue { .int32(self) }
}

extension UInt32: DBusArgument {
    public static var dbusType: DBusType { .uint32 }
    @inlinable public static func reading(_ value: DBusValue) throws(DBusError) -> Self {
        guard case .uint32(let number) = value else { throw DBusValue.mismatch(value, expected: .uint32) }
        return number
    }
    @inlinable public var dbusValue: DBusValue { .uint32(self) }
}

extension Int64: DBusArgument {
    public static var dbusType: DBusType { .int64 }
    @inlinable public static func reading(_ value: DBusValue) throws(DBusError) -> Self {
        guard case .int64(let number) = value else { throw DBusValue.mismatch(value, expected: .int64) }
        return number
    }
    @inlinable public var dbusValue: DBusValue { .int64(self) }
}

extension UInt64: DBusArgument {
    public static var dbusType: DBusType { .uint64 }
    @inlinable public static func reading(_ value: DBusValue) throws(DBusError) -> Self {
        guard case .uint64(let number) = value else { throw DBusValue.mismatch(value, expected: .uint64) }
        return number
    }
    @inlinable public var dbusValue: DBusValue { .uint64(self) }
}

extension Double: DBusArgument {
    public static var dbusType: DBusType { .double }
    @inlinable public static func reading(_ value: DBusValue) throws(DBusError) -> Self {
        guard case .double(let number) = value else { throw DBusValue.mismatch(value, expected: .double) }
        return number
    }
    @inlinable public var dbusValue: DBusValue { .double(self) }
}

extension String: DBusArgument {
    public static var dbusType: DBusType { .string }
    @inlinable public static func reading(_ value: DBusValue) throws(DBusError) -> Self {
        guard case .string(let text) = value else { throw DBusValue.mismatch(value, expected: .string) }
        return text
    }
    @inlinable public var dbusValue: DBusValue { .string(self) }
}

extension DBusObjectPath: DBusArgument {
    public static var dbusType: DBusType { .objectPath }
    @inlinable public static func reading(_ value: DBusValue) throws(DBusError) -> Self {
        guard case .objectPath(let path) = value else { throw DBusValue.mismatch(value, expected: .objectPath) }
        return path
    }
    @inlinable public var dbusValue: DBusValue { .objectPath(self) }
}

extension DBusSignature: DBusArgument {
    public static var dbusType: DBusType { .signature }
    @inlinable public static func reading(_ value: DBusValue) throws(DBusError) -> Self {
        guard case .signature(let signature) = value else { throw DBusValue.mismatch(value, expected: .signature) }
        return signature
    }
    @inlinable public var dbusValue: DBusValue { .signature(self) }
}

extension DBusFileDescriptor: DBusArgument {
    public static var dbusType: DBusType { .unixFileDescriptor }
    /// Reads an `h` value: the same descriptor object, owned as the message owned it.
    public static func reading(_ value: DBusValue) throws(DBusError) -> Self {
        guard case .unixFileDescriptor(let descriptor) = value, let same = descriptor as? Self else {
            throw DBusValue.mismatch(value, expected: .unixFileDescriptor)
        }
        return same
    }
    public var dbusValue: DBusValue { .unixFileDescriptor(self) }
}

extension Array: DBusArgument where Element: DBusArgument {
    public static var dbusType: DBusType { .array(Element.dbusType) }

    /// Reads an array; `[UInt8]` reads `ay` as ``DBusValue/byteArray(_:)`` carries it.
    @inlinable public static func reading(_ value: DBusValue) throws(DBusError) -> Self {
        switch value {
        case .byteArray(let bytes) where Element.self == UInt8.self:
            // The check above makes the cast succeed; it is conditional so that nothing traps.
            guard let same = bytes as? [Element] else { throw DBusValue.mismatch(value, expected: Self.dbusType) }
            return same
        case .array(let element, let values) where element == Element.dbusType:
            var elements: [Element] = []
            elements.reserveCapacity(values.count)
            for value in values { elements.append(try Element.reading(value)) }
            return elements
        default:
            throw DBusValue.mismatch(value, expected: Self.dbusType)
        }
    }

    /// The array; `[UInt8]` as ``DBusValue/byteArray(_:)``.
    @inlinable public var dbusValue: DBusValue {
        // The element type is checked first: an empty array of any type would cast to [UInt8].
        if Element.self == UInt8.self, let bytes = self as? [UInt8] { return .byteArray(bytes) }
        return .array(element: Element.dbusType, map(\.dbusValue))
    }
}

extension Dictionary: DBusArgument where Key: DBusArgument, Value: DBusArgument {
    public static var dbusType: DBusType { .dictionary(key: Key.dbusType, value: Value.dbusType) }

    /// Reads a dictionary; a later duplicate key wins.
    @inlinable public static func reading(_ value: DBusValue) throws(DBusError) -> Self {
        guard case .dictionary(let key, let valueType, let entries) = value, key == Key.dbusType, valueType == Value.dbusType else {
            throw DBusValue.mismatch(value, expected: Self.dbusType)
        }
        // Made at its size: `reserveCapacity` is not inlinable, and runs unspecialized.
        var result = [Key: Value](minimumCapacity: entries.count)
        for entry in entries { result[try Key.reading(entry.key)] = try Value.reading(entry.value) }
        return result
    }

    /// The dictionary; with `String` keys (as in every `a{sv}`) its entries sorted by key, so
    /// that the same dictionary always makes the same bytes (a Swift dictionary's order changes
    /// from one process to the next); with other keys in the dictionary's order.
    @inlinable public var dbusValue: DBusValue {
        var entries = map { DBusDictionaryEntry($0.key.dbusValue, $0.value.dbusValue) }
        if Key.self == String.self {
            entries.sort { ($0.key.stringValue ?? "") < ($1.key.stringValue ?? "") }
        }
        return .dictionary(key: Key.dbusType, value: Value.dbusType, entries)
    }
}

extension DBusValue: DBusArgument {
    /// A ``DBusValue`` as an argument stands for a variant (`v`): the value inside it.
    public static var dbusType: DBusType { .variant }
    /// Reads the value inside the variant `value`.
    @inlinable public static func reading(_ value: DBusValue) throws(DBusError) -> Self {
        return try Self.variantContent(value)
    }
    /// The value wrapped in a variant.
    @inlinable public var dbusValue: DBusValue { .variant(self) }
}

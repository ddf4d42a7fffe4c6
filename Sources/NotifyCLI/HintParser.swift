import DBus
import Foundation

/// Reads `-h TYPE:NAME:VALUE` exactly as `notify-send` 0.8.1 does, with its messages.
///
/// The rules copied from libnotify's `notify-send.c`:
/// - the argument is split at the first two colons (the value may hold more colons);
/// - types are matched without regard to case: `string`, `int`, `double`, `byte`, `boolean`,
///   `variant`;
/// - `int` and `double` need a value starting with a digit; then the longest numeric prefix
///   counts (`12abc` is 12), and `int` wraps to 32 bits as C's cast does;
/// - `byte` takes the numeric prefix (none is 0) and must be 0...255;
/// - `boolean` is true for `true` (any case) or a number other than 0, false otherwise;
/// - `variant` is GVariant text (`<int64 3>`, `[1, 2]`, `'text'`, `@ai []`, ...), parsed by
///   ``GVariantText``.
package enum HintParser {
    /// A hint that cannot be used; `message` is notify-send's own wording.
    package struct Failure: Error, CustomStringConvertible {
        let message: String
        package var description: String { message }
    }

    /// Parses one `-h` argument into a hint name and its wire value.
    package static func parse(_ argument: String) throws(Failure) -> (name: String, value: DBusValue) {
        let parts = argument.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3 else {
            throw Failure(message: "Invalid hint syntax specified. Use TYPE:NAME:VALUE.")
        }
        let (type, name, value) = (parts[0], parts[1], parts[2])
        let unparsable = Failure(message: "Value \"\(value)\" of hint \"\(name)\" could not be parsed as type \"\(type)\".")
        let startsWithDigit = value.utf8.first.map { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } ?? false
        switch type.lowercased() {
        case "string":
            return (name, .string(value))
        case "int":
            guard startsWithDigit else { throw unparsable }
            return (name, .int32(Int32(truncatingIfNeeded: unsignedPrefix(value))))
        case "double":
            guard startsWithDigit else { throw unparsable }
            return (name, .double(value.withCString { strtod($0, nil) }))
        case "byte":
            let number = Int32(truncatingIfNeeded: unsignedPrefix(value))
            guard (0...255).contains(number) else { throw unparsable }
            return (name, .byte(UInt8(number)))
        case "boolean":
            if value.lowercased() == "true" { return (name, .boolean(true)) }
            return (name, .boolean(startsWithDigit && unsignedPrefix(value) != 0))
        case "variant":
            guard let parsed = try? GVariantText.parse(value) else { throw unparsable }
            return (name, parsed)
        default:
            throw Failure(message: "Invalid hint type \"\(type)\". Valid types are int, double, string and byte.")
        }
    }

    /// `g_ascii_strtoull(value, NULL, 10)`: leading spaces and a sign allowed, saturating.
    private static func unsignedPrefix(_ value: String) -> UInt64 {
        value.withCString { UInt64(strtoull($0, nil, 10)) }
    }
}

/// `g_strcompress`: the C escapes notify-send expands in the body (`\n`, `\t`, `\\`, octal
/// `\101`, ...). A backslash before any other character is dropped; a trailing one ends
/// the text.
///
/// - Returns: the bytes, which the caller must check to be UTF-8 (an octal escape can make
///   any byte).
func compressEscapes(_ text: String) -> [UInt8] {
    let bytes = Array(text.utf8)
    var result: [UInt8] = []
    var index = 0
    while index < bytes.count {
        let byte = bytes[index]
        index += 1
        guard byte == UInt8(ascii: "\\") else {
            result.append(byte)
            continue
        }
        guard index < bytes.count else { break }
        let next = bytes[index]
        index += 1
        switch next {
        case UInt8(ascii: "0")...UInt8(ascii: "7"):
            var value = Int(next - UInt8(ascii: "0"))
            var digits = 1
            while digits < 3, index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(bytes[index]) {
                value = value * 8 + Int(bytes[index] - UInt8(ascii: "0"))
                index += 1
                digits += 1
            }
            result.append(UInt8(truncatingIfNeeded: value))
        case UInt8(ascii: "b"): result.append(8)
        case UInt8(ascii: "f"): result.append(12)
        case UInt8(ascii: "n"): result.append(10)
        case UInt8(ascii: "r"): result.append(13)
        case UInt8(ascii: "t"): result.append(9)
        case UInt8(ascii: "v"): result.append(11)
        default: result.append(next)
        }
    }
    return result
}

/// A parser for the GVariant text format as far as D-Bus hints need it: numbers, booleans,
/// strings, typed values (`int64 3`, `uint32 7`, `objectpath '/a'`, `@ai [1]`), variants
/// `<...>`, arrays `[...]`, tuples `(...)` and dictionaries `{k: v}`. Maybe types and
/// byte strings have no D-Bus form and are refused.
struct GVariantText {
    /// Why a text is not a value.
    struct Failure: Error {}

    private let bytes: [UInt8]
    private var index = 0

    private init(_ text: String) { bytes = Array(text.utf8) }

    /// Parses the whole of `text` as one value.
    static func parse(_ text: String) throws(Failure) -> DBusValue {
        var parser = GVariantText(text)
        let value = try parser.value(expected: nil)
        parser.skipSpaces()
        guard parser.index == parser.bytes.count else { throw Failure() }
        return value
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipSpaces() {
        while let byte = current, byte == 32 || (9...13).contains(byte) { index += 1 }
    }

    private mutating func expect(_ character: Character) throws(Failure) {
        skipSpaces()
        guard current == character.asciiValue else { throw Failure() }
        index += 1
    }

    private mutating func take(_ character: Character) -> Bool {
        skipSpaces()
        guard current == character.asciiValue else { return false }
        index += 1
        return true
    }

    private mutating func word() -> String {
        skipSpaces()
        let start = index
        while let byte = current,
              byte == UInt8(ascii: "_") || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
                || (index > start && (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)) {
            index += 1
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private static let keywords: [String: DBusType] = [
        "boolean": .boolean, "byte": .byte, "int16": .int16, "uint16": .uint16, "int32": .int32,
        "uint32": .uint32, "int64": .int64, "uint64": .uint64, "double": .double, "string": .string,
        "objectpath": .objectPath, "signature": .signature,
    ]

    private mutating func value(expected: DBusType?) throws(Failure) -> DBusValue {
        skipSpaces()
        guard let byte = current else { throw Failure() }
        switch byte {
        case UInt8(ascii: "<"):
            index += 1
            let inner = try value(expected: nil)
            try expect(">")
            return try conform(.variant(inner), to: expected)
        case UInt8(ascii: "["):
            index += 1
            return try array(expected: expected)
        case UInt8(ascii: "("):
            index += 1
            return try tuple(expected: expected)
        case UInt8(ascii: "{"):
            index += 1
            return try dictionary(expected: expected)
        case UInt8(ascii: "'"), UInt8(ascii: "\""):
            return try conform(.string(try string()), to: expected)
        case UInt8(ascii: "@"):
            index += 1
            let start = index
            while let byte = current, byte != 32 { index += 1 }
            let signature = String(decoding: bytes[start..<index], as: UTF8.self)
            guard let types = try? DBusType.parseList(signature), types.count == 1 else { throw Failure() }
            let typed = try value(expected: types[0])
            return try conform(typed, to: expected)
        case UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try number(expected: expected)
        default:
            let start = index
            let name = word()
            switch name {
            case "true": return try conform(.boolean(true), to: expected)
            case "false": return try conform(.boolean(false), to: expected)
            default:
                guard let type = Self.keywords[name] else {
                    index = start
                    throw Failure()
                }
                return try conform(try value(expected: type), to: expected)
            }
        }
    }

    private mutating func array(expected: DBusType?) throws(Failure) -> DBusValue {
        var element: DBusType?
        if let expected {
            switch expected {
            case .array(let inner): element = inner
            case .dictionary: return try dictionaryBody(expected: expected, close: "]")
            default: throw Failure()
            }
        }
        var elements: [DBusValue] = []
        if !take("]") {
            repeat {
                let item = try value(expected: element)
                element = element ?? item.type
                elements.append(item)
            } while take(",")
            try expect("]")
        }
        guard let element else { throw Failure() }  // `[]` needs a type: `@as []`
        if element == .byte {
            return .byteArray(elements.compactMap { if case .byte(let b) = $0 { b } else { nil } })
        }
        return .array(element: element, elements)
    }

    private mutating func tuple(expected: DBusType?) throws(Failure) -> DBusValue {
        var fieldTypes: [DBusType]?
        if let expected {
            guard case .structure(let types) = expected else { throw Failure() }
            fieldTypes = types
        }
        var fields: [DBusValue] = []
        while !take(")") {
            let type = fieldTypes.flatMap { fields.count < $0.count ? $0[fields.count] : nil }
            if fieldTypes != nil && type == nil { throw Failure() }
            fields.append(try value(expected: type))
            if !take(",") {
                try expect(")")
                break
            }
        }
        guard !fields.isEmpty, fieldTypes.map({ $0.count == fields.count }) ?? true else { throw Failure() }
        return .structure(fields)
    }

    private mutating func dictionary(expected: DBusType?) throws(Failure) -> DBusValue {
        try dictionaryBody(expected: expected, close: "}")
    }

    private mutating func dictionaryBody(expected: DBusType?, close: Character) throws(Failure) -> DBusValue {
        var keyType: DBusType?
        var valueType: DBusType?
        if let expected {
            guard case .dictionary(let key, let value) = expected else { throw Failure() }
            (keyType, valueType) = (key, value)
        }
        var entries: [DBusDictionaryEntry] = []
        if !take(close) {
            repeat {
                if close == "]" { try expect("{") }
                let key = try value(expected: keyType)
                try expect(close == "]" ? "," : ":")
                let item = try value(expected: valueType)
                if close == "]" { try expect("}") }
                keyType = keyType ?? key.type
                valueType = valueType ?? item.type
                entries.append(DBusDictionaryEntry(key, item))
            } while take(",")
            try expect(close)
        }
        guard let keyType, let valueType else { throw Failure() }
        switch keyType {
        case .variant, .array, .dictionary, .structure: throw Failure()
        default: return .dictionary(key: keyType, value: valueType, entries)
        }
    }

    private mutating func string() throws(Failure) -> String {
        guard let quote = current else { throw Failure() }
        index += 1
        var result: [UInt8] = []
        while let byte = current {
            index += 1
            if byte == quote { return String(decoding: result, as: UTF8.self) }
            guard byte == UInt8(ascii: "\\") else {
                result.append(byte)
                continue
            }
            guard let escaped = current else { throw Failure() }
            index += 1
            switch escaped {
            case UInt8(ascii: "n"): result.append(10)
            case UInt8(ascii: "t"): result.append(9)
            case UInt8(ascii: "r"): result.append(13)
            case UInt8(ascii: "b"): result.append(8)
            case UInt8(ascii: "f"): result.append(12)
            case UInt8(ascii: "v"): result.append(11)
            case UInt8(ascii: "u"), UInt8(ascii: "U"):
                let length = escaped == UInt8(ascii: "u") ? 4 : 8
                guard index + length <= bytes.count,
                      let code = UInt32(String(decoding: bytes[index..<index + length], as: UTF8.self), radix: 16),
                      let scalar = Unicode.Scalar(code) else { throw Failure() }
                index += length
                result.append(contentsOf: Array(String(Character(scalar)).utf8))
            default: result.append(escaped)
            }
        }
        throw Failure()
    }

    private mutating func number(expected: DBusType?) throws(Failure) -> DBusValue {
        let start = index
        while let byte = current,
              byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".")
                || byte == UInt8(ascii: "x") || byte == UInt8(ascii: "X")
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "f")) {
            index += 1
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        let isHex = text.lowercased().replacingOccurrences(of: "-", with: "").hasPrefix("0x")
        let looksFloating = !isHex && (text.contains(".") || text.lowercased().contains("e"))
        let type = expected ?? (looksFloating ? .double : .int32)
        if type == .double {
            guard let double = Double(text) else { throw Failure() }
            return .double(double)
        }
        guard !looksFloating, let integer = Self.integer(text) else { throw Failure() }
        func fit<T: FixedWidthInteger>(_: T.Type) throws(Failure) -> T {
            guard let fitted = T(exactly: integer) else { throw Failure() }
            return fitted
        }
        switch type {
        case .byte: return .byte(try fit(UInt8.self))
        case .int16: return .int16(try fit(Int16.self))
        case .uint16: return .uint16(try fit(UInt16.self))
        case .int32: return .int32(try fit(Int32.self))
        case .uint32: return .uint32(try fit(UInt32.self))
        case .int64: return .int64(try fit(Int64.self))
        case .uint64: return .uint64(try fit(UInt64.self))
        case .variant: return .variant(.int32(try fit(Int32.self)))
        default: throw Failure()
        }
    }

    /// A decimal, hexadecimal (`0x`) or octal (leading `0`) integer, with an optional sign.
    private static func integer(_ text: String) -> Int128? {
        var digits = Substring(text)
        var negative = false
        if let sign = digits.first, sign == "-" || sign == "+" {
            negative = sign == "-"
            digits = digits.dropFirst()
        }
        var radix = 10
        if digits.lowercased().hasPrefix("0x") {
            radix = 16
            digits = digits.dropFirst(2)
        } else if digits.count > 1, digits.hasPrefix("0") {
            radix = 8
            digits = digits.dropFirst()
        }
        guard let magnitude = UInt64(digits, radix: radix) else { return nil }
        return negative ? -Int128(magnitude) : Int128(magnitude)
    }

    /// Checks a parsed value against the type the context asks for.
    private func conform(_ value: DBusValue, to expected: DBusType?) throws(Failure) -> DBusValue {
        guard let expected, expected != value.type else { return value }
        switch (expected, value) {
        case (.variant, _): return .variant(value)
        case (.objectPath, .string(let text)):
            guard let path = try? DBusObjectPath(text) else { throw Failure() }
            return .objectPath(path)
        case (.signature, .string(let text)):
            guard let signature = try? DBusSignature(text) else { throw Failure() }
            return .signature(signature)
        default: throw Failure()
        }
    }
}

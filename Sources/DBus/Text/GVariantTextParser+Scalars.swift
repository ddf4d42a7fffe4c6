import DesktopNotificationsSupport
extension GVariantTextParser {
    /// A quoted string, with C escapes and `\u`/`\U` code points.
    mutating func string() throws(GVariantTextError) -> String {
        guard let quote = current else { throw fail("expected a string") }
        index += 1
        var result: [UInt8] = []
        while let byte = current {
            index += 1
            if byte == quote { return String(decoding: result, as: UTF8.self) }
            guard byte == UInt8(ascii: "\\") else {
                result.append(byte)
                continue
            }
            guard let escaped = current else { break }
            index += 1
            switch escaped {
            case UInt8(ascii: "u"), UInt8(ascii: "U"):
                result.append(contentsOf: try codePoint(digits: escaped == UInt8(ascii: "u") ? 4 : 8))
            default: result.append(CEscape.byte(for: escaped) ?? escaped)
            }
        }
        throw fail("unterminated string")
    }

    /// The UTF-8 bytes of the code point in the next `digits` hexadecimal digits.
    private mutating func codePoint(digits: Int) throws(GVariantTextError) -> [UInt8] {
        guard index + digits <= bytes.count,
              let code = UInt32(String(decoding: bytes[index..<index + digits], as: UTF8.self), radix: 16),
              let scalar = Unicode.Scalar(code) else { throw fail("bad \\u or \\U escape") }
        index += digits
        return Array(String(Character(scalar)).utf8)
    }

    /// A number, typed by `expected`, else `int32` or (with a point or exponent) `double`.
    mutating func number(expected: DBusType?) throws(GVariantTextError) -> DBusValue {
        let start = index
        while let byte = current,
              byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".")
                || byte == UInt8(ascii: "x") || byte == UInt8(ascii: "X")
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "f")) {
            index += 1
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        let isHex = text.lowercased().filter { $0 != "-" }.hasPrefix("0x")
        let looksFloating = !isHex && text.contains { $0 == "." || $0 == "e" || $0 == "E" }
        let type = expected ?? (looksFloating ? .double : .int32)
        if type == .double {
            guard let double = Double(text) else { throw fail("'\(text)' is not a number") }
            return .double(double)
        }
        guard !looksFloating, let integer = Self.integer(text) else { throw fail("'\(text)' is not an integer") }
        return try integerValue(integer, as: type)
    }

    private func integerValue(_ integer: Int128, as type: DBusType) throws(GVariantTextError) -> DBusValue {
        func fit<T: FixedWidthInteger>(_: T.Type) throws(GVariantTextError) -> T {
            guard let fitted = T(exactly: integer) else { throw fail("\(integer) does not fit \(type.signature)") }
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
        default: throw fail("a number where \(type.signature) is required")
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
}

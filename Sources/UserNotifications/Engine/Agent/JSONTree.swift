/// A parsed JSON value, for ``FastRequestDecoder``: objects keep their members in text order
/// (a repeated key is kept twice, for the decoder to refuse), numbers keep their text.
///
/// ``parse(_:)`` reads RFC 8259 JSON strictly and answers `nil` for anything else, nested
/// deeper than ``maximumDepth``, or a string with an unpaired surrogate escape: the caller
/// then leaves the text to `JSONDecoder`, which decides and reports.
enum JSONTree: Equatable {
    case object([(key: String, value: JSONTree)])
    case array([JSONTree])
    case string(String)
    case number(String)
    case bool(Bool)
    case null

    /// The deepest nesting read.
    static let maximumDepth = 32

    static func == (lhs: JSONTree, rhs: JSONTree) -> Bool {
        switch (lhs, rhs) {
        case (.object(let a), .object(let b)): a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        case (.array(let a), .array(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.number(let a), .number(let b)): a == b
        case (.bool(let a), .bool(let b)): a == b
        case (.null, .null): true
        default: false
        }
    }

    /// The value `text` holds, or `nil` when it is not one JSON value (with white space
    /// around it) this reader takes.
    static func parse(_ text: String) -> JSONTree? {
        var text = text
        return text.withUTF8 { bytes in
            var reader = Reader(bytes: bytes)
            guard let value = reader.value(depth: 0) else { return nil }
            reader.skipSpace()
            return reader.offset == bytes.count ? value : nil
        }
    }

    /// The members of an object, `nil` for anything else.
    var members: [(key: String, value: JSONTree)]? {
        if case .object(let members) = self { return members }
        return nil
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var offset = 0

        init(bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
        }

        private var next: UInt8? { offset < bytes.count ? bytes[offset] : nil }

        mutating func skipSpace() {
            while let byte = next, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { offset += 1 }
        }

        mutating func value(depth: Int) -> JSONTree? {
            guard depth < JSONTree.maximumDepth else { return nil }
            skipSpace()
            switch next {
            case UInt8(ascii: "{"): return object(depth: depth)
            case UInt8(ascii: "["): return array(depth: depth)
            case UInt8(ascii: "\""): return string().map(JSONTree.string)
            case UInt8(ascii: "t"): return literal("true") ? .bool(true) : nil
            case UInt8(ascii: "f"): return literal("false") ? .bool(false) : nil
            case UInt8(ascii: "n"): return literal("null") ? .null : nil
            default: return number()
            }
        }

        private mutating func literal(_ word: StaticString) -> Bool {
            let count = word.utf8CodeUnitCount
            guard bytes.count - offset >= count else { return false }
            for index in 0..<count where bytes[offset + index] != word.utf8Start[index] { return false }
            offset += count
            return true
        }

        private mutating func object(depth: Int) -> JSONTree? {
            offset += 1
            var members: [(key: String, value: JSONTree)] = []
            skipSpace()
            if next == UInt8(ascii: "}") {
                offset += 1
                return .object(members)
            }
            while true {
                skipSpace()
                guard next == UInt8(ascii: "\""), let key = string() else { return nil }
                skipSpace()
                guard next == UInt8(ascii: ":") else { return nil }
                offset += 1
                guard let value = value(depth: depth + 1) else { return nil }
                members.append((key, value))
                skipSpace()
                switch next {
                case UInt8(ascii: ","): offset += 1
                case UInt8(ascii: "}"):
                    offset += 1
                    return .object(members)
                default: return nil
                }
            }
        }

        private mutating func array(depth: Int) -> JSONTree? {
            offset += 1
            var elements: [JSONTree] = []
            skipSpace()
            if next == UInt8(ascii: "]") {
                offset += 1
                return .array(elements)
            }
            while true {
                guard let element = value(depth: depth + 1) else { return nil }
                elements.append(element)
                skipSpace()
                switch next {
                case UInt8(ascii: ","): offset += 1
                case UInt8(ascii: "]"):
                    offset += 1
                    return .array(elements)
                default: return nil
                }
            }
        }

        /// A string from its opening quote; raw control characters and unpaired surrogate
        /// escapes are refused.
        private mutating func string() -> String? {
            offset += 1
            let start = offset
            // The common case: no escape, the bytes are the string's UTF-8 (valid: they come
            // from a Swift string).
            while let byte = next, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
                guard byte >= 0x20 else { return nil }
                offset += 1
            }
            guard let stop = next else { return nil }
            var scalars = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
            if stop == UInt8(ascii: "\"") {
                offset += 1
                return scalars
            }
            while let byte = next {
                switch byte {
                case UInt8(ascii: "\""):
                    offset += 1
                    return scalars
                case UInt8(ascii: "\\"):
                    offset += 1
                    guard let escaped = escape() else { return nil }
                    scalars.unicodeScalars.append(escaped)
                default:
                    guard byte >= 0x20 else { return nil }
                    let runStart = offset
                    while let byte = next, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
                        guard byte >= 0x20 else { return nil }
                        offset += 1
                    }
                    scalars += String(decoding: UnsafeBufferPointer(rebasing: bytes[runStart..<offset]), as: UTF8.self)
                }
            }
            return nil
        }

        /// The character of an escape, after its backslash.
        private mutating func escape() -> Unicode.Scalar? {
            guard let byte = next else { return nil }
            offset += 1
            switch byte {
            case UInt8(ascii: "\""): return "\""
            case UInt8(ascii: "\\"): return "\\"
            case UInt8(ascii: "/"): return "/"
            case UInt8(ascii: "b"): return "\u{08}"
            case UInt8(ascii: "f"): return "\u{0C}"
            case UInt8(ascii: "n"): return "\n"
            case UInt8(ascii: "r"): return "\r"
            case UInt8(ascii: "t"): return "\t"
            case UInt8(ascii: "u"):
                guard let unit = hex4() else { return nil }
                switch unit {
                case 0xD800..<0xDC00:
                    guard literal("\\u"), let low = hex4(), (0xDC00..<0xE000).contains(low) else { return nil }
                    return Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
                case 0xDC00..<0xE000: return nil
                default: return Unicode.Scalar(unit)
                }
            default: return nil
            }
        }

        private mutating func hex4() -> UInt32? {
            guard bytes.count - offset >= 4 else { return nil }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[offset]
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: return nil
                }
                value = value << 4 | UInt32(digit)
                offset += 1
            }
            return value
        }

        /// A number as RFC 8259 writes one: `-`? int frac? exp?, kept as its text.
        private mutating func number() -> JSONTree? {
            let start = offset
            if next == UInt8(ascii: "-") { offset += 1 }
            guard let first = next, isDigit(first) else { return nil }
            offset += 1
            if first != UInt8(ascii: "0") { skipDigits() }
            if next == UInt8(ascii: ".") {
                offset += 1
                guard let digit = next, isDigit(digit) else { return nil }
                skipDigits()
            }
            if next == UInt8(ascii: "e") || next == UInt8(ascii: "E") {
                offset += 1
                if next == UInt8(ascii: "+") || next == UInt8(ascii: "-") { offset += 1 }
                guard let digit = next, isDigit(digit) else { return nil }
                skipDigits()
            }
            return .number(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self))
        }

        private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

        private mutating func skipDigits() {
            while let byte = next, isDigit(byte) { offset += 1 }
        }
    }
}

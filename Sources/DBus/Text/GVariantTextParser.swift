/// The state of one ``GVariantText/parse(_:)``: the text's bytes and a position in them.
///
/// Every container goes one ``NestingDepth`` deeper before its contents are read, so the
/// recursion is bounded by D-Bus's limits whatever the text holds.
struct GVariantTextParser {
    let bytes: [UInt8]
    var index = 0

    init(_ text: String) { bytes = Array(text.utf8) }

    mutating func parseAll() throws(GVariantTextError) -> DBusValue {
        let value = try value(expected: nil, depth: .top)
        try checkSignature(of: value)
        skipSpaces()
        guard index == bytes.count else { throw fail("text after the value") }
        return value
    }

    // MARK: - Reading bytes

    var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    func fail(_ reason: String) -> GVariantTextError {
        .invalid(offset: index, reason: reason)
    }

    mutating func skipSpaces() {
        while let byte = current, byte == 32 || (9...13).contains(byte) { index += 1 }
    }

    mutating func expect(_ character: Character) throws(GVariantTextError) {
        guard take(character) else { throw fail("expected '\(character)'") }
    }

    mutating func take(_ character: Character) -> Bool {
        skipSpaces()
        guard current == character.asciiValue else { return false }
        index += 1
        return true
    }

    /// One container deeper, or ``GVariantTextError/nestingTooDeep(offset:)``.
    func entering(_ container: NestingDepth.Container, from depth: NestingDepth) throws(GVariantTextError) -> NestingDepth {
        do {
            return try depth.entering(container)
        } catch {
            throw .nestingTooDeep(offset: index)
        }
    }

    /// Checks that `value`'s type can be a signature (the top level and each variant start one):
    /// empty arrays nest by their element type alone, which the walk over the text never sees.
    func checkSignature(of value: DBusValue) throws(GVariantTextError) {
        do {
            try value.type.validatedSignature()
        } catch .nestingTooDeep {
            throw .nestingTooDeep(offset: index)
        } catch {
            throw fail(error.description)
        }
    }

    // MARK: - Values

    mutating func value(expected: DBusType?, depth: NestingDepth) throws(GVariantTextError) -> DBusValue {
        skipSpaces()
        guard let byte = current else { throw fail("expected a value") }
        switch byte {
        case UInt8(ascii: "<"):
            index += 1
            let inner = try value(expected: nil, depth: entering(.variant, from: depth))
            try checkSignature(of: inner)
            try expect(">")
            return try conform(.variant(inner), to: expected)
        case UInt8(ascii: "["):
            index += 1
            return try array(expected: expected, depth: entering(.array, from: depth))
        case UInt8(ascii: "("):
            index += 1
            return try tuple(expected: expected, depth: entering(.structure, from: depth))
        case UInt8(ascii: "{"):
            index += 1
            return try dictionaryBody(expected: expected, close: "}", depth: entering(.array, from: depth))
        case UInt8(ascii: "'"), UInt8(ascii: "\""):
            return try conform(.string(try string()), to: expected)
        case UInt8(ascii: "@"):
            index += 1
            let annotated = try annotatedType()
            return try conform(try value(expected: annotated, depth: depth), to: expected)
        case UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try number(expected: expected)
        default:
            return try keywordValue(expected: expected, depth: depth)
        }
    }

    /// The type after `@`, up to the next space.
    private mutating func annotatedType() throws(GVariantTextError) -> DBusType {
        let start = index
        while let byte = current, byte != 32 { index += 1 }
        let signature = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let type = try? DBusType(parsing: signature) else { throw fail("'\(signature)' is not one D-Bus type") }
        return type
    }

    private static let keywords: [String: DBusType] = [
        "boolean": .boolean, "byte": .byte, "int16": .int16, "uint16": .uint16, "int32": .int32,
        "uint32": .uint32, "int64": .int64, "uint64": .uint64, "double": .double, "string": .string,
        "objectpath": .objectPath, "signature": .signature,
    ]

    /// `true`, `false`, or a type keyword and the value it types.
    private mutating func keywordValue(expected: DBusType?, depth: NestingDepth) throws(GVariantTextError) -> DBusValue {
        let start = index
        let name = word()
        switch name {
        case "true": return try conform(.boolean(true), to: expected)
        case "false": return try conform(.boolean(false), to: expected)
        default:
            guard let type = Self.keywords[name] else {
                index = start
                throw fail(name.isEmpty ? "unexpected character" : "unknown word '\(name)'")
            }
            return try conform(try value(expected: type, depth: depth), to: expected)
        }
    }

    private mutating func word() -> String {
        let start = index
        while let byte = current,
              byte == UInt8(ascii: "_") || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
                || (index > start && (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)) {
            index += 1
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// Checks a parsed value against the type the context asks for.
    func conform(_ value: DBusValue, to expected: DBusType?) throws(GVariantTextError) -> DBusValue {
        guard let expected, expected != value.type else { return value }
        switch (expected, value) {
        case (.variant, _): return .variant(value)
        case (.objectPath, .string(let text)):
            guard let path = try? DBusObjectPath(text) else { throw fail("'\(text)' is not an object path") }
            return .objectPath(path)
        case (.signature, .string(let text)):
            guard let signature = try? DBusSignature(text) else { throw fail("'\(text)' is not a signature") }
            return .signature(signature)
        default: throw fail("a value of type \(value.type.signature) where \(expected.signature) is required")
        }
    }
}

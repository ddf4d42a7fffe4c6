/// A complete D-Bus type, parsed from (or written as) a single complete type signature.
///
/// `DBusType` is the tree form of a signature such as `a{sv}`: the encoder walks it beside a
/// ``DBusValue`` so that a value that does not fit its declared type is a typed error, never
/// a malformed message.
public indirect enum DBusType: Sendable, Hashable {
    case byte
    case boolean
    case int16
    case uint16
    case int32
    case uint32
    case int64
    case uint64
    case double
    case string
    case objectPath
    case signature
    case unixFileDescriptor
    case variant
    case array(DBusType)
    case dictionary(key: DBusType, value: DBusType)
    case structure([DBusType])

    /// The type's signature, e.g. `a{sv}`.
    public var signature: String {
        var text = ""
        appendSignature(to: &text)
        return text
    }

    func appendSignature(to text: inout String) {
        switch self {
        case .byte: text.append("y")
        case .boolean: text.append("b")
        case .int16: text.append("n")
        case .uint16: text.append("q")
        case .int32: text.append("i")
        case .uint32: text.append("u")
        case .int64: text.append("x")
        case .uint64: text.append("t")
        case .double: text.append("d")
        case .string: text.append("s")
        case .objectPath: text.append("o")
        case .signature: text.append("g")
        case .unixFileDescriptor: text.append("h")
        case .variant: text.append("v")
        case .array(let element):
            text.append("a")
            element.appendSignature(to: &text)
        case .dictionary(let key, let value):
            text.append("a{")
            key.appendSignature(to: &text)
            value.appendSignature(to: &text)
            text.append("}")
        case .structure(let fields):
            text.append("(")
            for field in fields { field.appendSignature(to: &text) }
            text.append(")")
        }
    }

    /// The wire alignment of the type, in bytes.
    var alignment: Int {
        switch self {
        case .byte, .signature, .variant: 1
        case .int16, .uint16: 2
        case .boolean, .int32, .uint32, .string, .objectPath, .unixFileDescriptor, .array, .dictionary: 4
        case .int64, .uint64, .double, .structure: 8
        }
    }

    /// Whether the type is basic (usable as a dictionary key).
    public var isBasic: Bool {
        switch self {
        case .variant, .array, .dictionary, .structure: false
        default: true
        }
    }
}

extension DBusType {
    /// The type's signature, checked that it can stand as a signature of its own (a message
    /// body's, a variant's): at most 32 arrays and 32 structures deep, at most 255 bytes long.
    /// The writer uses the text it returns rather than making it again.
    ///
    /// - Throws: ``DBusError/nestingTooDeep``, ``DBusError/invalidSignature(_:reason:)``.
    @discardableResult
    func validatedSignature() throws(DBusError) -> String {
        try checkNesting(within: .top)
        let signature = signature
        guard signature.utf8.count <= 255 else { throw .invalidSignature(signature, reason: "longer than 255 bytes") }
        return signature
    }

    private func checkNesting(within depth: NestingDepth) throws(DBusError) {
        switch self {
        case .array(let element):
            try element.checkNesting(within: depth.entering(.array))
        case .dictionary(let key, let value):
            let inner = try depth.entering(.array)
            try key.checkNesting(within: inner)
            try value.checkNesting(within: inner)
        case .structure(let fields):
            let inner = try depth.entering(.structure)
            for field in fields { try field.checkNesting(within: inner) }
        default:
            break
        }
    }
}

extension DBusType {
    /// Parses one complete type.
    ///
    /// - Throws: ``DBusError/invalidSignature(_:reason:)`` when `signature` is not exactly one
    ///   complete, valid type.
    public init(parsing signature: String) throws(DBusError) {
        let types = try DBusType.parseList(signature)
        guard types.count == 1 else {
            throw .invalidSignature(signature, reason: "expected exactly one complete type, found \(types.count)")
        }
        self = types[0]
    }

    /// Parses a signature made of zero or more complete types (a message body's signature).
    public static func parseList(_ signature: String) throws(DBusError) -> [DBusType] {
        var parser = SignatureParser(text: Array(signature.utf8), original: signature)
        return try parser.parseAll()
    }
}

/// Parses signatures with the spec's limits: 255 bytes, 32 nested arrays, 32 nested structures.
struct SignatureParser {
    let text: [UInt8]
    let original: String
    var position = 0
    var arrayDepth = 0
    var structDepth = 0

    init(text: [UInt8], original: String) {
        self.text = text
        self.original = original
    }

    mutating func parseAll() throws(DBusError) -> [DBusType] {
        guard text.count <= 255 else { throw fail("longer than 255 bytes") }
        var types: [DBusType] = []
        while position < text.count { types.append(try parseOne()) }
        return types
    }

    private func fail(_ reason: String) -> DBusError {
        .invalidSignature(original, reason: reason)
    }

    private mutating func parseOne() throws(DBusError) -> DBusType {
        guard position < text.count else { throw fail("ends in the middle of a type") }
        let code = text[position]
        position += 1
        switch code {
        case UInt8(ascii: "y"): return .byte
        case UInt8(ascii: "b"): return .boolean
        case UInt8(ascii: "n"): return .int16
        case UInt8(ascii: "q"): return .uint16
        case UInt8(ascii: "i"): return .int32
        case UInt8(ascii: "u"): return .uint32
        case UInt8(ascii: "x"): return .int64
        case UInt8(ascii: "t"): return .uint64
        case UInt8(ascii: "d"): return .double
        case UInt8(ascii: "s"): return .string
        case UInt8(ascii: "o"): return .objectPath
        case UInt8(ascii: "g"): return .signature
        case UInt8(ascii: "h"): return .unixFileDescriptor
        case UInt8(ascii: "v"): return .variant
        case UInt8(ascii: "a"): return try parseArray()
        case UInt8(ascii: "("): return try parseStructure()
        default: throw fail("unexpected character '\(Character(Unicode.Scalar(code)))'")
        }
    }

    private mutating func parseArray() throws(DBusError) -> DBusType {
        arrayDepth += 1
        defer { arrayDepth -= 1 }
        guard arrayDepth <= 32 else { throw fail("more than 32 nested arrays") }
        guard position < text.count else { throw fail("array without element type") }
        guard text[position] == UInt8(ascii: "{") else { return .array(try parseOne()) }
        position += 1
        let key = try parseOne()
        guard key.isBasic else { throw fail("dictionary key must be a basic type") }
        let value = try parseOne()
        guard position < text.count, text[position] == UInt8(ascii: "}") else {
            throw fail("dictionary entry must hold exactly a key and a value")
        }
        position += 1
        return .dictionary(key: key, value: value)
    }

    private mutating func parseStructure() throws(DBusError) -> DBusType {
        structDepth += 1
        defer { structDepth -= 1 }
        guard structDepth <= 32 else { throw fail("more than 32 nested structures") }
        var fields: [DBusType] = []
        while true {
            guard position < text.count else { throw fail("unterminated structure") }
            if text[position] == UInt8(ascii: ")") {
                position += 1
                guard !fields.isEmpty else { throw fail("empty structure") }
                return .structure(fields)
            }
            fields.append(try parseOne())
        }
    }
}

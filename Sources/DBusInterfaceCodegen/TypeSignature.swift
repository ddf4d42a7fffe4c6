/// Checks D-Bus type signatures as the D-Bus specification defines them: the basic codes
/// `ybnqiuxtdsogh`, `v`, arrays `a`, non-empty structs `( )` and dict entries `{ }` (a basic key
/// and one value, only as an array's element); at most 255 bytes, 32 nested arrays and 32
/// nested structs.
package enum TypeSignature {
    /// The basic type codes (a dict entry's key is one of them).
    static let basic: Set<UInt8> = Set("ybnqiuxtdsogh".utf8)
    /// The most bytes a signature has.
    package static let maximumLength = 255
    /// The most arrays, and the most structs, nested in one another.
    package static let maximumDepth = 32

    /// Why `signature` is not exactly one complete type, or nil when it is.
    package static func problemWithSingleType(_ signature: String) -> String? {
        let bytes = Array(signature.utf8)
        guard !bytes.isEmpty else { return "the type is empty" }
        guard bytes.count <= maximumLength else { return "the type is \(bytes.count) bytes; a signature is at most \(maximumLength)" }
        var reader = Reader(bytes: bytes)
        do {
            try reader.completeType()
        } catch {
            return "the type \"\(signature)\" \(error.reason)"
        }
        guard reader.index == bytes.count else {
            return "the type \"\(signature)\" is more than one complete type (\"\(String(decoding: bytes[..<reader.index], as: UTF8.self))\" then more)"
        }
        return nil
    }

    private struct Problem: Error {
        let reason: String
    }

    private struct Reader {
        let bytes: [UInt8]
        var index = 0
        var arrays = 0
        var structs = 0

        mutating func completeType() throws(Problem) {
            guard index < bytes.count else { throw Problem(reason: "ends where a type is expected") }
            let code = bytes[index]
            index += 1
            if TypeSignature.basic.contains(code) || code == UInt8(ascii: "v") { return }
            switch code {
            case UInt8(ascii: "a"):
                arrays += 1
                defer { arrays -= 1 }
                guard arrays <= TypeSignature.maximumDepth else {
                    throw Problem(reason: "nests more than \(TypeSignature.maximumDepth) arrays")
                }
                if index < bytes.count, bytes[index] == UInt8(ascii: "{") {
                    index += 1
                    try dictEntry()
                } else {
                    try completeType()
                }
            case UInt8(ascii: "("):
                structs += 1
                defer { structs -= 1 }
                guard structs <= TypeSignature.maximumDepth else {
                    throw Problem(reason: "nests more than \(TypeSignature.maximumDepth) structs")
                }
                guard index < bytes.count, bytes[index] != UInt8(ascii: ")") else {
                    throw Problem(reason: "has an empty struct or one that is not closed")
                }
                while index < bytes.count, bytes[index] != UInt8(ascii: ")") { try completeType() }
                guard index < bytes.count else { throw Problem(reason: "has a struct that is not closed") }
                index += 1
            case UInt8(ascii: "{"):
                throw Problem(reason: "has a dict entry that is not an array's element (write a{...})")
            case UInt8(ascii: ")"), UInt8(ascii: "}"):
                throw Problem(reason: "closes a \(code == UInt8(ascii: ")") ? "struct" : "dict entry") it did not open")
            default:
                throw Problem(reason: "has \(Self.describe(code)), which is no D-Bus type code")
            }
        }

        mutating func dictEntry() throws(Problem) {
            guard index < bytes.count else { throw Problem(reason: "has a dict entry that is not closed") }
            guard TypeSignature.basic.contains(bytes[index]) else {
                throw Problem(reason: "has a dict entry whose key is not a basic type")
            }
            index += 1
            guard index < bytes.count, bytes[index] != UInt8(ascii: "}") else {
                throw Problem(reason: "has a dict entry without a value type, or one that is not closed")
            }
            try completeType()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "}") else {
                throw Problem(reason: "has a dict entry with more than a key and a value, or one that is not closed")
            }
            index += 1
        }

        static func describe(_ code: UInt8) -> String {
            (0x21..<0x7f).contains(code) ? "'\(Character(Unicode.Scalar(code)))'" : "the byte 0x\(String(code, radix: 16))"
        }
    }
}

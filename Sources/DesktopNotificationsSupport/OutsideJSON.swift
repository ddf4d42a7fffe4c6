import Foundation

/// JSON from outside (a file, a bus peer, a command's output) decoded with `JSONDecoder`,
/// after a check of its nesting that the decoder cannot be left with.
///
/// swift-foundation's `JSONDecoder` (Swift 6.3 on Linux) traps, instead of throwing, on input
/// whose 513th nested array or object opens at its last byte: the error it makes for the
/// nesting past its limit computes a source location past the end of the input. Found by the
/// state-file fuzz target (513 `[` alone are enough). Everything the project reads with
/// `JSONDecoder` from outside goes through ``decode(_:from:with:)``, which refuses deeper
/// nesting than ``maximumDepth`` before the decoder sees a byte.
package enum OutsideJSON {
    /// The deepest nesting of arrays and objects read: half the decoder's own limit (512),
    /// and more than anything the project writes holds (a state file with `userInfo` nested
    /// as deep as it may be, 30 levels, reaches about 100).
    package static let maximumDepth = 256

    /// `Value` decoded from `data` by `decoder`, once ``checkNesting(_:limit:)`` passed.
    ///
    /// - Throws: `DecodingError.dataCorrupted` for nesting deeper than ``maximumDepth``; what
    ///   `decoder` throws.
    package static func decode<Value: Decodable>(
        _ type: Value.Type, from data: Data, with decoder: JSONDecoder = JSONDecoder()
    ) throws -> Value {
        try checkNesting(data)
        return try decoder.decode(type, from: data)
    }

    /// Refuses `data` when its arrays and objects nest deeper than `limit`; brackets inside
    /// strings do not count. Any bytes are taken: whether they are JSON is the decoder's to
    /// say.
    ///
    /// - Throws: `DecodingError.dataCorrupted`, naming the limit.
    package static func checkNesting(_ data: Data, limit: Int = maximumDepth) throws {
        let deepest = data.withUnsafeBytes { bytes in deepestNesting(bytes, stoppingPast: limit) }
        guard deepest <= limit else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "JSON nested more than \(limit) deep"))
        }
    }

    /// The deepest nesting in `bytes`, counting no further than one past `limit`.
    private static func deepestNesting(_ bytes: UnsafeRawBufferPointer, stoppingPast limit: Int) -> Int {
        var depth = 0
        var deepest = 0
        var inString = false
        var escaped = false
        for byte in bytes {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                deepest = max(deepest, depth)
                if deepest > limit { return deepest }
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                depth = max(0, depth - 1)
            default:
                break
            }
        }
        return deepest
    }
}

/// Bytes that must appear at given offsets at the start of a file.
struct ByteSignature: Hashable, Sendable {
    private let parts: [Part]

    private struct Part: Hashable, Sendable {
        let offset: Int
        let bytes: [UInt8]
        let mask: [UInt8]
    }

    static func at(_ offset: Int, _ bytes: [UInt8]) -> ByteSignature {
        ByteSignature(parts: [Part(offset: offset, bytes: bytes, mask: bytes.map { _ in 0xFF })])
    }

    static func at(_ offset: Int, _ ascii: String) -> ByteSignature {
        at(offset, Array(ascii.utf8))
    }

    /// An MPEG audio frame starts with eleven set bits.
    static let mpegAudioFrameSync = ByteSignature(parts: [Part(offset: 0, bytes: [0xFF, 0xE0], mask: [0xFF, 0xE0])])

    static func + (lhs: ByteSignature, rhs: ByteSignature) -> ByteSignature {
        ByteSignature(parts: lhs.parts + rhs.parts)
    }

    func matches(_ header: Data) -> Bool {
        let bytes = Array(header)
        return parts.allSatisfy { part in
            guard part.offset + part.bytes.count <= bytes.count else { return false }
            return part.bytes.indices.allSatisfy { index in
                bytes[part.offset + index] & part.mask[index] == part.bytes[index]
            }
        }
    }
}

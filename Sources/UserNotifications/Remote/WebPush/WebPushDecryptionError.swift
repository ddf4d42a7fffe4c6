/// Why a Web Push message (RFC 8291, in RFC 8188's `aes128gcm` coding) cannot be decrypted.
/// Every malformed input has its own case; none is fatal to the receiver.
package enum WebPushDecryptionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The message is longer than ``WebPushDecryptor/maximumMessageSize``.
    case messageTooLarge(size: Int, limit: Int)
    /// The message ends inside the coding header (salt, record size, key id length, key id).
    case truncatedHeader(size: Int)
    /// The record size is below RFC 8188's minimum of 18 octets.
    case recordSizeTooSmall(UInt32)
    /// The key id is not the 65-octet uncompressed P-256 point RFC 8291 puts there.
    case keyIdentifierLength(Int)
    /// The sender's public key is not a point on P-256.
    case invalidSenderKey
    /// The header is followed by no record.
    case noRecords
    /// More records than ``WebPushDecryptor/maximumRecordCount``.
    case tooManyRecords(limit: Int)
    /// A record is shorter than its authentication tag plus the padding delimiter.
    case recordTooShort(index: Int, size: Int)
    /// A record does not authenticate: wrong keys, or a changed or truncated message.
    case authenticationFailed(index: Int)
    /// A record's plaintext is all padding, with no delimiter octet.
    case missingDelimiter(index: Int)
    /// A record's delimiter is not the one its place calls for (2 for the last record, 1 for
    /// the others): the message was truncated or reordered.
    case wrongDelimiter(index: Int, found: UInt8)

    package var description: String {
        switch self {
        case .messageTooLarge(let size, let limit): "the message is \(size) bytes, over the limit of \(limit)"
        case .truncatedHeader(let size): "the message (\(size) bytes) ends inside its coding header"
        case .recordSizeTooSmall(let size): "record size \(size) is below the minimum of 18"
        case .keyIdentifierLength(let length): "the key id is \(length) bytes, not a 65-byte uncompressed P-256 key"
        case .invalidSenderKey: "the sender's key is not a P-256 point"
        case .noRecords: "the message has no record"
        case .tooManyRecords(let limit): "the message has more than \(limit) records"
        case .recordTooShort(let index, let size): "record \(index) is \(size) bytes, too short for its tag and delimiter"
        case .authenticationFailed(let index): "record \(index) does not authenticate"
        case .missingDelimiter(let index): "record \(index) has no padding delimiter"
        case .wrongDelimiter(let index, let found): "record \(index) ends with delimiter \(found)"
        }
    }
}

import Crypto
import Foundation

/// Decrypts Web Push messages (RFC 8291) sent to an app's keys: the `aes128gcm` content coding
/// of RFC 8188, keyed by ECDH on P-256 between the app's key and the sender's, and the app's
/// authentication secret. The primitives are swift-crypto's (`P256.KeyAgreement`,
/// `HKDF<SHA256>`, `AES.GCM`).
///
/// Input is hostile: the size, the record size and the record count are bounded, and every
/// malformed message is a ``WebPushDecryptionError``.
package enum WebPushDecryptor {
    /// The largest message read: UnifiedPush bounds a push message to 4,096 bytes, as RFC 8030
    /// lets push services do.
    package static let maximumMessageSize = 4096
    /// The most records read from one message (RFC 8291 senders use one).
    package static let maximumRecordCount = 64

    /// The length of the salt, the record size and the key id length (RFC 8188 §2.1).
    static let fixedHeaderLength = 21
    /// An uncompressed P-256 point.
    static let publicKeyLength = 65
    /// AES-GCM's tag.
    static let tagLength = 16

    /// Decrypts `message` for the app holding `keys`.
    ///
    /// - Returns: the plaintext, records joined, padding removed.
    /// - Throws: ``WebPushDecryptionError``.
    package static func decrypt(_ message: some DataProtocol, keys: WebPushKeys) throws(WebPushDecryptionError) -> Data {
        let bytes = [UInt8](message.prefix(maximumMessageSize + 1))
        guard bytes.count <= maximumMessageSize else { throw .messageTooLarge(size: message.count, limit: maximumMessageSize) }
        guard bytes.count >= fixedHeaderLength else { throw .truncatedHeader(size: bytes.count) }
        let salt = bytes[0..<16]
        let recordSize = bytes[16..<20].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        let keyIDLength = Int(bytes[20])
        guard recordSize >= 18 else { throw .recordSizeTooSmall(recordSize) }
        guard keyIDLength == publicKeyLength else { throw .keyIdentifierLength(keyIDLength) }
        let headerLength = fixedHeaderLength + keyIDLength
        guard bytes.count >= headerLength else { throw .truncatedHeader(size: bytes.count) }
        let senderKeyBytes = Data(bytes[fixedHeaderLength..<headerLength])
        let senderKey: P256.KeyAgreement.PublicKey
        do {
            senderKey = try P256.KeyAgreement.PublicKey(x963Representation: senderKeyBytes)
        } catch {
            throw .invalidSenderKey
        }
        let body = bytes[headerLength...]
        guard !body.isEmpty else { throw .noRecords }
        let size = Int(recordSize)
        let recordCount = (body.count + size - 1) / size
        guard recordCount <= maximumRecordCount else { throw .tooManyRecords(limit: maximumRecordCount) }

        let shared: SharedSecret
        do {
            shared = try keys.privateKey.sharedSecretFromKeyAgreement(with: senderKey)
        } catch {
            throw .invalidSenderKey
        }
        let (contentKey, nonceBase) = derive(
            shared: shared, authSecret: keys.authSecret, receiverKey: keys.publicKey, senderKey: senderKeyBytes, salt: Data(salt))

        var plaintext = Data()
        var index = 0
        var start = body.startIndex
        while start < body.endIndex {
            let end = min(start + size, body.endIndex)
            let record = body[start..<end]
            let isLast = end == body.endIndex
            guard record.count > tagLength else { throw .recordTooShort(index: index, size: record.count) }
            let opened: Data
            do {
                let box = try AES.GCM.SealedBox(
                    nonce: try AES.GCM.Nonce(data: nonce(nonceBase, index: index)),
                    ciphertext: record.dropLast(tagLength), tag: record.suffix(tagLength))
                opened = try AES.GCM.open(box, using: contentKey)
            } catch {
                throw .authenticationFailed(index: index)
            }
            guard let delimiterAt = opened.lastIndex(where: { $0 != 0 }) else { throw .missingDelimiter(index: index) }
            let delimiter = opened[delimiterAt]
            guard delimiter == (isLast ? 2 : 1) else { throw .wrongDelimiter(index: index, found: delimiter) }
            plaintext.append(opened[opened.startIndex..<delimiterAt])
            index += 1
            start = end
        }
        return plaintext
    }

    /// RFC 8291 §3.4 then RFC 8188 §2.2 and §2.3: the content encryption key and the nonce base.
    package static func derive(
        shared: SharedSecret, authSecret: Data, receiverKey: Data, senderKey: Data, salt: Data
    ) -> (SymmetricKey, Data) {
        let shared = shared.withUnsafeBytes { SymmetricKey(data: Data($0)) }
        let keyInfo = Data("WebPush: info".utf8) + [0] + receiverKey + senderKey
        let ikm = HKDF<SHA256>.deriveKey(inputKeyMaterial: shared, salt: authSecret, info: keyInfo, outputByteCount: 32)
        let contentKey = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: ikm, salt: salt, info: Data("Content-Encoding: aes128gcm".utf8) + [0], outputByteCount: 16)
        let nonceBase = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: ikm, salt: salt, info: Data("Content-Encoding: nonce".utf8) + [0], outputByteCount: 12)
        return (contentKey, nonceBase.withUnsafeBytes { Data($0) })
    }

    /// The nonce of record `index`: the base XOR the index as a 96-bit big-endian number.
    package static func nonce(_ base: Data, index: Int) -> Data {
        var nonce = [UInt8](base)
        var counter = UInt64(index)
        for position in stride(from: nonce.count - 1, through: nonce.count - 8, by: -1) {
            nonce[position] ^= UInt8(truncatingIfNeeded: counter)
            counter >>= 8
        }
        return Data(nonce)
    }
}

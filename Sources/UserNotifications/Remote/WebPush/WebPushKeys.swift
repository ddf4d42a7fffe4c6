import Crypto
import Foundation

/// An app's Web Push keys (RFC 8291 §2): its P-256 key agreement key and its 16-byte
/// authentication secret. The public half and the secret are what a Web Push subscription
/// hands the app's server (`keys.p256dh`, `keys.auth`).
package struct WebPushKeys: Sendable {
    /// The length of the authentication secret.
    package static let authSecretLength = 16

    /// The app's private key, as its raw 32-byte scalar (swift-crypto's key type is not
    /// `Sendable` on every platform).
    package let rawPrivateKey: Data
    /// The app's public key, uncompressed (65 bytes).
    package let publicKey: Data

    /// The app's private key.
    package var privateKey: P256.KeyAgreement.PrivateKey {
        // The scalar was read from a valid key in `init`.
        try! P256.KeyAgreement.PrivateKey(rawRepresentation: rawPrivateKey)
    }
    /// The authentication secret.
    package let authSecret: Data

    /// Keys from their parts.
    ///
    /// - Throws: ``WebPushKeyError`` when the secret is not 16 bytes.
    package init(privateKey: P256.KeyAgreement.PrivateKey, authSecret: Data) throws(WebPushKeyError) {
        guard authSecret.count == Self.authSecretLength else { throw .authSecretLength(authSecret.count) }
        self.init(checkedKey: privateKey, authSecret: authSecret)
    }

    /// Keys from a valid key and a secret already of ``authSecretLength`` bytes.
    private init(checkedKey privateKey: P256.KeyAgreement.PrivateKey, authSecret: Data) {
        rawPrivateKey = privateKey.rawRepresentation
        publicKey = privateKey.publicKey.x963Representation
        self.authSecret = authSecret
    }

    /// New keys, from the system's random source.
    package static func generate() -> WebPushKeys {
        var generator = SystemRandomNumberGenerator()
        let secret = Data((0..<authSecretLength).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
        return WebPushKeys(checkedKey: P256.KeyAgreement.PrivateKey(), authSecret: secret)
    }

    /// Keys from the raw private scalar (32 bytes) and the secret.
    ///
    /// - Throws: ``WebPushKeyError``.
    package init(rawPrivateKey: Data, authSecret: Data) throws(WebPushKeyError) {
        let key: P256.KeyAgreement.PrivateKey
        do {
            key = try P256.KeyAgreement.PrivateKey(rawRepresentation: rawPrivateKey)
        } catch {
            throw .invalidPrivateKey
        }
        try self.init(privateKey: key, authSecret: authSecret)
    }

    /// `keys.p256dh`: the public key, base64url without padding.
    package var p256dh: String { Base64URL.encode(publicKey) }
    /// `keys.auth`: the secret, base64url without padding.
    package var auth: String { Base64URL.encode(authSecret) }
}

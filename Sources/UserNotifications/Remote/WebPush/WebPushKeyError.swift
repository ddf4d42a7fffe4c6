/// Why stored Web Push keys cannot be used.
package enum WebPushKeyError: Error, Sendable, Hashable {
    /// The secret is not 16 bytes.
    case authSecretLength(Int)
    /// The private key is not a P-256 scalar.
    case invalidPrivateKey
}

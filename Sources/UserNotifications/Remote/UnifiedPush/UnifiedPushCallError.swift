/// Why a `org.unifiedpush.Connector2` call is ignored.
package enum UnifiedPushCallError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Not `NewEndpoint`, `Message` or `Unregistered`.
    case unknownMethod(String)
    /// The body is not one `a{sv}`.
    case notADictionary
    /// No token, an empty one, or one over 100 bytes.
    case invalidToken
    /// No endpoint, or one that is not an absolute http(s) URL of at most 1,000 bytes.
    case invalidEndpoint
    /// No `message` of type `ay` or `s`.
    case missingMessage
    /// A message outside 1 to 4,096 bytes.
    case messageSize(Int)
    /// An `id` that is not a string of at most 100 bytes.
    case invalidID

    package var description: String {
        switch self {
        case .unknownMethod(let member): "org.unifiedpush.Connector2 has no method \(member)"
        case .notADictionary: "the body is not one a{sv}"
        case .invalidToken: "no valid token (1 to 100 bytes)"
        case .invalidEndpoint: "no valid endpoint (an absolute http(s) URL of at most 1,000 bytes)"
        case .missingMessage: "no message (ay or s)"
        case .messageSize(let size): "a message of \(size) bytes, outside 1 to 4096"
        case .invalidID: "an id that is not a string of at most 100 bytes"
        }
    }
}

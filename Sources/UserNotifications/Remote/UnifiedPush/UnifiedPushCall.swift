import DBus
import Foundation

/// A call of `org.unifiedpush.Connector2`, read from a bus peer: one `a{sv}` whose keys the
/// specification names. Strings are bounded (token 100 bytes, endpoint 1,000 and an absolute
/// http(s) URL, id 100) and the message is 1 to ``WebPushDecryptor/maximumMessageSize`` bytes,
/// `ay` (or `s`, which some distributors send).
package enum UnifiedPushCall: Sendable, Hashable {
    /// `NewEndpoint`: `token`, `endpoint`.
    case newEndpoint(token: String, endpoint: String)
    /// `Message`: `token`, `message`, and `id` when given.
    case message(token: String, bytes: Data, id: String?)
    /// `Unregistered`: `token`.
    case unregistered(token: String)

    /// The call's token.
    package var token: String {
        switch self {
        case .newEndpoint(let token, _), .message(let token, _, _), .unregistered(let token): token
        }
    }

    /// Reads the call `member` with `body`.
    ///
    /// - Throws: ``UnifiedPushCallError``.
    package static func parse(member: String?, body: [DBusValue]) throws(UnifiedPushCallError) -> UnifiedPushCall {
        guard let method = member.flatMap(Connector2Spec.Method.init(rawValue:)) else { throw .unknownMethod(member ?? "") }
        let fields: [String: DBusValue]
        do throws(DBusError) {
            fields = switch try Connector2Spec.Call(method, body) {
            case .message(let arguments): arguments.args
            case .newEndpoint(let arguments): arguments.args
            case .unregistered(let arguments): arguments.args
            }
        } catch {
            throw .notADictionary
        }
        guard let token = fields["token"]?.stringValue, !token.isEmpty, token.utf8.count <= UnifiedPush.maximumTokenLength else {
            throw .invalidToken
        }
        switch method {
        case .newEndpoint:
            guard let endpoint = fields["endpoint"]?.stringValue, UnifiedPushConnector.isValidEndpoint(endpoint) else {
                throw .invalidEndpoint
            }
            return .newEndpoint(token: token, endpoint: endpoint)
        case .message:
            let bytes: Data
            switch fields["message"] {
            case .byteArray(let raw)?: bytes = Data(raw)
            case .string(let text)?: bytes = Data(text.utf8)
            default: throw .missingMessage
            }
            guard !bytes.isEmpty, bytes.count <= WebPushDecryptor.maximumMessageSize else { throw .messageSize(bytes.count) }
            var id: String?
            if let given = fields["id"] {
                guard let text = given.stringValue, text.utf8.count <= UnifiedPush.maximumTokenLength else { throw .invalidID }
                id = text
            }
            return .message(token: token, bytes: bytes, id: id)
        case .unregistered:
            return .unregistered(token: token)
        }
    }
}

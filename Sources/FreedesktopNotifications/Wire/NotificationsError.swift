public import DBus

/// Every failure of the notification wire layer, typed.
public enum NotificationsError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No notification server owns `org.freedesktop.Notifications` and none can be started.
    case noServer(String)
    /// A field cannot be sent: a NUL character, a bad hint type, an empty action key.
    case invalidArgument(field: String, reason: String)
    /// A field is over the client-side limit (see ``NotificationLimits``).
    case tooLarge(field: String, size: Int, limit: Int)
    /// An `image-data` hint that strict servers would reject.
    case invalidImage(String)
    /// The server did something outside the spec (a reply of the wrong signature, say).
    case protocolViolation(String)
    /// Another process owns `org.freedesktop.Notifications` and did not give it up.
    case serverNameTaken(owner: String?)
    /// The D-Bus layer failed (timeout, disconnect, an error reply).
    case bus(DBusError)

    public var description: String {
        switch self {
        case .noServer(let detail): "no notification server: \(detail)"
        case .invalidArgument(let field, let reason): "invalid \(field): \(reason)"
        case .tooLarge(let field, let size, let limit): "\(field) is \(Self.overLimit(field: field, size: size, limit: limit))"
        case .invalidImage(let reason): "invalid image-data: \(reason)"
        case .protocolViolation(let detail): "the notification server broke the protocol: \(detail)"
        case .serverNameTaken(let owner): "org.freedesktop.Notifications is owned by \(owner ?? "another process")"
        case .bus(let error): error.description
        }
    }

    /// How far over its limit a ``tooLarge(field:size:limit:)`` field is: in bytes, or in
    /// actions for the action list.
    public static func overLimit(field: String, size: Int, limit: Int) -> String {
        "\(size) \(field == "actions" ? "actions" : "bytes"), over the limit of \(limit)"
    }

    /// Wraps a bus error, recognising "nobody serves the name".
    static func from(_ error: any Error) -> NotificationsError {
        if let error = error as? NotificationsError { return error }
        guard let error = error as? DBusError else { return .protocolViolation("\(error)") }
        switch error.remoteName {
        case "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner":
            return .noServer(error.description)
        default:
            return .bus(error)
        }
    }
}

/// Client-side caps, checked before a byte is sent (large messages froze servers; the bus
/// refuses messages over its own limit, 32 MiB by default).
public struct NotificationLimits: Sendable, Hashable {
    /// UTF-8 bytes of the summary. Default 16 KiB.
    public var summaryBytes: Int
    /// UTF-8 bytes of the body. Default 64 KiB.
    public var bodyBytes: Int
    /// Bytes of `image-data` pixels. Default 16 MiB.
    public var imageBytes: Int
    /// Number of actions. Default 32.
    public var actionCount: Int

    /// The default limits.
    public init(summaryBytes: Int = 16 * 1024, bodyBytes: Int = 64 * 1024, imageBytes: Int = 16 * 1024 * 1024, actionCount: Int = 32) {
        self.summaryBytes = summaryBytes
        self.bodyBytes = bodyBytes
        self.imageBytes = imageBytes
        self.actionCount = actionCount
    }
}

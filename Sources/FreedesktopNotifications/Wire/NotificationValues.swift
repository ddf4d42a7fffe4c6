/// The `urgency` hint (a byte on the wire).
public enum NotificationUrgency: UInt8, Sendable, Hashable, CaseIterable {
    case low = 0
    case normal = 1
    case critical = 2
}

/// Why a server closed a notification (`NotificationClosed`'s second argument).
public enum NotificationCloseReason: Sendable, Hashable {
    /// 1: it expired. Servers with `persistence` may keep it in their history.
    case expired
    /// 2: the person dismissed it.
    case dismissed
    /// 3: closed by `CloseNotification`.
    case closedByCall
    /// 4: undefined or reserved.
    case undefined
    /// A value outside the spec.
    case other(UInt32)

    /// The reason for a wire value.
    public init(rawValue: UInt32) {
        switch rawValue {
        case 1: self = .expired
        case 2: self = .dismissed
        case 3: self = .closedByCall
        case 4: self = .undefined
        default: self = .other(rawValue)
        }
    }

    /// The wire value.
    public var rawValue: UInt32 {
        switch self {
        case .expired: 1
        case .dismissed: 2
        case .closedByCall: 3
        case .undefined: 4
        case .other(let value): value
        }
    }
}

/// A capability name from `GetCapabilities`; unknown names are kept as they are.
public struct NotificationCapability: RawRepresentable, Sendable, Hashable, ExpressibleByStringLiteral {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { rawValue = value }

    public static let actionIcons: Self = "action-icons"
    public static let actions: Self = "actions"
    public static let body: Self = "body"
    public static let bodyHyperlinks: Self = "body-hyperlinks"
    public static let bodyImages: Self = "body-images"
    public static let bodyMarkup: Self = "body-markup"
    public static let iconMulti: Self = "icon-multi"
    public static let iconStatic: Self = "icon-static"
    public static let persistence: Self = "persistence"
    public static let sound: Self = "sound"
    /// KDE's inline reply (`NotificationReplied` and the `inline-reply` action key).
    public static let inlineReply: Self = "inline-reply"
}

/// The answer of `GetServerInformation`.
public struct NotificationServerInformation: Sendable, Hashable {
    public var name: String
    public var vendor: String
    public var version: String
    public var specVersion: String

    /// Creates the information a server reports.
    public init(name: String, vendor: String, version: String, specVersion: String) {
        self.name = name
        self.vendor = vendor
        self.version = version
        self.specVersion = specVersion
    }
}

/// One action: a key sent back in `ActionInvoked` and the label shown on its button.
/// The key `default` is the click on the notification itself; `inline-reply` is KDE's
/// reply field.
public struct NotificationAction: Sendable, Hashable {
    public var key: String
    public var label: String

    /// Creates an action.
    public init(key: String, label: String) {
        self.key = key
        self.label = label
    }

    /// The key of the click on the notification body.
    public static let defaultKey = "default"
    /// The key that makes KDE show a reply field.
    public static let inlineReplyKey = "inline-reply"
}

/// `expire_timeout`: how long a server shows the notification.
public enum NotificationExpiry: Sendable, Hashable {
    /// -1: the server's own default.
    case serverDefault
    /// 0: until dismissed.
    case never
    /// A time in milliseconds (1 or more).
    case milliseconds(Int32)

    /// The wire value.
    public var rawValue: Int32 {
        switch self {
        case .serverDefault: -1
        case .never: 0
        case .milliseconds(let value): value
        }
    }

    /// The expiry for a wire value: below 0 is the default, 0 never.
    public init(rawValue: Int32) {
        switch rawValue {
        case ..<0: self = .serverDefault
        case 0: self = .never
        default: self = .milliseconds(rawValue)
        }
    }
}
